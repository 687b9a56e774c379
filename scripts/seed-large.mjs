#!/usr/bin/env node
// npm run bench:seed — a large marketplace for the benchmark (docs/performance.md, "Marketplace"):
//   50 brands (2 collections each), 8 categories, 5,000 products with size runs, 20,000 colour variations
//   (one image each), 2,000 retailers (all active, setup done, payout set up; each authorized for a window
//   of 10 consecutive brands, so authorizations overlap: every brand has 400 authorized retailers),
//   200,000 listings (sizes jsonb + total_units; 70 % sell / 30 % swap; 95 % active / 5 % payoutneeded;
//   2 % sold out; type, status and sold-out are independent of the brand) and 50,000 requests, plus a few users to sign in with (BENCH_LOGINS below).
//
// Everything is set-based SQL (INSERT ... SELECT FROM generate_series) on one connection, with explicit ids
// (fresh database; sequences are moved past them afterwards), then ANALYZE. Prints the time per table.
//
// Database: BENCH_DATABASE_URL when given (its database is DROPPED and re-created), otherwise an embedded
// PostgreSQL of its own on port 54350 with its data in .data/pg-bench (started here, stopped at the end),
// database `marketplace_bench`. Migrations: db/migrate.ts.
//
// Options: --keep (leave the embedded Postgres running; the benchmark uses this internally).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { c, fmtMs, info, step } from "./lib/log.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { onShutdown } from "./lib/proc.mjs";

export const BENCH_PG_PORT = 54350;
export const BENCH_PG_DIR = path.join(DATA_DIR, "pg-bench");
export const BENCH_DB_NAME = "marketplace_bench";
export const BENCH_PASSWORD = "bench-marketplace-1";
/** Retailer r (ids 1..2000) is authorized for brand ids ((r-1) % 50 + t) % 50 + 1, t = 0..9. */
export const BENCH_COUNTS = Object.freeze({
  brands: 50,
  retailers: 2000,
  brandsPerRetailer: 10,
  products: 5000,
  variations: 20000,
  listings: 200000,
  requests: 50000,
});
/** One retailer user per brand group (window start 0, 10, 20, 30, 40 → brands 1-10, 11-20, ...), and staff. */
export const BENCH_LOGINS = Object.freeze({
  retailers: [1, 11, 21, 31, 41].map((retailerId) => ({
    retailerId,
    email: `bench-retailer-${retailerId}@bench.test`,
  })),
  staff: { email: "bench-staff@bench.test" },
});
/** The seed marks itself in seed_runs with this prefix + a hash of the migrations and of this file. */
const SEED_NAME_PREFIX = "bench-large:";

export function seedFingerprint() {
  const h = crypto.createHash("sha1");
  h.update(fs.readFileSync(fileURLToPath(import.meta.url)));
  const migDir = path.join(ROOT, "db", "migrations");
  for (const f of fs
    .readdirSync(migDir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    h.update(f).update(fs.readFileSync(path.join(migDir, f)));
  return SEED_NAME_PREFIX + h.digest("hex").slice(0, 12);
}

/** Starts (or adopts) the bench cluster, or uses BENCH_DATABASE_URL. Returns { url, pg|null }. */
export async function startBenchPostgres() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, pg: null };
  const { startEmbeddedPostgres, ensureDatabase } = await import("./lib/pg.mjs");
  const pg = await startEmbeddedPostgres({
    name: "pg-bench",
    dataDir: BENCH_PG_DIR,
    port: BENCH_PG_PORT,
    fast: true,
    quiet: true,
  });
  const url = await ensureDatabase(pg.serverUrl, BENCH_DB_NAME);
  return { url, pg };
}

async function connect(url) {
  const { default: postgres } = await import("postgres");
  return postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
}

