import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { verify } from "@node-rs/argon2";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { activateListingsForRetailer } from "../../db/queries/listings";
import { DEMO_BRANDS, DEMO_PASSWORD, demoBarcode, seedDemo } from "../../db/seed";
import { runStockImport } from "../../app/utils/stock-import.server";
import { checkBarcode } from "../../domain/barcodes";
import { ContactStepSchema, RetailerStepSchema } from "../../domain/accounts";
import { isChoice, LISTING_REASONS, REQUEST_REASONS, FLOOR_TIMES } from "../../domain/reasons";
import { dropOwnDatabase, ownDatabase } from "./helpers";

// The seed is checked on a database of its own (created, migrated, dropped here), so exact counts hold
// whatever other test files put in the shared test database.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const own = ownDatabase("seed");
const seedUrl = own.url;

let handle: DbHandle;
const q = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  (await handle.db.execute(query)) as unknown as T[];
const count = async (query: ReturnType<typeof sql>) => Number((await q<{ n: string }>(query))[0].n);
/** The count `query` returns is 0 (no row breaks the rule it counts). */
const expectNone = async (query: ReturnType<typeof sql>) => expect(await count(query)).toBe(0);

type Login = { role: string; email: string; password: string; note?: string };
const logins: Login[] = JSON.parse(readFileSync(path.join(root, "db/seed-logins.json"), "utf8"));

let runs: Awaited<ReturnType<typeof seedDemo>>[];
let snapshot: Record<string, number>;

async function tableCounts(): Promise<Record<string, number>> {
  const tables = [
    "users",
    "companies",
    "brands",
    "collections",
    "products",
    "product_sizes",
    "product_variations",
    "variation_images",
    "retailers",
    "retailer_contacts",
    "retailer_brands",
    "brand_requests",
    "listings",
    "listing_requests",
    "sandbox_payment_objects",
    "seed_runs",
  ];
  const out: Record<string, number> = {};
  for (const t of tables)
    out[t] = await count(sql`select count(*)::int as n from ${sql.identifier(t)}`);
  return out;
}

beforeAll(async () => {
  await runMigrations(seedUrl.toString());
  handle = createDb(seedUrl.toString(), { max: 4 });
  // Two runs racing, then a third: exactly one of them seeds.
  runs = await Promise.all([seedDemo(handle.db), seedDemo(handle.db)]);
  snapshot = await tableCounts();
  runs.push(await seedDemo(handle.db));
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await dropOwnDatabase(own.name);
});

