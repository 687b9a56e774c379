/**
 * The worker process's entry (`npm run worker`): the environment is read and checked first, before anything
 * heavy loads, so a production start with an unsafe setting is refused at once with one line per problem
 * (docs/operations.md, "Production refusals"); then the worker itself (workers/worker-process.ts) runs.
 */
import fs from "node:fs";
import { EnvError, parseEnv, type Env } from "../domain/env";
import { say } from "./worker-log";

/** The environment (`*_FILE` variables read from their files), or one line naming what is wrong and exit 1. */
function readEnv(): Env {
  try {
    return parseEnv(process.env, (file) => fs.readFileSync(file, "utf8"));
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    // One line per refused setting, e.g. "[worker] cannot start: Invalid environment: PAYLOAD_KEYS: required in
    // production ..." (docs/operations.md, "Production refusals").
    for (const problem of err.problems)
      say("error", `cannot start: Invalid environment: ${problem}`);
    process.exit(1);
  }
}

const env = readEnv();
const { main } = await import("./worker-process");
main(env).catch((err) => {
  say("error", `failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
