import { createDb, type DbHandle } from "../../db/client";
import { getEnv } from "./env.server";

declare global {
  // eslint-disable-next-line no-var
  var __dbHandle: DbHandle | undefined;
}

/** One pool per process (kept across dev rebuilds on globalThis). */
function handle(): DbHandle {
  if (!globalThis.__dbHandle) globalThis.__dbHandle = createDb(getEnv().DATABASE_URL);
  return globalThis.__dbHandle;
}

export const db = new Proxy({} as DbHandle["db"], {
  get(_t, prop) {
    return Reflect.get(handle().db, prop);
  },
});
