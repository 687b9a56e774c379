/**
 * One time zone (docs/product/windows.md, "Time zone"): the e2e stack runs with MARKETPLACE_TZ=America/Los_Angeles
 * (scripts/test.mjs), so every date a person reads (an order page, a notice e-mail, a packing slip PDF) must be
 * written in Los Angeles time, not New York time and not UTC. Each instant below is chosen so the three zones
 * disagree about the date or the time.
 */
import type { Client } from "@temporalio/client";
import { eq, like } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "../../app/utils/env.server";
import { orders, outboxEmails, retailers, shipments } from "../../db/schema";
import { formatDate, formatDateTime } from "../../domain/date-format";
import { decodeArrayFromPayloads } from "@temporalio/common/lib/internal-non-workflow";
import { addBusinessDays, WINDOWS } from "../../domain/business-days";
import { buyWorkflowId, completeCheckoutUpdate } from "../../workflows/buy/contract";
import { rmaWorkflowId, type RmaInput } from "../../workflows/rma/contract";
import { createListing, createStaffUser, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { createOrderAt } from "../factories/orders";
import { pdfText } from "../setup/pdf-text";
import { closeTemporal, fileOneUnitRma, startBuyOrder, temporal } from "./buy-helpers";
import { csvRecords } from "./csv-parse";
import { closePage, db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

const LA = "America/Los_Angeles";
const NY = "America/New_York";
let browser: Browser;
let client: Client;
let seller: Page;
const tok = uniqueToken().toUpperCase();
const sellerEmail = uniqueEmail("tz-seller");
const buyerEmail = uniqueEmail("tz-buyer");
const staffEmail = uniqueEmail("tz-staff");
let sellerId: number;
let buyerId: number;
let variationId: number;
let listingId: number;
let shipped: Awaited<ReturnType<typeof createOrderAt>>;
let workflowOrderId: number | null = null;
// 06:30 UTC on a March Tuesday: 01:30 on Tuesday in New York, 22:30 on Monday in Los Angeles.
const CREATED = new Date("2026-03-03T06:30:00.000Z");

beforeAll(async () => {
  client = await temporal();
  const world = await createWorld(db(), {
    brand: { name: `TzBrand ${tok}` },
    products: [{ sku: `TZ${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
    retailers: {
      seller: { payout: true, user: { email: sellerEmail } },
      buyer: { payout: true, user: { email: buyerEmail } },
    },
  });
  variationId = world.variation.id;
  sellerId = world.retailers.seller.retailer.id;
  buyerId = world.retailers.buyer.retailer.id;
  listingId = (
    await createListing(db(), { variationId, providerId: sellerId, sizes: { S: 4, M: 4 } })
  ).id;
  shipped = await createOrderAt(db(), "ship_order", {
    providerId: sellerId,
    receiverId: buyerId,
    lines: [{ variationId, sizes: { S: 1 } }],
  });
  await db().update(orders).set({ createdAt: CREATED }).where(eq(orders.id, shipped.order.id));
  await db()
    .update(shipments)
    .set({ createdAt: CREATED })
    .where(eq(shipments.id, shipped.shipment!.id));
  await db().update(retailers).set({ createdAt: CREATED }).where(eq(retailers.id, sellerId));
  await createStaffUser(db(), { email: staffEmail });
  browser = await launchBrowser();
  seller = await signedIn(browser, sellerEmail, { at: null });
});

afterAll(async () => {
  if (seller) await closePage(seller);
  if (workflowOrderId !== null) {
    try {
      await client?.workflow.getHandle(buyWorkflowId(workflowOrderId)).terminate("test done");
    } catch {
      // already finished
    }
  }
  await closeTemporal();
});

describe("dates in the marketplace time zone (MARKETPLACE_TZ=America/Los_Angeles in e2e)", () => {
  it("the e2e stack runs in Los Angeles time", () => {
    expect(getEnv().MARKETPLACE_TZ).toBe(LA);
    expect(formatDate(CREATED, LA)).toBe("03/02/2026");
    expect(formatDate(CREATED, NY)).toBe("03/03/2026");
  });

  it("an order page shows the order date in Los Angeles time", async () => {
    await seller.goto(url(`/transaction/buy/${shipped.order.id}`));
    const detail = (await seller.getByTestId("order-detail").textContent()) ?? "";
    expect(detail).toContain("03/02/2026");
    expect(detail).not.toContain("03/03/2026");
  });

  it("the packing slip PDF prints the order date in Los Angeles time", async () => {
    const slip = await seller.request.get(url(`/packingslip/${shipped.order.externalId}/`));
    expect(slip.status()).toBe(200);
    const text = pdfText(await slip.body()).replace(/\s+/g, " ");
    expect(text).toContain("Order date 03/02/2026");
    expect(text).not.toContain("03/03/2026");
  });

  it("staff's CSV report and a staff resource form's date input read in Los Angeles time", async () => {
    const staff = await signedIn(browser, staffEmail, { at: null });
    try {
      const csv = await staff.request.get(
        url("/admin/reports/shipment-insurance.csv?from=2026-03-01&to=2026-03-04"),
      );
      expect(csv.status()).toBe(200);
      const row = csvRecords(await csv.text()).records.find(
        (r) => r.shipment_id === String(shipped.shipment!.id),
      );
      expect(row?.created).toBe("2026-03-02 22:30:00");
      // The generic list's CSV export: the seller's Created cell.
      const exported = await staff.request.get(url("/admin/retailer/export"));
      expect(exported.status()).toBe(200);
      const seller = csvRecords(await exported.text()).records.find(
        (r) => r.ID === String(sellerId),
      );
      expect(seller?.Created).toBe("2026-03-02 22:30:00");
      // The generic retailer form's Created date input: the seller's creation day in Los Angeles, not UTC's.
      await staff.goto(url(`/admin/retailer/${sellerId}`));
      await expect(staff.locator("#field-created").inputValue()).resolves.toBe("2026-03-02");
    } finally {
      await closePage(staff);
    }
  });

  it("a notice e-mail (the outbox row) gives its deadline in Los Angeles time", async () => {
    const draft = await startBuyOrder(client, db(), {
      providerId: sellerId,
      receiverId: buyerId,
      variationId,
      listingId,
      sizes: { M: 1 },
      unitPriceCents: 2000,
    });
    const id = draft.order.id;
    workflowOrderId = id;
    const workflowId = buyWorkflowId(id);
    const card = { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" };
    await client.workflow.getHandle(workflowId).executeUpdate(completeCheckoutUpdate, {
      args: [{ actorRetailerId: buyerId, paymentMethod: card }],
    });
    // The seller is asked to answer by the seller-response deadline the read model records.
    let mail: { bodyText: string } | undefined;
    let deadline: string | null | undefined;
    const end = Date.now() + 30_000;
    while (Date.now() < end && !(mail && deadline)) {
      [mail] = await db()
        .select({ bodyText: outboxEmails.bodyText })
        .from(outboxEmails)
        .where(like(outboxEmails.dedupeKey, `${workflowId}:mail:%approve_sale_needed%`));
      const [row] = await db()
        .select({ deadlines: orders.deadlines })
        .from(orders)
        .where(eq(orders.id, id));
      deadline = row?.deadlines?.sellerResponseBy;
      if (!(mail && deadline)) await new Promise((r) => setTimeout(r, 300));
    }
    expect(mail, "the seller's approve-sale notice").toBeTruthy();
    expect(deadline, "the seller-response deadline").toBeTruthy();
    const la = formatDateTime(deadline!, LA, { seconds: false });
    expect(mail!.bodyText).toContain(`by ${la}`);
    expect(mail!.bodyText).not.toContain(formatDateTime(deadline!, NY, { seconds: false }));
  });

  it("an RMA's staff deadline is counted in Los Angeles business days", async () => {
    const delivered = await createOrderAt(db(), "delivered", {
      providerId: sellerId,
      receiverId: buyerId,
      lines: [{ variationId, sizes: { S: 1 } }],
      deliveredAt: new Date(Date.now() - 3_600_000),
    });
    const buyer = await signedIn(browser, buyerEmail);
    try {
      await fileOneUnitRma(buyer, delivered.order.id);
      await buyer.waitForURL((u) => u.searchParams.get("rma") === "complete");
    } finally {
      await closePage(buyer);
    }
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, delivered.order.id));
    const handle = client.workflow.getHandle(rmaWorkflowId(rma.id));
    // The workflow counts its business days in the zone it was started with.
    const history = await handle.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const [input] = (await decodeArrayFromPayloads(
      client.options.loadedDataConverter,
      started?.input?.payloads,
    )) as RmaInput[];
    expect(input.timeZone).toBe(LA);
    // Staff's five business days from the request, in Los Angeles (the read model's deadline).
    const startedAt = (await handle.describe()).startTime.getTime();
    let staffBy: string | null | undefined;
    const end = Date.now() + 30_000;
    while (!staffBy && Date.now() < end) {
      const [row] = await db()
        .select({ deadlines: orders.deadlines })
        .from(orders)
        .where(eq(orders.id, rma.id));
      staffBy = row?.deadlines?.staffBy;
      if (!staffBy) await new Promise((r) => setTimeout(r, 300));
    }
    expect(staffBy, "staff's deadline").toBeTruthy();
    const expected = addBusinessDays(startedAt, WINDOWS.rmaStaffBusinessDays, LA);
    expect(Math.abs(new Date(staffBy!).getTime() - expected)).toBeLessThan(60_000);
  });
});