export async function isSeeded(url) {
  const sql = await connect(url);
  try {
    const rows = await sql`select name from seed_runs where name = ${seedFingerprint()}`.catch(
      () => [],
    );
    return rows.length > 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function recreateDatabase(url) {
  const { default: postgres } = await import("postgres");
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!name || name === "postgres")
    throw new Error(
      "BENCH_DATABASE_URL must name a database other than postgres (it is dropped and re-created)",
    );
  u.pathname = "/postgres";
  const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

function migrate(url) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "db/migrate.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`db/migrate.ts failed:\n${r.stdout}\n${r.stderr}`);
}

const LISTING_REASONS = [
  "overstock",
  "slow_seller",
  "wrong_sizes",
  "end_of_season",
  "customer_return",
  "closing_out_brand",
  "other",
];
const REQUEST_REASONS = [
  "sold_out",
  "customer_special_order",
  "best_seller",
  "missed_reorder",
  "new_store",
  "other",
];
const FLOOR_TIMES = ["0-30", "31-60", "61-90", "91-180", "180+"];
const arr = (xs) => `array[${xs.map((x) => `'${x}'`).join(",")}]::text[]`;

/**
 * Per-table set-based inserts. Column lists follow db/schema (every NOT NULL column without a default is
 * named; checkNotNullCoverage() verifies that against the live catalogue before inserting).
 * Layout (ids are explicit): brand b = 1..50; collection (b-1)*2 + 1..2; product p = (b-1)*100 + 1..100;
 * variation v = (p-1)*4 + 1..4, so brand of v = (v-1)/400 + 1; listing i (0-based) is of brand i % 50,
 * its provider one of the 400 retailers authorized for that brand, (provider, variation) unique.
 */
function statements() {
  const { brands: B, retailers: R, listings: L, requests: Q } = BENCH_COUNTS;
  // (brand index b0 0..49, slot j) -> provider among the brand's authorized retailers and a variation of it.
  // Retailer r has window start s = (r-1) % 50 and is authorized for brand index b0 iff (b0 - s) mod 50 < 10.
  const provider = (b0, p) => `(50 * ((${p}) / 10) + ((${b0} - ((${p}) % 10) + 50) % 50) + 1)`;
  const sizesFrom = (i, soldOut) => `
      (select jsonb_object_agg(l.label, case when ${soldOut} then 0 when l.n = 1 then 1 + ((${i} * 7 + 3) % 5) else ((${i} * 7 + l.n * 13) % 6) end)
         from unnest(vs.labels) with ordinality as l(label, n))`;
  const totalFrom = (i, soldOut) => `
      (select coalesce(sum(case when ${soldOut} then 0 when l.n = 1 then 1 + ((${i} * 7 + 3) % 5) else ((${i} * 7 + l.n * 13) % 6) end), 0)::int
         from unnest(vs.labels) with ordinality as l(label, n))`;
  return [
    [
      "categories",
      `insert into categories (id, name, parent_id)
       select g, (array['Tops','Bottoms','Outerwear','Footwear','Dresses','Accessories','Swim','Denim'])[g], null
       from generate_series(1, 8) g`,
    ],
    [
      "companies",
      `insert into companies (id, name, first_name, last_name, email, city, state)
       select g, 'Bench Company ' || lpad(g::text, 2, '0'), 'Pat', 'Brand' || g, 'wholesale' || g || '@brand.bench.test', 'Springfield', 'IL'
       from generate_series(1, ${B}) g`,
    ],
    [
      "brands",
      `insert into brands (id, name, display_name, business_model, segments, price_tier, company_id, is_valid, is_active)
       select g, 'Bench Brand ' || lpad(g::text, 2, '0'), 'Bench Brand ' || lpad(g::text, 2, '0'),
              (array['Apparel','Footwear','Denim'])[g % 3 + 1], array['apparel'], (array['value','mid','premium'])[g % 3 + 1], g, true, true
       from generate_series(1, ${B}) g`,
    ],
    [
      "collections",
      `insert into collections (id, brand_id, year, name, subbrand, is_active)
       select (b - 1) * 2 + k, b, 2026 - k, (array['Spring','Fall'])[k], '', true
       from generate_series(1, ${B}) b, generate_series(1, 2) k`,
    ],
    [
      "products",
      // sku: two letters of the brand + '-' + 4 digits, unique within a brand (k*37 mod 9000 is injective for k < 100)
      `insert into products (id, collection_id, brand_id, category_id, sku, display_name, description, price_cents, is_active)
       select (b - 1) * 100 + k + 1, (b - 1) * 2 + (k % 2) + 1, b, (k % 8) + 1,
              chr(65 + (b - 1) % 26) || chr(65 + ((b - 1) * 7 + 3) % 26) || '-' || (1000 + (k * 37 + b * 11) % 9000),
              'Style ' || (array['Summit','Harbor','Canyon','Meadow','Ridge','Tide','Mesa','Prairie'])[k % 8 + 1] || ' ' || (k + 1),
              '', 1500 + (((b - 1) * 100 + k) * 173 % 120) * 100, true
       from generate_series(1, ${B}) b, generate_series(0, 99) k`,
    ],
    [
      "product_sizes",
      `insert into product_sizes (product_id, label, position)
       select p.id, s.label, s.pos - 1
       from products p
       cross join lateral unnest(case p.brand_id % 3
                when 0 then ${arr(["XS", "S", "M", "L", "XL"])}
                when 1 then ${arr(["6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12"])}
                else ${arr(["26", "27", "28", "29", "30", "31", "32", "33", "34", "36"])} end) with ordinality as s(label, pos)`,
    ],
    [
      "product_variations",
      `insert into product_variations (id, product_id, brand_id, sku, color, price_cents, options, is_active)
       select (p.id - 1) * 4 + c, p.id, p.brand_id, p.sku || '-' || upper(left(col.name, 3)), col.name, p.price_cents,
              jsonb_build_object('color', col.name), true
       from products p, generate_series(1, 4) c,
            lateral (select (array['Black','Navy','Olive','Rust','Sand','Slate','Cream','Forest'])[((p.id + c * 3) % 8) + 1] as name) col`,
    ],
    [
      "variation_images",
      `insert into variation_images (variation_id, url, thumbnail_url, description, position)
       select v.id, 'https://images.bench.test/v/' || v.id || '-600.jpg', 'https://images.bench.test/v/' || v.id || '-160.jpg', v.sku || ', front', 0
       from product_variations v`,
    ],
    [
      "retailers",
      `insert into retailers (id, store_name, store_email, store_phone, business_name, address1, city, state, postal_code, resale_number,
                              bt_merchant_id, position, segments, price_tier, status, setup_completed_at, latitude, longitude, created_at, last_active_at)
       select g, 'Bench Store ' || lpad(g::text, 4, '0'), 'store' || g || '@bench.test', '+1-217-555-' || lpad((g % 10000)::text, 4, '0'),
              'Bench Store ' || g || ' LLC', g || ' Main St', 'Springfield', 'IL', '62701', '12-' || lpad(g::text, 10, '0') || '-3',
              'acct_bench_' || g, '', '{}'::text[], '', 'active', now() - interval '200 days', 39.78 + (g % 100) / 1000.0, -89.65 - (g % 100) / 1000.0,
              now() - interval '200 days', now()
       from generate_series(1, ${R}) g`,
    ],
    [
      "sandbox_payment_objects",
      `insert into sandbox_payment_objects (id, kind, data)
       select 'acct_bench_' || g, 'account', jsonb_build_object('id', 'acct_bench_' || g, 'object', 'account', 'type', 'custom', 'country', 'US',
              'email', 'store' || g || '@bench.test', 'charges_enabled', true, 'payouts_enabled', true, 'details_submitted', true,
              'metadata', jsonb_build_object('retailerId', g::text))
       from generate_series(1, ${R}) g`,
    ],
    [
      "retailer_contacts",
      `insert into retailer_contacts (retailer_id, user_id, first_name, last_name, email, job_title, job_title_other, phone, celphone, address1, city, state, postal_code)
       select g, null, 'Pat', 'Retailer' || g, 'store' || g || '@bench.test', 'Owner', '', '+1-217-555-0101', '+1-217-555-0102', g || ' Main St', 'Springfield', 'IL', '62701'
       from generate_series(1, ${R}) g`,
    ],
    [
      "retailer_brands",
      `insert into retailer_brands (retailer_id, brand_id, status)
       select r, (((r - 1) % ${B}) + t) % ${B} + 1, 'authorized'
       from generate_series(1, ${R}) r, generate_series(0, ${BENCH_COUNTS.brandsPerRetailer - 1}) t`,
    ],
    [
      "(size runs, temp)",
      `create temporary table bench_vsizes as
       select v.id, v.product_id, v.brand_id, v.sku, v.price_cents, array_agg(ps.label order by ps.position) as labels
       from product_variations v join product_sizes ps on ps.product_id = v.product_id
       group by v.id`,
      `alter table bench_vsizes add primary key (id)`,
    ],
    [
      "listings",
      // i = 0..L-1: brand index b0 = i % 50, slot j = i / 50 (0..3999): provider slot p = j % 400, colour slot q = j / 400 (0..9),
      // variation (b0 * 400) + (p*7 + q*41) % 400 + 1 -> (provider, variation) pairs are unique.
      `insert into listings (id, variation_id, brand_id, provider_id, listing_type, reason, modified_reason, floor_time, reserved_for_request_id,
                             sizes, total_units, status, terms, images, sku_key, price_cents, created_at, updated_at)
       select x.i + 1, vs.id, vs.brand_id, ${provider("x.b0", "x.p")},
              (case when x.j % 10 in (2, 5, 8) then 'swap' else 'sell' end)::listing_type,
              (${arr(LISTING_REASONS)})[x.i % ${LISTING_REASONS.length} + 1], 'none',
              case when x.i % 2 = 0 then (${arr(FLOOR_TIMES)})[x.i % ${FLOOR_TIMES.length} + 1] end, null,
              ${sizesFrom("x.i", "x.sold_out")}, ${totalFrom("x.i", "x.sold_out")},
              (case when x.j % 19 = 3 then 'payoutneeded' else 'active' end)::listing_status, true, '[]'::jsonb,
              lower(vs.sku), vs.price_cents, x.created, x.created
       from (select i, i / 50 as j, i % 50 as b0, (i / 50) % 400 as p, (i / 50) / 400 as q, (i / 50) % 47 = 7 as sold_out,
                    now() - ((i::bigint * 7919) % 15552000) * interval '1 second' as created
             from generate_series(0, ${L - 1}) i) x
       join bench_vsizes vs on vs.id = x.b0 * 400 + (x.p * 7 + x.q * 41) % 400 + 1`,
    ],
    [
      "listing_requests",
      `insert into listing_requests (id, variation_id, brand_id, requestor_id, reason, modified_reason, sizes, total_units, sku_key, price_cents, created_at, updated_at)
       select x.i + 1, vs.id, vs.brand_id, ${provider("x.b0", "x.p")},
              (${arr(REQUEST_REASONS)})[x.i % ${REQUEST_REASONS.length} + 1], 'none',
              ${sizesFrom("x.i", "x.sold_out")}, ${totalFrom("x.i", "x.sold_out")},
              lower(vs.sku), vs.price_cents, x.created, x.created
       from (select i, i % 50 as b0, (i / 50) % 400 as p, (i / 50) / 400 as q, (i / 50) % 50 = 11 as sold_out,
                    now() - ((i::bigint * 6007) % 15552000) * interval '1 second' as created
             from generate_series(0, ${Q - 1}) i) x
       join bench_vsizes vs on vs.id = x.b0 * 400 + (x.p * 11 + x.q * 53 + 3) % 400 + 1`,
    ],
  ];
}

/** Tables seeded here and the columns their INSERTs name (checked against NOT NULL columns without default). */
const SEEDED_COLUMNS = () => {
  const out = {};
  for (const [, ...stmts] of statements()) {
    for (const s of stmts) {
      const m = s.match(/insert into (\w+) \(([^)]*)\)/i);
      if (m) out[m[1]] = m[2].split(",").map((c) => c.trim());
    }
  }
  out.users = ["email", "password_hash", "is_staff", "retailer_id"];
  return out;
};

