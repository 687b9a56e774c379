/**
 * Markdown schedules in the database (db/queries/markdowns.ts; docs/product/markdowns.md): the seller's set and
 * its refusals (nothing written), the daily statement against the domain's rule (domain/markdown.ts takeStep) for
 * a step, the floor, an end date, a paused schedule and a listing held by a purchase in flight, the triggers
 * that keep listings.price_cents the lower of the own and the catalogue price, and cancel.
 *
 * Other files may hold schedules too: every assertion is about this file's listings.
 */
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addToCart, getCartSummary } from "../../db/queries/cart";
import { getDraftOrders, proceedFromCart } from "../../db/queries/checkout";
import { saveSearch } from "../../db/queries/matches";
import {
  applyMarkdownDay,
  commandMarkdown,
  daysToSell,
  getMarkdownView,
  nextPriceNotices,
  recordMarkdownMatches,
  setMarkdown,
} from "../../db/queries/markdowns";
import {
  listingMarkdowns,
  listingMatches,
  listingMarkdownSteps,
  listings,
  orders,
  productVariations,
} from "../../db/schema";
import {
  addDaysISO,
  MARKDOWN_MESSAGES,
  newSchedule,
  suggestedTerms,
  takeStep,
  type MarkdownTerms,
} from "../../domain/markdown";
import { BUY_STATES } from "../../domain/states";
import { createDraftOrder, createSellerWithListing, listingLine } from "./buy-fixtures";
import { buyWorkflowId } from "../../workflows/buy/contract";
import { authorizeBrand, createRetailer } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(3);

const TERMS: MarkdownTerms = {
  stepKind: "percent",
  stepValue: 10,
  everyDays: 7,
  floorKind: "percent",
  floorValue: 60,
  endDate: null,
};

/** A seller's listing at a catalogue price of $40.00. */
async function listingAt40() {
  const f = await createSellerWithListing(db, { catalogueCents: 4000 });
  return { ...f, priceCents: 4000 };
}

/** A 10 % step every day on `f`'s listing, set on `today`. */
async function scheduleDaily(f: Awaited<ReturnType<typeof listingAt40>>, today: string) {
  await setMarkdown(db, {
    listingId: f.listing.id,
    retailerId: f.seller.retailer.id,
    terms: { ...TERMS, everyDays: 1 },
    today,
  });
}

const priceOf = async (listingId: number) =>
  (await db.select().from(listings).where(eq(listings.id, listingId)))[0];
const scheduleOf = async (listingId: number) =>
  (await db.select().from(listingMarkdowns).where(eq(listingMarkdowns.listingId, listingId)))[0];

describe("setting a schedule", () => {
  it("a floor above the price is refused with its message and nothing is written", async () => {
    const f = await listingAt40();
    const r = await setMarkdown(db, {
      listingId: f.listing.id,
      retailerId: f.seller.retailer.id,
      terms: { ...TERMS, floorKind: "price", floorValue: 4500 },
      today: "2026-03-01",
    });
    expect(r).toMatchObject({ ok: false, status: 400, message: MARKDOWN_MESSAGES.floorAbovePrice });
    expect(await scheduleOf(f.listing.id)).toBeUndefined();
  });

  it("another retailer's listing is not found, and nothing is written", async () => {
    const f = await listingAt40();
    const other = await createRetailer(db, { payout: true });
    const r = await setMarkdown(db, {
      listingId: f.listing.id,
      retailerId: other.retailer.id,
      terms: TERMS,
      today: "2026-03-01",
    });
    expect(r).toMatchObject({ ok: false, status: 404 });
    expect(await scheduleOf(f.listing.id)).toBeUndefined();
  });
});

