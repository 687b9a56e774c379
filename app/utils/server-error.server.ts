/**
 * What of a server error may leave the server: nothing but its kind. Remix puts a thrown Error's message and
 * stack into the answer outside production (a resource route's 500 body is "Unexpected Server Error" and
 * `String(error)`; a page carries the serialized error for hydration), and a failed query's message holds its
 * SQL and parameters. `handleError` (app/entry.server.tsx) logs the error whole, then redacts it with
 * `redactServerError` before Remix serializes it, so no answer in any mode carries SQL, parameters or a stack
 * (tests/unit/server-error.test.ts; the error page's text: app/components/errors.ts).
 */

/** The text a redacted error carries in place of its message. */
export const REDACTED_ERROR_TEXT = "Unexpected Server Error (details are in the server log)";

/** Empties an Error (and the errors it wraps) of everything but a fixed text; other values are left alone. */
export function redactServerError(error: unknown, seen = new Set<unknown>()): void {
  if (!(error instanceof Error) || seen.has(error)) return;
  seen.add(error);
  const cause = (error as { cause?: unknown }).cause;
  for (const [key, value] of [
    ["message", REDACTED_ERROR_TEXT],
    ["stack", undefined],
    ["name", "Error"],
    ["cause", undefined],
    ["toString", () => REDACTED_ERROR_TEXT],
  ] as const)
    Object.defineProperty(error, key, { value, configurable: true, writable: true });
  // What a driver's error carries beside its message (a query, its parameters, the row's detail).
  for (const key of Object.keys(error)) {
    try {
      delete (error as unknown as Record<string, unknown>)[key];
    } catch {
      // a frozen property: left as it is
    }
  }
  redactServerError(cause, seen);
}
