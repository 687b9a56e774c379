/**
 * One Temporal client per process (kept on globalThis across dev rebuilds). Routes start workflows by
 * type name with type-only imports, so the web bundle never contains workflow or worker code.
 */
import { Client, Connection, ServiceError } from "@temporalio/client";
import { getEnv } from "./env.server";

declare global {
  // eslint-disable-next-line no-var
  var __temporalClient: Promise<Client> | undefined;
}

/** Temporal cannot be reached: pages answer 503 with a plain message, never a stack trace. */
export class TemporalUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("Temporal is unavailable", { cause });
    this.name = "TemporalUnavailableError";
  }
}

export function getTemporalClient(): Promise<Client> {
  if (!globalThis.__temporalClient) {
    const env = getEnv();
    const pending = Connection.connect({ address: env.TEMPORAL_ADDRESS, connectTimeout: "5s" }).then(
      (connection) => new Client({ connection, namespace: env.TEMPORAL_NAMESPACE }),
    );
    globalThis.__temporalClient = pending;
    // A failed connect is not cached: the next request tries again.
    pending.catch(() => {
      if (globalThis.__temporalClient === pending) globalThis.__temporalClient = undefined;
    });
  }
  return globalThis.__temporalClient.catch((err) => {
    throw new TemporalUnavailableError(err);
  });
}

/** gRPC status codes that mean "the server is not there (now)". */
const UNAVAILABLE_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

export function isTemporalUnavailable(err: unknown): boolean {
  if (err instanceof TemporalUnavailableError) return true;
  if (err instanceof ServiceError) {
    const code = (err.cause as { code?: number } | undefined)?.code;
    return code === undefined || UNAVAILABLE_CODES.has(code);
  }
  return false;
}