describe("the day's run", () => {
  it("steps, writes the history, stops at the floor and ends there; cancel restores the catalogue price", async () => {
    const f = await listingAt40();
    const set = await setMarkdown(db, {
      listingId: f.listing.id,
      retailerId: f.seller.retailer.id,
      terms: { ...TERMS, stepValue: 30 },
      today: "2030-01-01",
    });
    expect(set.ok).toBe(true);
    expect(await scheduleOf(f.listing.id)).toMatchObject({
      stepCents: 1200,
      floorCents: 2400,
      nextStepDate: "2030-01-08",
    });

    await applyMarkdownDay(db, "2030-01-07");
    expect((await priceOf(f.listing.id)).priceCents).toBe(4000);

    await applyMarkdownDay(db, "2030-01-08");
    expect(await priceOf(f.listing.id)).toMatchObject({ ownPriceCents: 2800, priceCents: 2800 });
    // A second run of the same day changes nothing.
    await applyMarkdownDay(db, "2030-01-08");
    expect((await priceOf(f.listing.id)).priceCents).toBe(2800);
    const view = await getMarkdownView(db, f.listing.id);
    expect(view?.next).toMatchObject({ priceCents: 2400, date: "2030-01-15" });
    // The marketplace cards' read: the same line, for the listings of a page that have one.
    expect(await nextPriceNotices(db, [f.listing.id, f.listing.id + 1_000_000])).toEqual(
      new Map([[f.listing.id, "Next price $24.00 on 2030-01-15"]]),
    );

    // A catalogue price change: the listing keeps the lower of the two.
    await db
      .update(productVariations)
      .set({ priceCents: 5000 })
      .where(eq(productVariations.id, f.variation.id));
    expect((await priceOf(f.listing.id)).priceCents).toBe(2800);

    await applyMarkdownDay(db, "2030-01-15");
    expect((await priceOf(f.listing.id)).priceCents).toBe(2400);
    expect((await scheduleOf(f.listing.id)).status).toBe("floor");
    expect(await nextPriceNotices(db, [f.listing.id])).toEqual(new Map());
    await applyMarkdownDay(db, "2030-01-22");
    expect((await priceOf(f.listing.id)).priceCents).toBe(2400);
    const steps = await db
      .select()
      .from(listingMarkdownSteps)
      .where(eq(listingMarkdownSteps.listingId, f.listing.id));
    expect(steps.map((s) => [s.day, s.fromCents, s.toCents])).toEqual([
      ["2030-01-08", 4000, 2800],
      ["2030-01-15", 2800, 2400],
    ]);
    expect(
      await recordMarkdownMatches(db, { day: "2030-01-15", afterId: steps[0].id, limit: 500 }),
    ).toMatchObject({ lastId: expect.any(Number) });

    expect(
      await commandMarkdown(db, {
        listingId: f.listing.id,
        retailerId: f.seller.retailer.id,
        command: "cancel",
        today: "2030-01-23",
      }),
    ).toMatchObject({ ok: true });
    expect(await priceOf(f.listing.id)).toMatchObject({ ownPriceCents: null, priceCents: 5000 });
    expect(await getMarkdownView(db, f.listing.id)).toBeNull();
  });

  it("an end date, a pause and a resume", async () => {
    const ended = await listingAt40();
    const paused = await listingAt40();
    for (const [f, endDate] of [
      [ended, "2031-01-10"],
      [paused, null],
    ] as const) {
      await setMarkdown(db, {
        listingId: f.listing.id,
        retailerId: f.seller.retailer.id,
        terms: { ...TERMS, endDate },
        today: "2031-01-01",
      });
    }
    const cmd = (command: "pause" | "resume", today: string) =>
      commandMarkdown(db, {
        listingId: paused.listing.id,
        retailerId: paused.seller.retailer.id,
        command,
        today,
      });
    expect(await cmd("pause", "2031-01-02")).toMatchObject({ ok: true });
    expect(await cmd("pause", "2031-01-02")).toMatchObject({ ok: false, status: 409 });

    await applyMarkdownDay(db, "2031-01-08");
    // The step on day 8 is the last (day 15 falls after the end date); the paused one waits.
    expect((await priceOf(ended.listing.id)).priceCents).toBe(3600);
    expect((await scheduleOf(ended.listing.id)).status).toBe("ended");
    expect((await priceOf(paused.listing.id)).priceCents).toBe(4000);

    expect(await cmd("resume", "2031-01-09")).toMatchObject({ ok: true });
    expect((await scheduleOf(paused.listing.id)).nextStepDate).toBe("2031-01-16");
    await applyMarkdownDay(db, "2031-01-16");
    expect((await priceOf(paused.listing.id)).priceCents).toBe(3600);
  });

  it("a listing held by a purchase in flight waits, and steps on the first run after", async () => {
    const f = await listingAt40();
    const buyer = await createRetailer(db, { payout: true });
    await setMarkdown(db, {
      listingId: f.listing.id,
      retailerId: f.seller.retailer.id,
      terms: TERMS,
      today: "2032-01-01",
    });
    const draft = await createDraftOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: buyer.retailer.id,
      lines: [listingLine(f, { S: 1 })],
    });
    await applyMarkdownDay(db, "2032-01-08");
    expect((await priceOf(f.listing.id)).priceCents).toBe(4000);
    expect((await scheduleOf(f.listing.id)).nextStepDate).toBe("2032-01-08");

    await db
      .update(orders)
      .set({ statename: BUY_STATES.PROVIDER_APPROVE_SALE })
      .where(eq(orders.id, draft.orderId));
    await applyMarkdownDay(db, "2032-01-09");
    expect((await priceOf(f.listing.id)).priceCents).toBe(4000);

    await db.update(orders).set({ statename: "complete" }).where(eq(orders.id, draft.orderId));
    await applyMarkdownDay(db, "2032-01-10");
    expect((await priceOf(f.listing.id)).priceCents).toBe(3600);
    expect((await scheduleOf(f.listing.id)).nextStepDate).toBe("2032-01-17");
    // The order keeps the price it was drafted at.
    const [line] = (await db.execute(
      sql`select unit_price_cents from order_contributions where order_id = ${draft.orderId}`,
    )) as unknown as { unit_price_cents: number }[];
    expect(line.unit_price_cents).toBe(4000);
  });
});

