// Temporal CLI dev server (server + Web UI in one Go process). Node built-ins only.
import fs from "node:fs";
import path from "node:path";
import {
  ENGINE_DYNAMIC_CONFIG,
  ENGINE_SQLITE_PRAGMAS,
  SEARCH_ATTRIBUTES,
} from "../../config/temporal-engine.mjs";
import { info } from "./log.mjs";
import { isPortOpen, runOrThrow, sleep, startService, waitForPort, whoListens } from "./proc.mjs";

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

/** The `temporal server start-dev` flags of config/temporal-engine.mjs: ENGINE_SQLITE_PRAGMAS, ENGINE_DYNAMIC_CONFIG, SEARCH_ATTRIBUTES. */
export function engineArgs({ fileBacked }) {
  const args = [];
  if (fileBacked) for (const p of ENGINE_SQLITE_PRAGMAS) args.push("--sqlite-pragma", p);
  for (const [k, v] of Object.entries(ENGINE_DYNAMIC_CONFIG))
    args.push("--dynamic-config-value", `${k}=${JSON.stringify(v)}`);
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES))
    args.push("--search-attribute", `${name}=${type}`);
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
      for (const args of searchAttributeCreateArgs(`127.0.0.1:${port}`))
        await runOrThrow(bin, args, { quiet: true });
      return { reused: true, address: `127.0.0.1:${port}`, stop: async () => {} };
    }
    throw new Error(
      `port ${port} is taken (${whoListens(port)}); cannot start the Temporal dev server`,
    );
  }
  const args = [
    "server",
    "start-dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--log-level",
    "warn",
    "--color",
    "never",
  ];
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
  const noise =
    /Failed to poll for task|network dial error|graceful_stop|context canceled|transport is closing/;
  const filter = (line) =>
    !noise.test(line) && (!quiet || /level=(ERROR|FATAL|PANIC)|panic:/.test(line));
  const svc = startService(name, bin, args, { filter });
  svc.stopOpts = { signal: "SIGTERM", timeoutMs: 15_000 };
  await waitForPort(port, { svc, timeoutMs: 90_000, what: `Temporal frontend :${port}` });
  // The banner ("Server: localhost:7233") is printed once the default namespace exists.
  for (let i = 0; i < 300 && !/Server:/.test(svc.tail()); i++) await sleep(100);
  if (uiPort) await waitForPort(uiPort, { svc, timeoutMs: 60_000, what: `Temporal UI :${uiPort}` });
  return { reused: false, svc, address: `127.0.0.1:${port}`, stop: () => svc.stop(svc.stopOpts) };
}
