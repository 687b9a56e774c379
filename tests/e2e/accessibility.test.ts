/**
 * Accessibility: axe-core (tests/e2e/axe.ts: the rules axe runs by default, WCAG 2.x A/AA and best practices) on
 * every page of the retailer and staff flows, as a visitor, a retailer with a purchase, a swap and an RMA, and
 * staff: no serious or critical violation, and every form field has a label (axe's `label` rule, reported
 * whatever its impact); a control page with both kinds of fault shows the scan finds them. The buy flow done
 * with the keyboard alone is in tests/e2e/keyboard-buy.test.ts. axe costs about 0.45 s a page on this box (its
 * rules, not the page load), so each page is scanned once, as the persona it belongs to. The personas' walks run
 * at the same time, each in its own page: while one page waits for the app, another is scanned.
 */
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "../../app/utils/env.server";
import { formatMonth } from "../../domain/date-format";
import { getResource, RESOURCE_NAMES } from "../../domain/resources";
import { PERMISSION_NAMES } from "../../domain/staff-users";
import {
  authorizeBrand,
  createBrand,
  createCollection,
  createListing,
  createProduct,
  createRequest,
  createRetailer,
  createStaffUser,
  SIZE_RUNS,
  uniqueToken,
} from "../factories";
import { createOrderAt, createRmaOf, createSwapOrder } from "../factories/orders";
import { axeProblems } from "./axe";
import { closePage, db, launchBrowser, newPage, signedIn } from "./harness";
import { freshEmail } from "./http";

const tok = uniqueToken().toUpperCase();
let browser: Browser;

interface Paths {
  visitor: string[];
  retailer: string[];
  staff: string[];
}
let paths: Paths;
let emails: { retailer: string; staff: string };