describe("the statement agrees with the rule", () => {
  let run = 0;
  it("property: day by day, applyMarkdownDaySql gives domain/markdown.ts takeStep's price, status and next day", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<"percent" | "amount">("percent", "amount"),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom<"percent" | "price">("percent", "price"),
        fc.integer({ min: 1, max: 99 }),
        fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
        async (stepKind, stepNumber, everyDays, floorKind, floorNumber, endIn) => {
          const base = addDaysISO("2050-01-01", 30 * run++);
          const f = await listingAt40();
          const terms: MarkdownTerms = {
            stepKind,
            stepValue: stepKind === "percent" ? stepNumber : stepNumber * 37,
            everyDays,
            floorKind,
            floorValue: floorKind === "percent" ? floorNumber : floorNumber * 39,
            endDate: endIn === null ? null : addDaysISO(base, endIn),
          };
          const set = await setMarkdown(db, {
            listingId: f.listing.id,
            retailerId: f.seller.retailer.id,
            terms,
            today: base,
          });
          expect(set.ok).toBe(true);
          let s = newSchedule(terms, 4000, base);
          let price = 4000;
          for (let d = 1; d <= 10; d++) {
            const day = addDaysISO(base, d);
            const out = takeStep(s, price, day);
            if (out.kind === "step") {
              price = out.priceCents;
              s = { ...s, status: out.status, nextStepDate: out.nextStepDate };
            } else if (out.kind === "end") s = { ...s, status: out.status };
            await applyMarkdownDay(db, day);
            expect((await priceOf(f.listing.id)).priceCents).toBe(price);
            expect(await scheduleOf(f.listing.id)).toMatchObject({
              status: s.status,
              nextStepDate: s.nextStepDate,
            });
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("matches", () => {
  it("a step runs the listing through the matches: a search saved since it was listed gets it", async () => {
    const f = await listingAt40();
    const looker = await createRetailer(db, { payout: true });
    await authorizeBrand(db, looker.retailer.id, f.brand.id);
    await saveSearch(db, looker.retailer.id, {
      brandId: f.brand.id,
      categoryId: null,
      sizes: [],
      search: "",
    });
    const matchesOf = () =>
      db
        .select()
        .from(listingMatches)
        .where(
          and(
            eq(listingMatches.listingId, f.listing.id),
            eq(listingMatches.retailerId, looker.retailer.id),
          ),
        );
    expect(await matchesOf()).toEqual([]);
    await scheduleDaily(f, "2034-01-01");
    await applyMarkdownDay(db, "2034-01-02");
    for (let afterId = 0; ; ) {
      const page = await recordMarkdownMatches(db, { day: "2034-01-02", afterId, limit: 500 });
      afterId = page.lastId;
      if (page.count < 500) break;
    }
    expect(await matchesOf()).toHaveLength(1);
  });
});

describe("a sell listing turned into a swap listing", () => {
  it("goes back to the catalogue price and does not step while it is one", async () => {
    const f = await listingAt40();
    await scheduleDaily(f, "2033-01-01");
    await applyMarkdownDay(db, "2033-01-02");
    expect((await priceOf(f.listing.id)).priceCents).toBe(3600);
    await db.update(listings).set({ listingType: "swap" }).where(eq(listings.id, f.listing.id));
    expect(await priceOf(f.listing.id)).toMatchObject({ ownPriceCents: null, priceCents: 4000 });
    await applyMarkdownDay(db, "2033-01-03");
    expect((await priceOf(f.listing.id)).priceCents).toBe(4000);
    expect((await scheduleOf(f.listing.id)).nextStepDate).toBe("2033-01-03");
  });
});

describe("what a buyer pays", () => {
  let run = 0;
  it("property: the cart and the draft order carry the listing's current price, and a later step never changes the order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 10, max: 90 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        async (stepPct, floorPct, before, after, units) => {
          const base = addDaysISO("2040-01-01", 40 * run++);
          const f = await listingAt40();
          const buyer = await createRetailer(db, { payout: true });
          await authorizeBrand(db, buyer.retailer.id, f.brand.id);
          await setMarkdown(db, {
            listingId: f.listing.id,
            retailerId: f.seller.retailer.id,
            terms: { ...TERMS, stepValue: stepPct, everyDays: 1, floorValue: floorPct },
            today: base,
          });
          let day = 0;
          for (; day < before; day++) await applyMarkdownDay(db, addDaysISO(base, day + 1));
          const shown = (await priceOf(f.listing.id)).priceCents;

          await addToCart(db, buyer.retailer.id, {
            listingId: f.listing.id,
            selection: { M: units },
          });
          const cart = await getCartSummary(db, buyer.retailer.id);
          expect(cart.lines[0].unitPriceCents).toBe(shown);
          const proceeded = await proceedFromCart(db, buyer.retailer.id, {
            workflowIdFor: buyWorkflowId,
          });
          if (!proceeded.ok || proceeded.kind === "swap")
            throw new Error(JSON.stringify(proceeded));
          const orderId = proceeded.created[0];
          const [review] = await getDraftOrders(db, buyer.retailer.id, [orderId]);
          expect(review.goodsCents).toBe(shown * units);

          // The purchase goes on past checkout; the schedule steps on.
          await db
            .update(orders)
            .set({ statename: BUY_STATES.PROVIDER_APPROVE_SALE })
            .where(eq(orders.id, orderId));
          for (let k = 0; k < after; k++, day++)
            await applyMarkdownDay(db, addDaysISO(base, day + 1));
          await db.update(orders).set({ statename: "complete" }).where(eq(orders.id, orderId));
          for (let k = 0; k < after; k++, day++)
            await applyMarkdownDay(db, addDaysISO(base, day + 1));

          const now = (await priceOf(f.listing.id)).priceCents;
          expect(now).toBeLessThanOrEqual(shown);
          const [again] = await getDraftOrders(db, buyer.retailer.id, [orderId]);
          expect(again.goodsCents).toBe(review.goodsCents);
          expect(again.lines[0]).toMatchObject({ unitPriceCents: shown });
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe("suggested schedule", () => {
  it("from 20 paid purchases of the brand and category: their median days to sell; none below 20", async () => {
    const f = await listingAt40();
    const buyer = await createRetailer(db, { payout: true });
    await db
      .update(listings)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(listings.id, f.listing.id));
    const sell = async (daysAfter: number) => {
      const o = await createDraftOrder(db, {
        providerId: f.seller.retailer.id,
        receiverId: buyer.retailer.id,
        brandId: f.brand.id,
        lines: [listingLine(f, { S: 1 })],
      });
      await db
        .update(orders)
        .set({
          statename: "complete",
          capturedCents: 4000,
          createdAt: new Date(Date.now() - (40 - daysAfter) * 86_400_000),
        })
        .where(eq(orders.id, o.orderId));
    };
    for (let i = 0; i < 19; i++) await sell(28);
    expect(await daysToSell(db, f.listing.id)).toMatchObject({ sales: 19 });
    expect(suggestedTerms(28, 19)).toBeNull();
    await sell(28);
    const figures = await daysToSell(db, f.listing.id);
    expect(figures.sales).toBe(20);
    expect(Math.round(figures.medianDays!)).toBe(28);
    expect(suggestedTerms(figures.medianDays!, figures.sales)).toMatchObject({ everyDays: 7 });
  });
});
