/**
 * The generic screens at size: the SQL of /admin/:class_name (db/queries/admin-resources.ts) against
 * the benchmark data set (npm run bench:seed: 200,000 listings, 20,000 variations), and the CSV export of all
 * listings through the same code path as app/routes/admin.$class_name.export.tsx (keyset pages of 100,
 * csv-stringify), written to /dev/null, with the process's peak RSS.
 *
 *   node scripts/seed-large.mjs --keep     # embedded Postgres on :54350, database marketplace_bench
 *   BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:54350/marketplace_bench npx tsx tests/bench/admin-resources.ts
 */
import { stringify } from "csv-stringify/sync";
import { createDb } from "../../db/client";
import { exportResource, listResource, type ListQuery } from "../../db/queries/admin-resources";
import { neutraliseCsvCell, RESOURCES, type ResourceName } from "../../domain/resources";

const url =
  process.env.BENCH_DATABASE_URL ??
  "postgres://postgres:postgres@127.0.0.1:54350/marketplace_bench";
const { db, close } = createDb(url, { max: 4 });
const RUNS = Number(process.env.RUNS ?? 40);

function p(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

async function measure(label: string, name: ResourceName, q: ListQuery) {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const t = performance.now();
    const r = await listResource(db, name, q);
    const ms = performance.now() - t;
    count = r.count;
    if (i >= 3) times.push(ms);
  }
  console.log(
    `| ${label} | ${count} | ${p(times, 0.5).toFixed(1)} | ${p(times, 0.95).toFixed(1)} |`,
  );
}

console.log("| page | rows matched | p50 ms | p95 ms |\n|---|---|---|---|");
await measure("listing, page 1, newest first", "listing", { page: 1 });
await measure("listing, page 4,000 (the last, offset 199,950)", "listing", { page: 4000 });
await measure("listing, sort by price asc, page 4,000 (the last)", "listing", {
  page: 4000,
  sort: "price",
  dir: "asc",
});
await measure("listing, status payoutneeded, page 200", "listing", {
  page: 200,
  filters: { status: "payoutneeded" },
});
await measure("listing, sort by price asc", "listing", { page: 1, sort: "price", dir: "asc" });
await measure("listing, sort by created asc, page 50", "listing", {
  page: 50,
  sort: "created",
  dir: "asc",
});
await measure("listing, search by id", "listing", { page: 1, search: "123456" });
await measure("listing, search by sku text", "listing", { page: 1, search: "b12" });
await measure("listing, status payoutneeded", "listing", {
  page: 1,
  filters: { status: "payoutneeded" },
});
await measure("productvariation, page 1", "productvariation", { page: 1 });
await measure("productvariation, search 'navy'", "productvariation", { page: 1, search: "navy" });
await measure("productvariation, sort by sku, page 100", "productvariation", {
  page: 100,
  sort: "sku",
  dir: "asc",
});

const fields = RESOURCES.listing.fields;
let rows = 0;
let bytes = 0;
let peak = process.memoryUsage().rss;
const t0 = performance.now();
for await (const page of exportResource(db, "listing", {})) {
  const out = stringify(
    page.rows.map((r) =>
      fields.map((f) =>
        neutraliseCsvCell(
          r[f.name] instanceof Date ? (r[f.name] as Date).toISOString() : r[f.name],
        ),
      ),
    ),
    { quoted: true },
  );
  bytes += out.length;
  rows += page.rows.length;
  peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(
  `\nexport of all listings: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB of CSV in ${((performance.now() - t0) / 1000).toFixed(1)} s; peak RSS ${(peak / 1e6).toFixed(0)} MB`,
);
await close();
