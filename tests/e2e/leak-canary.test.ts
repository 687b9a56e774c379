/**
 * The leak canary. Every retailer's identifying values (store and business name, store
 * e-mail and phone, street address; each contact's name, e-mail, phones and street address) are canaries:
 * a value only one retailer has is that retailer's canary. Then, as several retailers, the crawler opens every
 * page reachable by links from the home page (and the order pages), every PDF (text extracted) and CSV those
 * pages link to, and reads every e-mail sent to a retailer: none may carry another retailer's canary.
 *
 * The data: the retailers this file creates (every field a canary; a purchase delivered, a swap and an RMA
 * between them) and everything the e2e suite made before it (real purchases, swaps and RMAs driven through the
 * browser, with their labels, packing slips and e-mails). The file runs last in the e2e suite
 * (vitest.config.ts RUN_LAST) so that it reads all of it.
 *
 * One legitimate exception: a carrier label prints the recipient's street address (the carrier needs it; the
 * name is `retailer-00{id}`), so the recipient's street address may appear on a label its sender opens.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "./harness";
import {
  listings,
  orders,
  outboxEmails,
  retailerContacts,
  retailers,
  sessions,
  users,
} from "../../db/schema";
import { TRANSACTION_TYPE } from "../../domain/states";
import { SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { applyMarkdownDay, setMarkdown } from "../../db/queries/markdowns";
import { addDaysISO } from "../../domain/markdown";
import { uniqueToken } from "../factories/util";
import { createOrderAt, createRmaOf, createSwapOrder } from "../factories/orders";
import {
  queueDueMatchDigests,
  recordMatchesForListing,
  saveSearch,
} from "../../db/queries/matches";
import { getEnv } from "../../app/utils/env.server";
import { localDateISO } from "../../domain/business-days";
import { pdfText } from "../setup/pdf-text";
import { baseUrl, htmlDecode, HttpClient } from "./http";
import { createOfferActivities } from "../../activities/offer";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { makeOffer } from "../../db/queries/offers";

const tok = uniqueToken().toUpperCase();

/** How many pages of one shape (ids replaced by N) the crawler opens per retailer, and pages in all. */
const PER_SHAPE = 3;
const MAX_PAGES = 160;
/** Paths never followed: they sign out, switch identity or only redirect. */
const SKIP = /^\/(logout|act-as|banners\/dismiss|signin|register|password-reset|error)(\/|$|\?)/;

interface Canary {
  retailerId: number;
  field: string;
  value: string;
}

/** Canary values of the fixture retailers: every field unique to its retailer. */
function canaryFields(n: number) {
  const t = `${tok}${n}`;
  const digits = String(1_000_000 + Math.floor(Math.random() * 8_999_999)).slice(-7);
  return {
    storeName: `Canary Store ${t}`,
    businessName: `Canary Holdings ${t}`,
    storeEmail: `canary-store-${t.toLowerCase()}@example.test`,
    storePhone: `+1-312-${digits.slice(0, 3)}-${digits.slice(3)}`,
    address1: `${n}1 Canary ${t} Avenue`,
    contact: {
      firstName: `Robin${t}`,
      lastName: `Canary${t}`,
      email: `canary-contact-${t.toLowerCase()}@example.test`,
      phone: `+1-773-${digits.slice(0, 3)}-${digits.slice(3)}`,
      celphone: `+1-872-${digits.slice(0, 3)}-${digits.slice(3)}`,
      address1: `${n}2 Canary ${t} Street`,
    },
    user: { email: `canary-user-${t.toLowerCase()}@example.test` },
    payout: true,
  };
}

let fixture: { a: number; b: number; c: number };