describe("demo seed", () => {
  it("runs once: concurrent and repeated runs add nothing", async () => {
    expect(runs.filter((r) => r.seeded)).toHaveLength(1);
    expect(runs[2].seeded).toBe(false);
    expect(await tableCounts()).toEqual(snapshot);
    expect(await q(sql`select name from seed_runs`)).toEqual([{ name: "demo" }]);
  });

  it("has 3+ brands, each with 2 collections and 4+ products with size runs and 2-3 priced colour variations", async () => {
    const brands = await q<{ id: number; collections: number; products: number }>(sql`
      select b.id,
        (select count(*)::int from collections c where c.brand_id = b.id) as collections,
        (select count(*)::int from products p where p.brand_id = b.id) as products
      from brands b`);
    expect(brands.length).toBeGreaterThanOrEqual(3);
    for (const b of brands) {
      expect(b.collections).toBe(2);
      expect(b.products).toBeGreaterThanOrEqual(4);
    }
    const products = await q<{ sizes: number; variations: number; min_price: number }>(sql`
      select (select count(*)::int from product_sizes s where s.product_id = p.id) as sizes,
             (select count(*)::int from product_variations v where v.product_id = p.id) as variations,
             (select min(v.price_cents) from product_variations v where v.product_id = p.id) as min_price
      from products p`);
    for (const p of products) {
      expect(p.sizes).toBeGreaterThanOrEqual(5);
      expect(p.variations).toBeGreaterThanOrEqual(2);
      expect(p.variations).toBeLessThanOrEqual(3);
      expect(p.min_price).toBeGreaterThan(0);
    }
    await expectNone(
      sql`select count(*)::int as n from product_variations v where not exists (select 1 from variation_images i where i.variation_id = v.id)`,
    );
    // Footwear runs 6-12 with halves, denim 26-36.
    const runs = (
      await q<{ labels: string[] }>(sql`
      select array_agg(s.label order by s.position) as labels from product_sizes s group by s.product_id`)
    ).map((r) => r.labels.join(","));
    expect(runs).toContain("XS,S,M,L,XL");
    expect(runs).toContain("6,6.5,7,7.5,8,8.5,9,9.5,10,10.5,11,11.5,12");
    expect(runs.some((r) => r.startsWith("26,") && r.endsWith(",36"))).toBe(true);
  });

  it("gives every demo catalogue variation a valid barcode of its own, and a stock file matches by one", async () => {
    const coded = await q<{ id: number; barcodes: string[] }>(
      sql`select id, barcodes from product_variations where cardinality(barcodes) > 0 order by id`,
    );
    const colours = DEMO_BRANDS.flatMap((b) => b.products).reduce((n, p) => n + p[3].length, 0);
    expect(coded).toHaveLength(colours);
    const all = coded.flatMap((v) => v.barcodes);
    expect(new Set(all).size).toBe(all.length);
    for (const code of all) expect(checkBarcode(code)).toMatchObject({ ok: true, kind: "UPC-A" });
    expect(all).toContain(demoBarcode(0));

    // A retailer authorized for the brand lists a variation by its barcode (docs/guides/stock-import.md).
    const [target] = await q<{ variation_id: number; retailer_id: number; size: string }>(sql`
      select v.id as variation_id, rb.retailer_id,
        (select s.label from product_sizes s where s.product_id = v.product_id order by s.position limit 1) as size
      from product_variations v
      join retailer_brands rb on rb.brand_id = v.brand_id and rb.status = 'authorized'
      join retailers r on r.id = rb.retailer_id and r.status = 'active'
      where ${demoBarcode(3)} = any(v.barcodes)
      limit 1`);
    expect(target).toBeDefined();
    const rows = await runStockImport(handle.db, {
      retailerId: target.retailer_id,
      cells: [
        ["upc", "size", "units"],
        [demoBarcode(3), target.size, "2"],
      ],
      mapping: { code: "upc", size: "size", units: "units" },
      wholeSurplus: false,
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ variationId: target.variation_id, lines: [2] });
    expect(["create", "update"]).toContain(rows[0].action);
  });

  it("has 8+ retailers: active (with and without payout), one inactive, one pending with brand requests", async () => {
    const byStatus = Object.fromEntries(
      (
        await q<{ status: string; n: number }>(
          sql`select status, count(*)::int as n from retailers group by status`,
        )
      ).map((r) => [r.status, r.n]),
    );
    expect(byStatus.active + byStatus.inactive + byStatus.pending).toBeGreaterThanOrEqual(8);
    expect(byStatus.inactive).toBe(1);
    expect(byStatus.pending).toBe(1);
    expect(
      await count(
        sql`select count(*)::int as n from retailers where status = 'active' and bt_merchant_id is null`,
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await count(
        sql`select count(*)::int as n from retailers where status = 'active' and bt_merchant_id is not null`,
      ),
    ).toBeGreaterThanOrEqual(3);

    const [pending] = await q<{ id: number; setup: boolean; requests: number; links: number }>(sql`
      select r.id, r.setup_completed_at is not null as setup,
        (select count(*)::int from brand_requests br where br.retailer_id = r.id) as requests,
        (select count(*)::int from retailer_brands rb where rb.retailer_id = r.id) as links
      from retailers r where r.status = 'pending'`);
    expect(pending.setup).toBe(true);
    expect(pending.requests).toBeGreaterThanOrEqual(1);
    expect(pending.links).toBe(0);

    // Every retailer has a contact and a signing-in user; at least one contact has no cell phone.
    await expectNone(
      sql`select count(*)::int as n from retailers r where not exists (select 1 from retailer_contacts c where c.retailer_id = r.id)`,
    );
    await expectNone(
      sql`select count(*)::int as n from retailers r where not exists (select 1 from users u where u.retailer_id = r.id)`,
    );
    expect(
      await count(sql`select count(*)::int as n from retailer_contacts where celphone = ''`),
    ).toBeGreaterThanOrEqual(1);
    await expectNone(
      sql`select count(*)::int as n from retailers where latitude is null or longitude is null`,
    );
    expect(
      await count(sql`select count(distinct state)::int as n from retailers`),
    ).toBeGreaterThanOrEqual(8);
  });

  it("stores what the setup forms would accept (so Settings opens prefilled and valid)", async () => {
    const retailers = await q<Record<string, string>>(sql`
      select store_name, store_email, store_phone, business_name, address1, city, state, postal_code, resale_number from retailers`);
    for (const r of retailers) {
      const parsed = RetailerStepSchema.safeParse(r);
      expect(parsed.success, `${r.store_name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // Already in the normalised form the form stores.
      if (parsed.success)
        expect(parsed.data).toMatchObject({
          store_phone: r.store_phone,
          resale_number: r.resale_number,
          state: r.state,
        });
    }
    const contacts = await q<Record<string, string>>(sql`
      select first_name, last_name, job_title, job_title_other, phone, celphone from retailer_contacts`);
    for (const c of contacts) {
      const parsed = ContactStepSchema.safeParse({ ...c, celphone: c.celphone || undefined });
      if (c.celphone === "") {
        expect(parsed.success).toBe(false); // the no-cell-phone demo contact: the form asks for it
        expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["celphone"]);
      } else {
        expect(parsed.success, `${c.first_name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(
          true,
        );
      }
    }
    const reasons = await q<{ reason: string; floor_time: string | null }>(
      sql`select reason, floor_time from listings`,
    );
    for (const l of reasons) {
      expect(isChoice(LISTING_REASONS, l.reason)).toBe(true);
      if (l.floor_time !== null) expect(isChoice(FLOOR_TIMES, l.floor_time)).toBe(true);
    }
    for (const r of await q<{ reason: string }>(sql`select reason from listing_requests`))
      expect(isChoice(REQUEST_REASONS, r.reason)).toBe(true);
  });

  it("authorizes retailers for overlapping brands", async () => {
    const shared = await q<{ brand_id: number; n: number }>(sql`
      select brand_id, count(*)::int as n from retailer_brands group by brand_id having count(*) >= 2`);
    expect(shared.length).toBeGreaterThanOrEqual(2);
  });

  it("every bt_merchant_id is a connected account in the sandbox provider", async () => {
    await expectNone(sql`
      select count(*)::int as n from retailers r where r.bt_merchant_id is not null and not exists (
        select 1 from sandbox_payment_objects o where o.id = r.bt_merchant_id and o.kind = 'account')`);
    await expectNone(
      sql`select count(*)::int as n from retailers where bt_merchant_id is not null and bt_merchant_id not like 'acct_sandbox_%'`,
    );
  });

  it("has ~30 listings and ~15 requests; listings of retailers without payout are payoutneeded, the others active", async () => {
    const listings = await count(sql`select count(*)::int as n from listings`);
    const requests = await count(sql`select count(*)::int as n from listing_requests`);
    expect(listings).toBeGreaterThanOrEqual(30);
    expect(requests).toBeGreaterThanOrEqual(15);
    const rows = await q<{ status: string; payout: boolean; n: number }>(sql`
      select l.status, r.bt_merchant_id is not null as payout, count(*)::int as n
      from listings l join retailers r on r.id = l.provider_id group by 1, 2 order by l.status::text, 2`);
    expect(rows).toEqual([
      { status: "active", payout: true, n: expect.any(Number) },
      { status: "payoutneeded", payout: false, n: expect.any(Number) },
    ]);
    // Listings and requests only for brands the retailer is authorized for; sizes within the product's run.
    await expectNone(sql`
      select count(*)::int as n from listings l where not exists (
        select 1 from retailer_brands rb where rb.retailer_id = l.provider_id and rb.brand_id = l.brand_id)`);
    await expectNone(sql`
      select count(*)::int as n from listing_requests q where not exists (
        select 1 from retailer_brands rb where rb.retailer_id = q.requestor_id and rb.brand_id = q.brand_id)`);
    await expectNone(sql`
      select count(*)::int as n from listings l
      join product_variations v on v.id = l.variation_id, jsonb_object_keys(l.sizes) k
      where not exists (select 1 from product_sizes s where s.product_id = v.product_id and s.label = k)`);
    expect(await count(sql`select count(*)::int as n from listings where total_units <= 0`)).toBe(
      0,
    );
    await expectNone(sql`
      select count(*)::int as n from listings where total_units <> (select sum(value::int) from jsonb_each_text(sizes))`);
    // No duplicate listing of one variation by one retailer; nobody requests what it lists itself.
    await expectNone(
      sql`select count(*)::int as n from (select 1 from listings group by provider_id, variation_id having count(*) > 1) d`,
    );
    await expectNone(sql`
      select count(*)::int as n from listing_requests q join listings l on l.provider_id = q.requestor_id and l.variation_id = q.variation_id`);
  });

  it("seed-logins.json: every login signs in with its password and has the promised role", async () => {
    const roles = logins.map((l) => l.role);
    for (const r of [
      "staff",
      "retailer (payout set up)",
      "retailer (no payout: banner, listings hidden)",
      "retailer (no cell phone)",
      "retailer (inactive)",
      "retailer (pending activation)",
    ]) {
      expect(roles).toContain(r);
    }
    for (const login of logins) {
      expect(login.password).toBe(DEMO_PASSWORD);
      const [u] = await q<{
        password_hash: string;
        is_staff: boolean;
        status: string | null;
        bt: string | null;
        celphone: string | null;
        listings: number;
        payoutneeded: number;
      }>(sql`
        select u.password_hash, u.is_staff, r.status, r.bt_merchant_id as bt, c.celphone,
          (select count(*)::int from listings l where l.provider_id = r.id) as listings,
          (select count(*)::int from listings l where l.provider_id = r.id and l.status = 'payoutneeded') as payoutneeded
        from users u left join retailers r on r.id = u.retailer_id
        left join retailer_contacts c on c.user_id = u.id
        where lower(u.email) = lower(${login.email})`);
      expect(u, login.email).toBeDefined();
      expect(await verify(u.password_hash, login.password), login.email).toBe(true);
      if (login.role === "staff") {
        expect(u.is_staff).toBe(true);
        expect(u.status).toBeNull();
        continue;
      }
      expect(u.is_staff).toBe(false);
      if (login.role.startsWith("retailer (payout set up")) {
        expect(u).toMatchObject({ status: "active", payoutneeded: 0 });
        expect(u.bt).toMatch(/^acct_sandbox_/);
        expect(u.listings).toBeGreaterThan(0);
      } else if (login.role.startsWith("retailer (no payout")) {
        expect(u).toMatchObject({ status: "active", bt: null });
        expect(u.payoutneeded).toBeGreaterThan(0);
        expect(u.payoutneeded).toBe(u.listings);
      } else if (login.role === "retailer (no cell phone)") {
        expect(u).toMatchObject({ status: "active", celphone: "" });
        expect(u.bt).not.toBeNull(); // only the cell-phone banner shows
      } else if (login.role === "retailer (inactive)") {
        expect(u.status).toBe("inactive");
      } else if (login.role === "retailer (pending activation)") {
        expect(u.status).toBe("pending");
      }
    }
  });

  it("payout set-up for the no-payout login turns exactly its listings active", async () => {
    const login = logins.find((l) => l.role.startsWith("retailer (no payout"))!;
    const [r] = await q<{ id: number }>(
      sql`select retailer_id as id from users where lower(email) = lower(${login.email})`,
    );
    const before = await count(
      sql`select count(*)::int as n from listings where status = 'payoutneeded'`,
    );
    const mine = await count(
      sql`select count(*)::int as n from listings where provider_id = ${r.id}`,
    );
    expect(await activateListingsForRetailer(handle.db, r.id)).toBe(mine);
    expect(
      await count(sql`select count(*)::int as n from listings where status = 'payoutneeded'`),
    ).toBe(before - mine);
  });
});
