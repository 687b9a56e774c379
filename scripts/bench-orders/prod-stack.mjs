// The stack a run drives. By default the running `npm run dev` stack (--base-url, --database-url,
// --temporal-address). --prod (and --scale N): the bench's own production-like stack (scripts/lib/prod-stack.mjs),
// on ports and a data folder no other script uses, started here and stopped at the end and on Ctrl-C; with the
// payload codec on, or off for --codec off (a run of --codec both each in turn, codec.mjs).
import path from "node:path";
import { c, warn } from "../lib/log.mjs";
import { DATA_DIR } from "../lib/paths.mjs";

const PROD_PORTS = { app: 3200, temporal: 7253, postgres: 54360 };
const PROD_DIR = path.join(DATA_DIR, "bench-orders");

/** What Ctrl-C stops: the stack of the run in progress (--codec both starts one per run, one after the other). */
let stopCurrent = null;

/** --prod: starts the stack and points the options at it; exits 2 when it does not start. */
async function startOwnStack(o, stop) {
  const { onShutdown } = await import("../lib/proc.mjs");
  const { startProdStack, INHERITED_STACK_VARS } = await import("../lib/prod-stack.mjs");
  if (!stopCurrent)
    onShutdown(async () => {
      warn("interrupted: stopping the bench's stack");
      await stopCurrent();
    });
  stopCurrent = stop;
  for (const k of INHERITED_STACK_VARS) delete process.env[k];
  let prodStack;
  try {
    prodStack = await startProdStack({
      ports: PROD_PORTS,
      dataDir: PROD_DIR,
      build: o.build,
      taskQueue: "marketplace",
      scale: o.scale,
      codec: o.codec,
    });
  } catch (e) {
    console.error(c.red(`--prod: the production stack did not start: ${e?.stack ?? e}`));
    process.exit(2);
  }
  Object.assign(o, {
    baseUrl: prodStack.baseUrl,
    databaseUrl: prodStack.databaseUrl,
    temporalAddress: prodStack.temporalAddress,
    taskQueue: "marketplace",
    namespace: "default",
  });
  return prodStack;
}

/**
 * The stack of this run: { prodStack (--prod, else null), stop() (what the bench started), finish(code) (stop,
 * then exit) }. The app must answer at the options' base URL, else the run ends with exit 2.
 */
export async function openStack(o) {
  const stack = { prodStack: null };
  let stopping = null;
  stack.stop = () => (stopping ??= stack.prodStack ? stack.prodStack.stop() : Promise.resolve());
  stack.finish = async (code) => {
    await stack.stop();
    process.exit(code);
  };
  if (o.prod) stack.prodStack = await startOwnStack(o, stack.stop);
  const health = await fetch(`${o.baseUrl}/signin`).catch((e) => e);
  if (!(health instanceof Response) || health.status !== 200) {
    console.error(
      c.red(
        `The app does not answer at ${o.baseUrl}/signin: start the dev stack (npm run dev), pass --base-url, or use --prod.`,
      ),
    );
    await stack.finish(2);
  }
  return stack;
}