beforeAll(async () => {
  const { brand, products } = await createWorld(db(), {
    brand: { name: `Canary Brand ${tok}` },
    products: [{ sku: `CAN${tok}`, sizes: SIZE_RUNS.apparel, colors: 2 }],
  });
  const prod = products[0];
  const [ra, rb, rc] = [
    await createRetailer(db(), canaryFields(1)),
    await createRetailer(db(), canaryFields(2)),
    await createRetailer(db(), canaryFields(3)),
  ];
  for (const r of [ra, rb, rc]) await authorizeBrand(db(), r.retailer.id, brand.id);
  const [a, b, c] = [ra.retailer.id, rb.retailer.id, rc.retailer.id];
  // Listings and requests of each in the shared brand: the marketplace shows them to the others.
  const canaryListings: number[] = [];
  for (const [i, r] of [a, b, c].entries()) {
    canaryListings.push(
      (
        await createListing(db(), {
          variationId: prod.variations[i % 2].id,
          providerId: r,
          sizes: { S: 1, M: 1 },
        })
      ).id,
    );
    await createRequest(db(), {
      variationId: prod.variations[(i + 1) % 2].id,
      requestorId: r,
      sizes: { L: 1 },
    });
  }
  // Matches (ADR 0030): each saves a search of the brand, so the others' listings reach its Matches tab and digest e-mail.
  for (const r of [a, b, c])
    await saveSearch(db(), r, { brandId: brand.id, categoryId: null, sizes: [], search: "" });
  for (const id of canaryListings) await recordMatchesForListing(db(), id);
  // Markdown schedules (docs/product/markdowns.md) with a step taken: the seller's panel and the buyers' next price.
  const today = localDateISO(Date.now());
  for (const [i, r] of [a, b, c].entries()) {
    await setMarkdown(db(), {
      listingId: canaryListings[i],
      retailerId: r,
      terms: {
        stepKind: "percent",
        stepValue: 10,
        everyDays: 1,
        floorKind: "percent",
        floorValue: 50,
        endDate: null,
      },
      today: addDaysISO(today, -2),
    });
  }
  await applyMarkdownDay(db(), addDaysISO(today, -1));
  await queueDueMatchDigests(db(), getEnv().MARKETPLACE_TZ); // the worker's sweep: their digest e-mails
  // Offers (docs/product/offers.md): each offers on the next one's listing, and the seller hears of it by e-mail.
  const offerMail = createOfferActivities({
    db: db(),
    payments: new SandboxPayments(db()),
    appOrigin: baseUrl,
  });
  for (const [i, r] of [a, b, c].entries()) {
    const listingId = canaryListings[(i + 1) % 3];
    const [l] = await db()
      .select({ price: listings.priceCents })
      .from(listings)
      .where(eq(listings.id, listingId));
    const made = await makeOffer(db(), {
      listingId,
      buyerId: r,
      offeredUnitCents: Math.max(1, l.price - 100),
      sizes: { S: 1 },
      at: new Date().toISOString(),
      workflowIdFor: (id) => `offer:${id}`,
    });
    if (!made.ok) throw new Error(made.message);
    await offerMail.saveOffer({
      offerId: made.offerId,
      state: made.state,
      notices: [{ to: "seller", what: "offer", dedupeKey: `leak-canary:${made.offerId}` }],
    });
  }
  const line = { variationId: prod.variations[0].id, sizes: { M: 2 } };
  const buy = await createOrderAt(db(), "delivered", {
    providerId: b,
    receiverId: a,
    lines: [line],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  // Placed and approved by A's user (docs/product/teams.md): its e-mail shows to A only, never on B's pages.
  await db()
    .update(orders)
    .set({ placedByUserId: ra.user!.id, approvedByUserId: ra.user!.id })
    .where(eq(orders.id, buy.order.id));
  await createOrderAt(db(), "provider_approve_sale", {
    providerId: a,
    receiverId: c,
    lines: [line],
  });
  await createSwapOrder(db(), { providerId: c, receiverId: b, lines: [line] });
  await createRmaOf(db(), buy.order.id, {
    victimId: a,
    contact: {
      name: `Robin${tok}1 Canary${tok}1`,
      email: `canary-contact-${tok.toLowerCase()}1@example.test`,
      phone: "+1-773-555-0101",
      packingSlipName: `Canary Store ${tok}1`,
    },
  });
  fixture = { a, b, c };
});

/**
 * Every retailer's canaries (the identifying values that one retailer alone has, 8 characters or more) and
 * every retailer's values (canaries or not: what its own pages may show).
 */
async function canaries(): Promise<{ list: Canary[]; valuesOf: (retailerId: number) => string[] }> {
  const rs = await db().select().from(retailers);
  const cs = await db().select().from(retailerContacts);
  const all: Canary[] = [];
  for (const r of rs) {
    for (const [field, value] of Object.entries({
      storeName: r.storeName,
      businessName: r.businessName,
      storeEmail: r.storeEmail,
      storePhone: r.storePhone,
      address1: r.address1,
    })) {
      all.push({ retailerId: r.id, field, value });
    }
  }
  for (const c of cs) {
    for (const [field, value] of Object.entries({
      contactName: `${c.firstName} ${c.lastName}`,
      contactEmail: c.email,
      contactPhone: c.phone,
      contactCelphone: c.celphone,
      contactAddress1: c.address1,
    })) {
      all.push({ retailerId: c.retailerId, field, value });
    }
  }
  const owners = new Map<string, Set<number>>();
  for (const c of all) {
    const v = norm(c.value);
    if (!owners.has(v)) owners.set(v, new Set());
    owners.get(v)!.add(c.retailerId);
  }
  const seen = new Set<string>();
  const list = all.filter((c) => {
    const v = norm(c.value);
    if (v.length < 8 || owners.get(v)!.size !== 1 || seen.has(v)) return false;
    seen.add(v);
    return true;
  });
  const values = new Map<number, string[]>();
  for (const c of all)
    values.set(c.retailerId, [...(values.get(c.retailerId) ?? []), norm(c.value)]);
  return { list, valuesOf: (id) => values.get(id) ?? [] };
}

function norm(s: string | null | undefined): string {
  return (s ?? "").trim().toLowerCase().replace(/\s+/g, " ");
}

/** HTML to the text a reader sees (tags dropped, entities decoded), plus attribute values (hrefs, values). */
function readable(html: string): string {
  const attrs = [
    ...html.matchAll(/\s(?:value|href|title|alt|content|aria-label|placeholder)="([^"]*)"/g),
  ]
    .map((m) => m[1])
    .join(" ");
  const text = html
    .replace(/<script[\s\S]*?<\/script>/gi, (s) => ` ${s} `)
    .replace(/<[^>]+>/g, " ");
  return htmlDecode(`${text} ${attrs}`);
}

/** Whether `value` (normalised) occurs in `text` (normalised) as a whole: "Store ab1" is not in "Store ab12". */
function containsWhole(text: string, value: string): boolean {
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) {
    const before = text[i - 1] ?? " ";
    const after = text[i + value.length] ?? " ";
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
  }
  return false;
}

