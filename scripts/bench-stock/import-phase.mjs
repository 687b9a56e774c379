// One phase of a stock import, in a process of its own so that its peak RSS is that phase's (npm run bench:stock,
// scripts/bench-stock.mjs runs it under tsx). The page's own server functions (app/routes/stock-import.server.ts)
// with the Request a browser sends: "preview" posts the file (multipart, intent upload) and loads the preview page's
// data; "confirm" loads that data, posts the confirm form (urlencoded: intent confirm, import, and code[i] / pick[i]
// for each line to confirm, the first guess picked) and loads the results page's data. A warm-up preview of a small
// file (another retailer) runs first, untimed. Writes { ms, rssBeforeMb, peakRssMb, importId, counts } to `out`.
import fs from "node:fs";

const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
process.env.DATABASE_URL = job.url;
process.env.MARKETPLACE_TZ ??= "America/New_York";
const { stockImportAction, stockImportLoader } = await import(
  "../../app/routes/stock-import.server.ts"
);
const { retailers } = await import("../../db/schema/index.ts");
const { db } = await import("../../app/utils/db.server.ts");
const { eq } = await import("drizzle-orm");

const BASE = "http://bench.local/stock-import";

async function authOf(retailerId, userId) {
  const [retailer] = await db.select().from(retailers).where(eq(retailers.id, retailerId));
  return { user: { id: userId, email: "bench@bench.test", isStaff: false }, retailer };
}

/** The action's answer must be the 303 to the import's page: its id. */
function importIdOf(res, what) {
  if (!(res instanceof Response) || res.status !== 303)
    throw new Error(`${what}: no redirect (${JSON.stringify(res?.data ?? res?.status)})`);
  return Number(new URL(res.headers.get("Location"), BASE).searchParams.get("import"));
}

async function preview(auth, file, fileName) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("file", new File([fs.readFileSync(file)], fileName));
  const id = importIdOf(
    await stockImportAction(new Request(BASE, { method: "POST", body: form }), auth),
    "upload",
  );
  const page = await stockImportLoader(new Request(`${BASE}?import=${id}`), auth);
  if (page.stage !== "preview")
    throw new Error(`upload: the page shows ${page.stage}, not the preview`);
  return { id, rows: page.rows };
}

async function confirm(auth, id) {
  const page = await stockImportLoader(new Request(`${BASE}?import=${id}`), auth);
  const body = new URLSearchParams({ intent: "confirm", import: String(id) });
  page.rows
    .filter((r) => r.action === "choose")
    .forEach((r, i) => {
      body.set(`code[${i}]`, r.code);
      body.set(`pick[${i}]`, String(r.guesses?.[0]?.variationId ?? ""));
    });
  const request = new Request(BASE, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  importIdOf(await stockImportAction(request, auth), "confirm");
  const done = await stockImportLoader(new Request(`${BASE}?import=${id}`), auth);
  if (done.stage !== "results")
    throw new Error(`confirm: the page shows ${done.stage}, not the results`);
  return { id, rows: done.rows };
}

const warm = await authOf(job.warm.retailerId, job.warm.userId);
await preview(warm, job.warm.file, job.warm.fileName);
const auth = await authOf(job.retailerId, job.userId);
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
const out =
  job.phase === "preview"
    ? await preview(auth, job.file, job.fileName)
    : await confirm(auth, job.importId);
const ms = performance.now() - t0;
const counts = {};
for (const r of out.rows) counts[r.action] = (counts[r.action] ?? 0) + 1;
fs.writeFileSync(
  job.out,
  JSON.stringify({
    ms,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    importId: out.id,
    counts,
    lines: out.rows.reduce((a, r) => a + r.lines.length, 0),
  }),
);
process.exit(0);
