/**
 * Anonymity across the retailer catalogue (docs/product/glossary.md, "Anonymity"): a retailer signs in, visits every page of the
 * catalogue (marketplace tabs, brand pages, view-all, every listing and request view it can reach, its own
 * lists, wizards, brands, settings, cart and checkout) and finds no other retailer's store name, business
 * name, e-mail, phone or address anywhere in the HTML, only `retailer-00{id}` labels.
 */
import { ne } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { db, sql } from "./harness";
import { retailerContacts, retailers } from "../../db/schema";
import { HttpClient, htmlDecode } from "./http";

const EMAIL = "retailer1@demo.test";
const PASSWORD = "marketplace-demo-1";

let client: HttpClient;
let ownRetailerId: number;
let secrets: string[] = [];

beforeAll(async () => {
  const own = await sql()<
    { retailer_id: number }[]
  >`select retailer_id from users where lower(email) = ${EMAIL}`;
  ownRetailerId = own[0]!.retailer_id;

  const others = await db()
    .select({
      storeName: retailers.storeName,
      businessName: retailers.businessName,
      storeEmail: retailers.storeEmail,
      storePhone: retailers.storePhone,
      address1: retailers.address1,
    })
    .from(retailers)
    .where(ne(retailers.id, ownRetailerId));
  const contacts = await db()
    .select({
      email: retailerContacts.email,
      phone: retailerContacts.phone,
      celphone: retailerContacts.celphone,
      address1: retailerContacts.address1,
      retailerId: retailerContacts.retailerId,
    })
    .from(retailerContacts)
    .where(ne(retailerContacts.retailerId, ownRetailerId));
  const otherUsers = await sql()<
    { email: string }[]
  >`select email from users where retailer_id is not null and retailer_id <> ${ownRetailerId}`;
  const values = [
    ...others.flatMap((r) => [r.storeName, r.businessName, r.storeEmail, r.storePhone, r.address1]),
    ...contacts.flatMap((c) => [c.email, c.phone, c.celphone, c.address1]),
    ...otherUsers.map((u) => u.email),
  ];
  // Short strings (e.g. empty fields) would match anything; every real name, e-mail, phone or street is longer.
  secrets = [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 6))];
  expect(secrets.length).toBeGreaterThan(10);

  client = new HttpClient();
  await client.signIn(EMAIL, PASSWORD);
});

/** GET a page as the retailer and fail on any other retailer's identifying data. */
async function visit(path: string): Promise<string> {
  const r = await client.get(path, { follow: true });
  expect(r.status, `${path} answered ${r.status}`).toBeLessThan(500);
  const html = htmlDecode(r.body).toLowerCase();
  const leaked = secrets.filter((s) => html.includes(s.toLowerCase()));
  expect(leaked, `${path} shows another retailer's data`).toEqual([]);
  return r.body;
}

function links(html: string, re: RegExp): string[] {
  return [...new Set([...html.matchAll(re)].map((m) => m[0]))];
}

describe("a retailer never sees another retailer's identity", () => {
  test("marketplace tabs, brand pages, view-all and every listing and request view", async () => {
    // Crawl every marketplace link reachable from the three tabs (brand pages, view-all, load-more,
    // orderings, listing and request views), two levels deep.
    const seen = new Set<string>();
    let frontier = ["/buy/", "/swap/", "/sell/"];
    for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const path of frontier) {
        if (seen.has(path) || seen.size >= 250) continue;
        seen.add(path);
        const html = await visit(path);
        for (const href of links(html, /href="(\/(?:buy|swap|sell|listing|viewlisting)[^"#]*)"/g)) {
          const target = htmlDecode(href.slice(6, -1));
          if (!seen.has(target)) next.push(target);
        }
      }
      frontier = [...new Set(next)];
    }
    expect([...seen].some((p) => p.startsWith("/listing/"))).toBe(true);
    // The marketplace really shows other retailers, anonymously.
    expect(await visit("/buy/")).toMatch(/retailer-00\d+/);
  });

  test("own lists, wizards, brands and settings", async () => {
    for (const path of [
      "/",
      "/active/listings/",
      "/active/requests/",
      "/addlisting/",
      "/requestlisting/",
      "/brands/",
      "/brands/?tab=add",
      "/settings/store",
      "/settings/contact",
      "/settings/payout",
      "/settings/card",
      "/getpaid/",
      "/onboarding",
      "/how-selling-works",
      "/pricing",
    ]) {
      await visit(path);
    }
  });

  test("cart bar and checkout review with another retailer's listing in the cart", async () => {
    const buy = await visit("/buy/");
    let added = false;
    for (const view of links(buy, /\/listing\/buy\/\d+/g)) {
      const page = await visit(view);
      const sizeField = /name="(size\.[^"]+)"/.exec(page)?.[1];
      if (!sizeField) continue;
      const add = await client.postForm("/cart", {
        intent: "add",
        listingId: view.split("/").pop()!,
        [sizeField]: 1,
        returnTo: "/buy/",
      });
      if (add.status < 400) {
        added = true;
        break;
      }
    }
    expect(added, "no other retailer's listing could be added to the cart").toBe(true);
    await visit("/buy/");
    await visit("/checkout");
    await client.postForm("/cart", { intent: "clear", returnTo: "/buy/" });
  });
});
