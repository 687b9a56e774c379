/**
 * A database that does not answer (restarting, failing over, out of connections) is not a server error: the
 * page answers 503 with "try again" (docs/reliability.md, "Faults of the production topology"). Recognised by
 * the error's code or its cause's: the socket's (refused, reset) and PostgreSQL's own (admin shutdown, crash
 * shutdown, cannot connect now, connection failures; postgres.js names its closed connections).
 */
import { dbErrorCode } from "../../db/errors";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../../domain/messages";

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08006",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** Whether `error` (or an error it was caused by) says the database did not answer. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = dbErrorCode(error);
  return code !== undefined && UNAVAILABLE_CODES.has(code);
}

/** Runs `read`; a database that does not answer becomes a 503 Response with the "try again" text. */
export async function orUnavailable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (isDatabaseUnavailable(e))
      throw new Response(DATABASE_UNAVAILABLE_MESSAGE, {
        status: 503,
        headers: { "Retry-After": "5" },
      });
    throw e;
  }
}