async function checkNotNullCoverage(sql) {
  const wanted = SEEDED_COLUMNS();
  const rows = await sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and is_nullable = 'NO' and column_default is null`;
  const missing = rows.filter(
    (r) =>
      wanted[r.table_name] &&
      !wanted[r.table_name].includes(r.column_name) &&
      r.column_name !== "id",
  );
  if (missing.length) {
    throw new Error(
      `db/schema has NOT NULL columns without a default that scripts/seed-large.mjs does not fill: ${missing.map((r) => `${r.table_name}.${r.column_name}`).join(", ")}`,
    );
  }
}

/** Seeds `url` from scratch (drops and re-creates the database). Returns { timings, totalMs }. */
export async function seedLarge(url) {
  const t0 = performance.now();
  const timings = [];
  const mark = (what, ms, rows) => {
    timings.push({ what, ms, rows });
    console.log(
      `  ${what.padEnd(26)} ${rows == null ? "".padStart(13) : `${String(rows).padStart(8)} rows`}  ${fmtMs(ms).padStart(8)}`,
    );
  };

  let t = performance.now();
  await recreateDatabase(url);
  migrate(url);
  mark("database + migrations", performance.now() - t);

  const { hash } = await import("@node-rs/argon2");
  t = performance.now();
  const passwordHash = await hash(BENCH_PASSWORD, { algorithm: 2 /* argon2id */ });
  mark("argon2id hash (1)", performance.now() - t);

  const sql = await connect(url);
  try {
    await checkNotNullCoverage(sql);
    await sql`set synchronous_commit = off`;
    await sql`set work_mem = '64MB'`;
    await sql`set maintenance_work_mem = '256MB'`;
    for (const [what, ...stmts] of statements()) {
      t = performance.now();
      let rows = 0;
      for (const s of stmts) rows += (await sql.unsafe(s)).count ?? 0;
      mark(what, performance.now() - t, what.startsWith("(") ? null : rows);
    }

    t = performance.now();
    const users = [
      ...BENCH_LOGINS.retailers.map((l) => ({
        email: l.email,
        password_hash: passwordHash,
        is_staff: false,
        retailer_id: l.retailerId,
      })),
      {
        email: BENCH_LOGINS.staff.email,
        password_hash: passwordHash,
        is_staff: true,
        retailer_id: null,
      },
    ];
    const inserted =
      await sql`insert into users ${sql(users, "email", "password_hash", "is_staff", "retailer_id")} returning id, retailer_id`;
    for (const u of inserted)
      if (u.retailer_id)
        await sql`update retailer_contacts set user_id = ${u.id}, email = ${users.find((x) => x.retailer_id === u.retailer_id).email} where retailer_id = ${u.retailer_id}`;
    mark("users (demo logins)", performance.now() - t, inserted.length);

    t = performance.now();
    for (const table of [
      "categories",
      "companies",
      "brands",
      "collections",
      "products",
      "product_variations",
      "retailers",
      "listings",
      "listing_requests",
    ]) {
      await sql.unsafe(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
    mark("sequences", performance.now() - t);

    t = performance.now();
    await sql`analyze`;
    mark("ANALYZE", performance.now() - t);

    await sql`insert into seed_runs (name, detail) values (${seedFingerprint()}, ${BENCH_COUNTS.listings})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  const totalMs = performance.now() - t0;
  console.log(
    `  ${c.bold("total".padEnd(26))} ${"".padStart(13)}  ${c.bold(fmtMs(totalMs).padStart(8))}`,
  );
  return { timings, totalMs };
}

async function main() {
  const keep = process.argv.includes("--keep");
  let pg = null;
  onShutdown(async () => {
    if (!keep) await pg?.stop();
  });
  const started = await startBenchPostgres();
  pg = started.pg;
  try {
    step(`seeding the large marketplace into ${started.url.replace(/:[^:@/]+@/, ":***@")}`);
    const { totalMs } = await seedLarge(started.url);
    const goal = totalMs <= 120_000;
    info(`${goal ? c.green("within") : c.red("OVER")} the 2-minute goal (${fmtMs(totalMs)})`);
    info(
      `logins (password ${BENCH_PASSWORD}): ${BENCH_LOGINS.retailers.map((l) => l.email).join(", ")}, staff ${BENCH_LOGINS.staff.email}`,
    );
  } finally {
    if (pg && !keep && !pg.reused) await pg.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