/**
 * Canaries of retailers other than `viewer` found in `text` (an address on a label allowed by `allow`). A
 * canary inside one of the viewer's own values is not counted: the viewer's page shows its own data ("Pat
 * Tester" is someone's whole name and part of the viewer's "Pat Tester Smith").
 */
function leaks(
  text: string,
  viewer: number,
  own: readonly string[],
  list: readonly Canary[],
  allow: (c: Canary) => boolean = () => false,
): Canary[] {
  const t = norm(text);
  return list.filter((c) => {
    if (c.retailerId === viewer || allow(c)) return false;
    const v = norm(c.value);
    return containsWhole(t, v) && !own.some((mine) => containsWhole(mine, v));
  });
}

/** A signed-in session for a retailer's user, as the sign-in form would leave it. */
async function sessionFor(retailerId: number): Promise<string> {
  const [u] = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.retailerId, retailerId))
    .orderBy(users.id)
    .limit(1);
  if (!u) throw new Error(`retailer ${retailerId} has no user`);
  const id = randomBytes(20).toString("hex");
  await db()
    .insert(sessions)
    .values({ id, userId: u.id, expiresAt: new Date(Date.now() + 86_400_000) });
  return id;
}

interface Visit {
  url: string;
  kind: "page" | "pdf" | "csv" | "other";
  text: string;
}

