// The Temporal engine settings and search attributes every server this project starts uses: the dev servers
// (scripts/lib/temporal.mjs engineArgs), `npm run prod` and docker-compose.yml (config/topology.mjs). No imports
// (scripts import config/, never the other way).

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
 * imports nothing); tests/unit/search-attributes.test.ts checks that this list, and
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