beforeAll(async () => {
  const brand = await createBrand(db(), { name: `A11y ${tok}` });
  const col = await createCollection(db(), { brandId: brand.id });
  const prod = await createProduct(db(), {
    collectionId: col.id,
    sku: `AX${tok}`,
    sizes: SIZE_RUNS.apparel,
    colors: 2,
  });
  const ra = await createRetailer(db(), { payout: true, user: { email: freshEmail("a11y-a") } });
  const rb = await createRetailer(db(), { payout: true, user: { email: freshEmail("a11y-b") } });
  for (const r of [ra, rb]) await authorizeBrand(db(), r.retailer.id, brand.id);
  const [a, b] = [ra.retailer.id, rb.retailer.id];
  const mine = await createListing(db(), {
    variationId: prod.variations[0].id,
    providerId: a,
    sizes: { S: 1, M: 2 },
  });
  const theirs = await createListing(db(), {
    variationId: prod.variations[1].id,
    providerId: b,
    sizes: { S: 2, L: 1 },
  });
  const theirSwap = await createListing(db(), {
    variationId: prod.variations[1].id,
    providerId: b,
    sizes: { M: 1 },
    listingType: "swap",
  });
  const myRequest = await createRequest(db(), {
    variationId: prod.variations[1].id,
    requestorId: a,
    sizes: { L: 1 },
  });
  const theirRequest = await createRequest(db(), {
    variationId: prod.variations[0].id,
    requestorId: b,
    sizes: { M: 1 },
  });
  const line = { variationId: prod.variations[0].id, sizes: { M: 2 } };
  const buy = await createOrderAt(db(), "delivered", {
    providerId: b,
    receiverId: a,
    lines: [line],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  const sale = await createOrderAt(db(), "provider_approve_sale", {
    providerId: a,
    receiverId: b,
    lines: [line],
  });
  const swap = await createSwapOrder(db(), { providerId: a, receiverId: b, lines: [line] });
  const rma = await createRmaOf(db(), buy.order.id, {
    victimId: a,
    contact: {
      name: "Pat Buyer",
      email: "pat@example.test",
      phone: "555-0100",
      packingSlipName: "Pat",
    },
  });
  const staff = await createStaffUser(db(), {
    email: freshEmail("a11y-staff"),
    permissions: [...PERMISSION_NAMES],
  });
  emails = { retailer: ra.user!.email, staff: staff.email };
  paths = {
    visitor: [
      "/signin",
      "/register",
      "/password-reset",
      "/contact",
      "/pricing",
      "/how-selling-works",
    ],
    retailer: [
      "/",
      "/buy",
      `/buy/${brand.id}`,
      "/sell",
      "/swap",
      `/listing/buy/${theirs.id}`,
      `/listing/swap/${theirSwap.id}`,
      `/listing/sell/${theirRequest.id}`,
      "/cart",
      "/active/listings",
      "/active/requests",
      "/addlisting",
      "/requestlisting",
      // Matches and saved searches (ADR 0030).
      "/alerts/matches",
      // Offers (docs/product/offers.md): making one, and the tab.
      `/offers/new?listing=${theirs.id}`,
      "/alerts/offers",
      // Stock file import (ADR 0029): the upload page.
      "/stock-import",
      `/updatelisting/${mine.id}`,
      `/updaterequest/${myRequest.id}`,
      "/orders/sales",
      "/orders/purchases",
      "/orders/swaps",
      `/transaction/buy/${buy.order.id}`,
      `/transaction/buy/${sale.order.id}`,
      `/transaction/swap/${swap.order.id}`,
      `/rma/${rma.rmaId}`,
      // An order's conversation on its own page (the order pages above show it too).
      `/messages/buy/${buy.order.id}`,
      `/create-rma/${buy.order.id}`,
      `/rate/${buy.order.id}`,
      "/settings",
      "/settings/store",
      "/settings/contact",
      "/settings/password",
      "/settings/two-factor",
      "/settings/card",
      "/settings/payout",
      "/getpaid",
      "/brands",
      "/alerts",
      // Statements: the months and this month's statement.
      "/statements",
      `/statements/${formatMonth(new Date(), getEnv().MARKETPLACE_TZ)}`,
    ],
    staff: [
      "/admin",
      "/admin/retailer/",
      `/admin/retailer/${a}`,
      // Every staff create form (its fields' labels differ per resource; the lists share one component).
      ...RESOURCE_NAMES.filter((n) => getResource(n)?.can_create).map((n) => `/admin/${n}/new`),
      "/admin/active-transactions",
      `/admin/active-transactions/all?order=${buy.order.id}`,
      "/admin/active-rmas",
      `/admin/active-rmas/all?open=${rma.rmaId}`,
      `/admin/active-rmas/all?rma=${rma.rmaId}`,
      `/messages/rma/${rma.rmaId}`,
      "/admin/active-shipments",
      "/admin/listings/all",
      "/admin/outbox",
      "/admin/staff-users",
      `/admin/staff-users/${staff.id}`,
      "/admin/retailer-map",
      "/admin/retailers",
      "/admin/retailer-upload",
      "/admin/validate/brands",
      `/manage-brand/info?brand=${brand.id}`,
      `/manage-retailer/info?id=${a}`,
      `/manage-retailer/statements?id=${a}`,
      `/admin/productvariationmanagement/${prod.variations[0].id}`,
      "/perf-reports",
      "/rep-reports",
      // The surplus dashboard, the marketplace's (the retailer's is on "/").
      "/admin/reports/dashboard",
    ],
  };
  browser = await launchBrowser();
});

async function scan(page: Page, list: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const p of list) {
    const res = await page.goto(p);
    if (!res || res.status() >= 400) {
      problems.push(`${p}: answered ${res?.status()}`);
      continue;
    }
    problems.push(...(await axeProblems(page, p)));
  }
  return problems;
}

describe.concurrent("axe on every page", () => {
  it("the scan itself finds what it is there to find: an unlabelled field, low contrast text", async () => {
    const page = await newPage(browser);
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>control</title></head><body><main><p style="color:#bbb;background:#fff">faint</p><form><input name="q"></form></main></body></html>`,
    );
    const found = (await axeProblems(page, "control")).map((p) => p.split(" ")[1]);
    expect(found).toEqual(expect.arrayContaining(["color-contrast", "label"]));
    await closePage(page);
  });

  it(
    "visitor pages: no serious or critical violation, every field labelled",
    { timeout: 300_000 },
    async () => {
      const page = await newPage(browser);
      expect(await scan(page, paths.visitor)).toEqual([]);
      await closePage(page);
    },
  );

  it(
    "retailer pages (marketplace, listings, orders, a swap, an RMA, settings)",
    { timeout: 300_000 },
    async () => {
      const page = await signedIn(browser, emails.retailer, { at: null }); // the walk opens the first page itself
      expect(await scan(page, paths.retailer)).toEqual([]);
      await closePage(page);
    },
  );

  it(
    "staff pages (hub, resources, transactions, RMAs, shipments, tools, reports)",
    { timeout: 300_000 },
    async () => {
      const page = await signedIn(browser, emails.staff, { at: null });
      expect(await scan(page, paths.staff)).toEqual([]);
      await closePage(page);
    },
  );
});
