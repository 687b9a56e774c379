/**
 * The workflow tests' worker with the REAL activities (tests/setup/real-activities.ts), started before a test
 * file's first test and stopped after its last (buy-real-activities, swap-real-activities, rma-real-activities).
 */
import { afterAll, beforeAll } from "vitest";
import type { Db } from "../../db/client";
import { startRealWorker, type RealWorker } from "./real-activities";

export { startRealWorker, type RealWorker };

/**
 * The test file's real worker: started before its first test, stopped after its last. Its fields are read
 * inside the tests (they exist once the worker runs).
 */
export function useRealWorker(
  db: Db,
  opts: { secret: string; prefix: string },
): Omit<RealWorker, "stop"> {
  let real: RealWorker | undefined;
  beforeAll(async () => {
    real = await startRealWorker(db, opts);
  });
  afterAll(async () => {
    await real?.stop();
  });
  const started = (): RealWorker => {
    if (!real) throw new Error(`the ${opts.prefix} worker has not started`);
    return real;
  };
  return {
    get env() {
      return started().env;
    },
    get carrier() {
      return started().carrier;
    },
    get taskQueue() {
      return started().taskQueue;
    },
    get webhookLog() {
      return started().webhookLog;
    },
  };
}
