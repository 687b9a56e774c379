// Temporal CLI dev server (server + Web UI in one Go process). Node built-ins only.
import fs from "node:fs";
import path from "node:path";
import { info } from "./log.mjs";
import { isPortOpen, runOrThrow, sleep, startService, waitForPort, whoListens } from "./proc.mjs";

/**
 * Engine settings of every dev server this project starts (`npm run dev`, the e2e suite, the benchmarks):
 * the one place they are set. Measured in docs/performance.md ("Orders"); docker-compose.yml runs a
 * Postgres-backed server instead and does not use these.
 *
 * - `journal_mode=wal` (file-backed servers only; an in-memory database has no journal): SQLite's default
 *   rollback journal makes every history write wait for the file's exclusive lock; with WAL, readers (the
 *   queue processors, the Web UI) no longer block the writer, and a commit is one append.
 * - `synchronous=NORMAL`: with WAL, a commit is durable against a process crash (a power loss may drop the
 *   last transactions); right for a developer's machine, not for production.
 * - `system.enableActivityEagerExecution`: when a workflow task schedules an activity on its own task queue,
 *   the server hands the activity straight back to the worker that completed the task (the SDK asks for it by
 *   default), instead of queueing it for a poll: one hop less per payment or carrier call.
 * - `history.transferProcessorMaxPollRPS`, `history.timerProcessorMaxPollRPS`,
 *   `history.visibilityProcessorMaxPollRPS`: how often the history service may poll its transfer (activity
 *   and workflow tasks to matching), timer and visibility queues. The default (20 polls/s) makes each
 *   activity, signal or timer hop wait ~45 ms even with a single order in flight; 1,000/s lets a hop go
 *   through as soon as it is written. Raising the poll rate on the rollback journal alone made things
 *   worse (lock contention), so the two go together.
 * - `system.forceSearchAttributesCacheRefreshOnRead=false`: unless this key is given, the CLI turns the server's
 *   search-attribute cache off (so that an attribute created a moment ago is seen at once), and then each
 *   time the server checks or records a workflow's search attributes it reads the cluster metadata and the
 *   namespace from SQLite again: ~38 + ~18 reads per purchase, from the server's metrics. Every attribute the
 *   workflows use is registered by flag when the server starts (SEARCH_ATTRIBUTES below), before any
 *   workflow runs, so the cache can stay on. A server this project did not start (reused by `npm run dev`)
 *   keeps its own settings. Measured in docs/performance.md ("Purchase speed: the night of 2026-11-26").
 */
export const ENGINE_SQLITE_PRAGMAS = ["journal_mode=wal", "synchronous=NORMAL"];
export const ENGINE_DYNAMIC_CONFIG = {
  "system.enableActivityEagerExecution": true,
  "history.transferProcessorMaxPollRPS": 1000,
  "history.timerProcessorMaxPollRPS": 1000,
  "history.visibilityProcessorMaxPollRPS": 1000,
  "system.forceSearchAttributesCacheRefreshOnRead": false,
};

/**
 * The custom search attributes every order workflow upserts (name → type as the CLI spells it), registered
 * by every dev server this project starts: a workflow that upserts an attribute its server does not know
 * fails its workflow task. Declared with their types in workflows/common/search-attributes.ts (this file
 * imports Node built-ins only); tests/unit/search-attributes.test.ts checks that this list, and
 * docker-compose.yml's, are that one. README "Ops" shows what to filter with them.
 */
export const SEARCH_ATTRIBUTES = Object.freeze({
  OrderNumber: "Keyword",
  OrderKind: "Keyword",
  OrderState: "Keyword",
  OrderStage: "Keyword",
  ProviderRetailerId: "Int",
  ReceiverRetailerId: "Int",
  WaitingOn: "KeywordList",
});

/**
 * `temporal operator search-attribute create` argument lists registering SEARCH_ATTRIBUTES on a running
 * server, one command per attribute: given several --name and one --type, CLI 1.5.1 registers only the first
 * name (and says all were added). Idempotent: an attribute that exists with the same type is left alone;
 * one with another type fails the command.
 */
export function searchAttributeCreateArgs(address) {
  return Object.entries(SEARCH_ATTRIBUTES).map(([name, type]) => [
    "operator",
    "search-attribute",
    "create",
    "--address",
    address,
    "--name",
    name,
    "--type",
    type,
  ]);
}

/** The `temporal server start-dev` flags of ENGINE_SQLITE_PRAGMAS, ENGINE_DYNAMIC_CONFIG and SEARCH_ATTRIBUTES. */
export function engineArgs({ fileBacked }) {
  const args = [];
  if (fileBacked) for (const p of ENGINE_SQLITE_PRAGMAS) args.push("--sqlite-pragma", p);
  for (const [k, v] of Object.entries(ENGINE_DYNAMIC_CONFIG)) args.push("--dynamic-config-value", `${k}=${JSON.stringify(v)}`);
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push("--search-attribute", `${name}=${type}`);
  return args;
}

/**
 * Starts `temporal server start-dev` with the engine settings above.
 * options: { bin, port, uiPort (null = headless), codecEndpoint (the UI's codec server), dbFile (null = in memory), name, reuse }
 * With `reuse`, a server already listening on `port` is used as is (nothing started).
 */
export async function startTemporalDev({
  bin,
  port,
  uiPort = null,
  codecEndpoint = null,
  dbFile = null,
  name = "temporal",
  reuse = false,
  quiet = false,
}) {
  if (await isPortOpen(port)) {
    if (reuse) {
      info(`Temporal already listening on :${port}; reusing it`);
      // Started before the search attributes existed (or by someone else): register what is missing.
      for (const args of searchAttributeCreateArgs(`127.0.0.1:${port}`)) await runOrThrow(bin, args, { quiet: true });
      return { reused: true, address: `127.0.0.1:${port}`, stop: async () => {} };
    }
    throw new Error(`port ${port} is taken (${whoListens(port)}); cannot start the Temporal dev server`);
  }
  const args = ["server", "start-dev", "--port", String(port), "--ip", "127.0.0.1", "--log-level", "warn", "--color", "never"];
  if (dbFile) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push("--db-filename", dbFile);
  }
  args.push(...engineArgs({ fileBacked: Boolean(dbFile) }));
  if (uiPort) args.push("--ui-port", String(uiPort));
  else args.push("--headless");
  if (uiPort && codecEndpoint) args.push("--ui-codec-endpoint", codecEndpoint);
  // The CLI prints a banner on stdout. Shutdown chatter (pollers losing the connection) is dropped;
  // quiet keeps only errors.
  const noise = /Failed to poll for task|network dial error|graceful_stop|context canceled|transport is closing/;
  const filter = (line) => !noise.test(line) && (!quiet || /level=(ERROR|FATAL|PANIC)|panic:/.test(line));
  const svc = startService(name, bin, args, { filter });
  svc.stopOpts = { signal: "SIGTERM", timeoutMs: 15_000 };
  await waitForPort(port, { svc, timeoutMs: 90_000, what: `Temporal frontend :${port}` });
  // The banner ("Server: localhost:7233") is printed once the default namespace exists.
  for (let i = 0; i < 300 && !/Server:/.test(svc.tail()); i++) await sleep(100);
  if (uiPort) await waitForPort(uiPort, { svc, timeoutMs: 60_000, what: `Temporal UI :${uiPort}` });
  return { reused: false, svc, address: `127.0.0.1:${port}`, stop: () => svc.stop(svc.stopOpts) };
}
