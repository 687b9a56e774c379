/**
 * The SQLSTATE or connection error code of a database error: the first string `code` on the error or along its
 * causes (Drizzle wraps the driver's error as `cause`; a socket error may sit one level deeper), up to 5 deep.
 */
export function dbErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
