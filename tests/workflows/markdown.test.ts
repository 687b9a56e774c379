/**
 * The daily markdown run (workflows/markdown; docs/decisions/0055-markdowns-by-one-daily-update.md) on the
 * time-skipping server with its real activities (Postgres). The schedule is the run's timer: each test day the
 * server's clock is moved on a day (shared.env.sleep) and the run started as the schedule starts it (no day
 * given: the local date of its start in the marketplace's zone). Every timer path of docs/product/markdowns.md:
 * a step, the floor, an end date, a paused schedule, a listing held by a purchase in flight (it steps on the
 * first run after). The first day's history is recorded (tests/histories/markdown-day-run.json) and replays.
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createMarkdownActivities } from "../../activities/markdown";
import { commandMarkdown, setMarkdown } from "../../db/queries/markdowns";
import { listingMarkdowns, listings, orders, productVariations } from "../../db/schema";
import { DAY_MS, localDateISO } from "../../domain/business-days";
import { addDaysISO, type MarkdownTerms } from "../../domain/markdown";
import {
  MARKDOWN_DAY_WORKFLOW_TYPE,
  type MarkdownDayResult,
} from "../../workflows/markdown/contract";
import { createDraftOrder, createSellerWithListing, listingLine } from "../db/buy-fixtures";
import { createRetailer } from "../factories";
import { useTestDb } from "../db/helpers";
import { useSharedFakeWorker } from "./fakes/shared-worker";

const TZ = "America/New_York";
const db = useTestDb(4);
const shared = useSharedFakeWorker("markdown", () => ({
  activities: createMarkdownActivities({ db }),
}));

const TERMS: MarkdownTerms = {
  stepKind: "percent",
  stepValue: 10,
  everyDays: 1,
  floorKind: "percent",
  floorValue: 60,
  endDate: null,
};

/** A seller's listing at $40.00 with a schedule set on `today`. */
async function scheduled(today: string, terms: Partial<MarkdownTerms>) {
  const f = await createSellerWithListing(db);
  await db
    .update(productVariations)
    .set({ priceCents: 4000 })
    .where(eq(productVariations.id, f.variation.id));
  const r = await setMarkdown(db, {
    listingId: f.listing.id,
    retailerId: f.seller.retailer.id,
    terms: { ...TERMS, ...terms },
    today,
  });
  expect(r.ok).toBe(true);
  return { ...f, priceCents: 4000 };
}

const priceOf = async (id: number) =>
  (await db.select({ p: listings.priceCents }).from(listings).where(eq(listings.id, id)))[0].p;
const statusOf = async (id: number) =>
  (
    await db
      .select({ s: listingMarkdowns.status })
      .from(listingMarkdowns)
      .where(eq(listingMarkdowns.listingId, id))
  )[0].s;

describe("markdown day run", () => {
  test("a step, the floor, an end date, a paused schedule and a purchase in flight, day by day", async () => {
    await shared.withFake({ activities: createMarkdownActivities({ db }) }, async () => {
      const env = shared.env;
      const today = localDateISO(await env.currentTimeMs(), TZ);
      const step = await scheduled(today, {});
      const floor = await scheduled(today, { stepValue: 30 });
      const ending = await scheduled(today, { endDate: addDaysISO(today, 1) });
      const paused = await scheduled(today, {});
      const held = await scheduled(today, {});
      await commandMarkdown(db, {
        listingId: paused.listing.id,
        retailerId: paused.seller.retailer.id,
        command: "pause",
        today,
      });
      const buyer = await createRetailer(db, { payout: true });
      const draft = await createDraftOrder(db, {
        providerId: held.seller.retailer.id,
        receiverId: buyer.retailer.id,
        lines: [listingLine(held, { S: 1 })],
      });

      const runDay = async (record?: string): Promise<MarkdownDayResult> => {
        await env.sleep(DAY_MS);
        const handle = await env.client.workflow.start(MARKDOWN_DAY_WORKFLOW_TYPE, {
          taskQueue: shared.taskQueue,
          workflowId: `markdown-day-test-${step.listing.id}-${await env.currentTimeMs()}`,
          args: [{ timeZone: TZ }],
        });
        const result = (await handle.result()) as MarkdownDayResult;
        if (record) await shared.keepHistory(handle, record);
        return result;
      };

      // Day 1: every running schedule steps once; the paused one and the held one do not.
      const day1 = await runDay("day-run");
      expect(day1.day).toBe(addDaysISO(today, 1));
      expect(day1.stepped).toBeGreaterThanOrEqual(3);
      expect(await priceOf(step.listing.id)).toBe(3600);
      expect(await priceOf(floor.listing.id)).toBe(2800);
      expect(await priceOf(ending.listing.id)).toBe(3600);
      expect(await statusOf(ending.listing.id)).toBe("ended");
      expect(await priceOf(paused.listing.id)).toBe(4000);
      expect(await priceOf(held.listing.id)).toBe(4000);

      // The purchase ends; day 2: the held listing steps now, the floor is reached, the ended one stays.
      await db.update(orders).set({ statename: "complete" }).where(eq(orders.id, draft.orderId));
      await runDay();
      expect(await priceOf(step.listing.id)).toBe(3200);
      expect(await priceOf(floor.listing.id)).toBe(2400);
      expect(await statusOf(floor.listing.id)).toBe("floor");
      expect(await priceOf(ending.listing.id)).toBe(3600);
      expect(await priceOf(held.listing.id)).toBe(3600);
      expect(await priceOf(paused.listing.id)).toBe(4000);

      // Day 3: the floor holds; the paused one, resumed on day 3, steps a day later.
      await commandMarkdown(db, {
        listingId: paused.listing.id,
        retailerId: paused.seller.retailer.id,
        command: "resume",
        today: addDaysISO(today, 2),
      });
      await runDay();
      expect(await priceOf(floor.listing.id)).toBe(2400);
      expect(await priceOf(paused.listing.id)).toBe(3600);
    });
  });

  shared.replayTests("the day's run", ["markdown-day-run.json"]);
});
