// Mailpit, the local mail catcher of `npm run dev`: an SMTP server that keeps every message and shows
// them in a web UI. Node built-ins only.
import fs from "node:fs";
import path from "node:path";
import { info } from "./log.mjs";
import { isPortOpen, startService, waitForPort, whoListens } from "./proc.mjs";

/**
 * Starts `mailpit` with SMTP on 127.0.0.1:`smtpPort` (no TLS, any login accepted) and its UI on
 * 127.0.0.1:`uiPort`; messages are kept in `dbFile` (at most 500) between runs.
 * With `reuse`, a catcher already listening on both ports is used as is (nothing started).
 * Returns { reused, smtpUrl, uiUrl, svc?, stop() }.
 */
export async function startMailpit({
  bin,
  smtpPort,
  uiPort,
  dbFile,
  name = "mailpit",
  reuse = false,
  quiet = false,
}) {
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  const uiUrl = `http://localhost:${uiPort}`;
  const [smtpTaken, uiTaken] = await Promise.all([isPortOpen(smtpPort), isPortOpen(uiPort)]);
  if (smtpTaken || uiTaken) {
    if (reuse && smtpTaken && uiTaken) {
      if (!quiet)
        info(`a mail catcher is already listening on :${smtpPort} / :${uiPort}; reusing it`);
      return { reused: true, smtpUrl, uiUrl, stop: async () => {} };
    }
    const port = smtpTaken ? smtpPort : uiPort;
    throw new Error(
      `port ${port} is taken (${whoListens(port)}); cannot start Mailpit (set SMTP_URL to use another SMTP server)`,
    );
  }
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const args = [
    "--smtp",
    `127.0.0.1:${smtpPort}`,
    "--listen",
    `127.0.0.1:${uiPort}`,
    "--database",
    dbFile,
    "--max",
    "500",
    "--smtp-auth-accept-any",
    "--smtp-auth-allow-insecure",
    "--disable-version-check",
    "--quiet",
  ];
  const svc = startService(name, bin, args, {
    filter: (line) => !quiet || /error|fatal|panic/i.test(line),
  });
  svc.stopOpts = { signal: "SIGTERM", timeoutMs: 10_000 };
  await waitForPort(smtpPort, { svc, timeoutMs: 30_000, what: `Mailpit SMTP :${smtpPort}` });
  await waitForPort(uiPort, { svc, timeoutMs: 30_000, what: `Mailpit UI :${uiPort}` });
  return { reused: false, svc, smtpUrl, uiUrl, stop: () => svc.stop(svc.stopOpts) };
}