/** Opens every page reachable from `starts` by same-site links (a few per shape), as one session. */
async function crawl(session: string, starts: string[]): Promise<Visit[]> {
  const queue = [...starts];
  const seen = new Set<string>();
  const shapes = new Map<string, number>();
  const visits: Visit[] = [];
  while (queue.length > 0 && visits.length < MAX_PAGES) {
    const href = queue.shift()!;
    const u = new URL(href, baseUrl);
    const key = u.pathname + u.search;
    if (seen.has(key) || SKIP.test(u.pathname)) continue;
    seen.add(key);
    const shape =
      u.pathname.replace(/\d+/g, "N").replace(/[0-9a-f]{8}-[0-9a-f-]{27}\.(png|jpg)/, "F") +
      "?" +
      [...u.searchParams.keys()].sort().join("&");
    const n = shapes.get(shape) ?? 0;
    if (n >= PER_SHAPE) continue;
    shapes.set(shape, n + 1);
    const res = await fetch(new URL(key, baseUrl), {
      headers: { Cookie: `wx_session=${session}`, Accept: "text/html,*/*" },
      redirect: "manual",
    });
    const type = res.headers.get("content-type") ?? "";
    if (res.status >= 300 && res.status < 400) {
      const loc = res.headers.get("location");
      if (loc && new URL(loc, u).origin === u.origin)
        queue.push(new URL(loc, u).pathname + new URL(loc, u).search);
      await res.arrayBuffer();
      continue;
    }
    if (type.includes("application/pdf")) {
      visits.push({ url: key, kind: "pdf", text: pdfText(Buffer.from(await res.arrayBuffer())) });
      continue;
    }
    if (type.includes("text/csv")) {
      visits.push({ url: key, kind: "csv", text: await res.text() });
      continue;
    }
    const body = await res.text();
    if (!type.includes("text/html")) {
      visits.push({ url: key, kind: "other", text: body });
      continue;
    }
    visits.push({ url: key, kind: "page", text: readable(body) });
    for (const m of body.matchAll(/<a\s[^>]*href="([^"#]+)[^"]*"/g)) {
      const next = new URL(htmlDecode(m[1]), u);
      if (next.origin === u.origin) queue.push(next.pathname + next.search);
    }
  }
  return visits;
}

/** Retailers (with a user) who took part in the most orders of each kind: the data a crawl is worth. */
async function busiestRetailers(perKind: number): Promise<number[]> {
  const ids = new Set<number>();
  for (const type of [TRANSACTION_TYPE.SALE, TRANSACTION_TYPE.SWAP, TRANSACTION_TYPE.RMA]) {
    const rows = await db().execute<{ id: number }>(sql`
      select r.id from ${retailers} r
      join ${orders} o on (o.provider_id = r.id or o.receiver_id = r.id) and o.transaction_type = ${type}
      where exists (select 1 from ${users} u where u.retailer_id = r.id) and r.status = 'active'
      group by r.id order by count(*) desc, r.id limit ${perKind}`);
    for (const r of rows) ids.add(Number(r.id));
  }
  return [...ids];
}

describe("leak canary", () => {
  // Runs first: the crawl below then reads the fixture's conversations (the order pages show them).
  it("messages: every fixture retailer's canaries, posted in its conversations, are refused; the conversations show none", async () => {
    const { list, valuesOf } = await canaries();
    const ids = [fixture.a, fixture.b, fixture.c];
    const problems: string[] = [];
    for (const me of ids) {
      const http = new HttpClient();
      http.cookies.set("wx_session", await sessionFor(me));
      const mine = await db().execute<{ id: number; transaction_type: number }>(
        sql`select id, transaction_type from ${orders} where provider_id = ${me} or receiver_id = ${me} order by id`,
      );
      // Its own canaries (names, addresses, e-mails, phones) and the other fixture retailers' e-mails and phones.
      const attempts = list.filter(
        (c) =>
          c.retailerId === me ||
          (ids.includes(c.retailerId) && /(Email|Phone|Celphone)$/i.test(c.field)),
      );
      expect(attempts.length).toBeGreaterThanOrEqual(10);
      for (const o of mine) {
        const path = `/messages/${o.transaction_type === 3 ? "rma" : o.transaction_type === 2 ? "swap" : "buy"}/${o.id}`;
        for (const c of attempts) {
          const r = await http.postForm(path, { body: `Hello, ${c.value} here.` });
          if (r.status !== 400)
            problems.push(
              `retailer ${me} ${path}: ${c.field} of retailer ${c.retailerId} answered ${r.status}`,
            );
        }
        const ok = await http.postForm(path, {
          body: `Plain message from one side of order ${o.id}.`,
        });
        expect(ok.status, `${path}: a plain message`).toBe(200);
        const page = await http.get(path);
        expect(page.status).toBe(200);
        for (const c of leaks(readable(page.body), me, valuesOf(me), list))
          problems.push(
            `retailer ${me} page ${path}: ${c.field} of retailer ${c.retailerId} (${c.value})`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it("no page, PDF or CSV a retailer can reach shows another retailer's canary", async () => {
    const { list, valuesOf } = await canaries();
    const fixtureCanaries = list.filter((c) => c.retailerId === fixture.a);
    // Every field of the fixture retailers is a canary (the rule above kept them all).
    expect(fixtureCanaries.map((c) => c.field).sort()).toEqual(
      [
        "address1",
        "businessName",
        "contactAddress1",
        "contactCelphone",
        "contactEmail",
        "contactName",
        "contactPhone",
        "storeEmail",
        "storeName",
        "storePhone",
      ].sort(),
    );
    const viewers = [...new Set([fixture.a, fixture.b, fixture.c, ...(await busiestRetailers(2))])];
    const problems: string[] = [];
    const counts = { page: 0, pdf: 0, csv: 0, other: 0 };
    for (const viewer of viewers) {
      const session = await sessionFor(viewer);
      const visits = await crawl(session, [
        "/",
        "/rma",
        "/rma?status=open",
        "/orders/sales",
        "/orders/purchases",
        "/orders/swaps",
        "/orders/sentswaps",
        "/orders/receivedswaps",
        "/active/listings",
        "/active/requests",
        "/buy",
        "/sell",
        "/swap",
        "/settings",
        // The store's team (docs/product/teams.md): its own people only.
        "/settings/team",
        // Statements (page, CSV, PDF): the counterparties of each month's movements.
        "/statements",
        // Matches (ADR 0030): the listings that fill the viewer's requests or fit its saved searches.
        "/alerts/matches",
        // Offers (docs/product/offers.md): made and received, each offer's page.
        "/alerts/offers",
        // Stock file import (ADR 0029): the upload page and the viewer's own imports.
        "/stock-import",
        // Staff-only: the staff-users screens send a retailer away (nothing of them is ever a visit).
        "/admin/staff-users",
      ]);
      for (const v of visits) {
        counts[v.kind] += 1;
        // A label prints its recipient's street address (contact and store addresses alike).
        const allow = (c: Canary) =>
          v.url.startsWith("/shipping-label/") && /address1$|Address1$/.test(c.field);
        for (const c of leaks(v.text, viewer, valuesOf(viewer), list, allow))
          problems.push(
            `retailer ${viewer} ${v.kind} ${v.url}: ${c.field} of retailer ${c.retailerId} (${c.value})`,
          );
      }
      expect(visits.length, `retailer ${viewer} reached no page`).toBeGreaterThan(5);
      expect(
        visits.filter((v) => v.url.startsWith("/admin/")).map((v) => v.url),
        `retailer ${viewer} opened a staff page`,
      ).toEqual([]);
      // Every retailer's statements are crawled: the month's page, its CSV and its PDF.
      for (const shape of [
        /^\/statements\/\d{4}-\d{2}$/,
        /^\/statements\/\d{4}-\d{2}\/csv$/,
        /^\/statements\/\d{4}-\d{2}\/pdf$/,
      ])
        expect(visits.map((v) => v.url)).toContainEqual(expect.stringMatching(shape));
      // Both parties of the fixture's RMA reach it from their list of returns (victim A, perpetrator B).
      if (viewer === fixture.a || viewer === fixture.b)
        expect(visits.map((v) => v.url)).toContainEqual(expect.stringMatching(/^\/rma\/\d+$/));
    }
    console.log(
      `leak canary: ${list.length} canaries; ${viewers.length} retailers crawled: ${counts.page} pages, ${counts.pdf} PDFs, ${counts.csv} CSVs, ${counts.other} other`,
    );
    expect(problems).toEqual([]);
    expect(counts.page).toBeGreaterThan(20);
  });

  it("no e-mail to a retailer carries another retailer's canary", async () => {
    const { list, valuesOf } = await canaries();
    // Whose address each mail went to: a retailer's users, store e-mail and contacts.
    const byEmail = new Map<string, number>();
    for (const u of await db().select({ email: users.email, r: users.retailerId }).from(users))
      if (u.r) byEmail.set(norm(u.email), u.r);
    for (const r of await db()
      .select({ email: retailers.storeEmail, r: retailers.id })
      .from(retailers))
      byEmail.set(norm(r.email), r.r);
    for (const c of await db()
      .select({ email: retailerContacts.email, r: retailerContacts.retailerId })
      .from(retailerContacts))
      byEmail.set(norm(c.email), c.r);
    const mails = await db().select().from(outboxEmails);
    const problems: string[] = [];
    let toRetailers = 0;
    const others = new Map<string, number>();
    for (const m of mails) {
      const to = byEmail.get(norm(m.toEmail));
      if (to === undefined) {
        // Staff, and addresses of no retailer (a registration not yet set up, a sales rep).
        others.set(m.kind, (others.get(m.kind) ?? 0) + 1);
        continue;
      }
      toRetailers += 1;
      for (const c of leaks(
        `${m.subject}\n${m.bodyText}\n${m.bodyHtml ? readable(m.bodyHtml) : ""}`,
        to,
        valuesOf(to),
        list,
      )) {
        problems.push(
          `mail ${m.id} (${m.kind}) to retailer ${to}: ${c.field} of retailer ${c.retailerId} (${c.value})`,
        );
      }
    }
    const rest = [...others]
      .sort((x, y) => y[1] - x[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    console.log(
      `leak canary: ${toRetailers} of ${mails.length} e-mails went to retailers (the others, by kind: ${rest})`,
    );
    expect(problems).toEqual([]);
  });
});
