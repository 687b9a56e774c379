// Temporal CLI dev server (server + Web UI in one Go process). Node built-ins only.
import fs from "node:fs";
import path from "node:path";
import { info } from "./log.mjs";
import { isPortOpen, sleep, startService, waitForPort, whoListens } from "./proc.mjs";

/**
 * Starts `temporal server start-dev`.
 * options: { bin, port, uiPort (null = headless), dbFile (null = in memory), name, reuse }
 * With `reuse`, a server already listening on `port` is used as is (nothing started).
 */
export async function startTemporalDev({ bin, port, uiPort = null, dbFile = null, name = "temporal", reuse = false, quiet = false }) {
  if (await isPortOpen(port)) {
    if (reuse) {
      info(`Temporal already listening on :${port}; reusing it`);
      return { reused: true, address: `127.0.0.1:${port}`, stop: async () => {} };
    }
    throw new Error(`port ${port} is taken (${whoListens(port)}); cannot start the Temporal dev server`);
  }
  const args = ["server", "start-dev", "--port", String(port), "--ip", "127.0.0.1", "--log-level", "warn", "--color", "never"];
  if (dbFile) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push("--db-filename", dbFile);
  }
  if (uiPort) args.push("--ui-port", String(uiPort));
  else args.push("--headless");
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
