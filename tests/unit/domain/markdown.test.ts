/** Markdown schedules' rules (docs/product/markdowns.md; domain/markdown.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDateISO } from "../../../domain/business-days";
import {
  addDaysISO,
  floorCentsOf,
  MARKDOWN_MESSAGES,
  MarkdownFormSchema,
  newSchedule,
  nextPriceNotice,
  parseMarkdownCell,
  stepCentsOf,
  steppedPrice,
  suggestedTerms,
  takeStep,
  termsProblems,
  type MarkdownSchedule,
  type MarkdownTerms,
} from "../../../domain/markdown";

const TERMS: MarkdownTerms = {
  stepKind: "percent",
  stepValue: 10,
  everyDays: 7,
  floorKind: "percent",
  floorValue: 60,
  endDate: null,
};

describe("cents", () => {
  it.each([
    [4000, "percent", 10, 400],
    [1999, "percent", 10, 200],
    [1994, "percent", 10, 199],
    [4000, "amount", 250, 250],
  ] as const)("a step of %i at %s %i takes %i cents", (catalogue, kind, value, cents) => {
    expect(stepCentsOf(catalogue, kind, value)).toBe(cents);
  });

  it.each([
    [4000, "percent", 60, 2400],
    [1999, "percent", 60, 1200], // 1199.4 rounded up
    [1001, "percent", 50, 501],
    [4000, "price", 2500, 2500],
  ] as const)("a floor of %i at %s %i is %i cents", (catalogue, kind, value, cents) => {
    expect(floorCentsOf(catalogue, kind, value)).toBe(cents);
  });

  it("a step stops at the floor", () => {
    expect(steppedPrice(2600, 400, 2400)).toBe(2400);
    expect(steppedPrice(3600, 400, 2400)).toBe(3200);
  });
});

describe("the day's run", () => {
  const s = newSchedule(TERMS, 4000, "2026-03-01");

  it("the first step is every-days after the day it is set, in calendar days", () => {
    expect(s).toMatchObject({ stepCents: 400, floorCents: 2400, nextStepDate: "2026-03-08" });
    expect(addDaysISO("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDaysISO("2028-02-28", 1)).toBe("2028-02-29");
  });

  it.each<[string, Partial<MarkdownSchedule>, number, string, ReturnType<typeof takeStep>]>([
    ["not due yet", {}, 4000, "2026-03-07", { kind: "none" }],
    [
      "due: one step, the next a week later",
      {},
      4000,
      "2026-03-08",
      { kind: "step", priceCents: 3600, nextStepDate: "2026-03-15", status: "active" },
    ],
    [
      "late (an order in flight held it): one step, counted from the day taken",
      {},
      4000,
      "2026-03-10",
      { kind: "step", priceCents: 3600, nextStepDate: "2026-03-17", status: "active" },
    ],
    [
      "reaching the floor ends it",
      {},
      2700,
      "2026-03-08",
      { kind: "step", priceCents: 2400, nextStepDate: "2026-03-15", status: "floor" },
    ],
    [
      "a next step after the end date ends it",
      { endDate: "2026-03-12" },
      4000,
      "2026-03-08",
      { kind: "step", priceCents: 3600, nextStepDate: "2026-03-15", status: "ended" },
    ],
    [
      "a step on the end date itself is taken",
      { endDate: "2026-03-08" },
      4000,
      "2026-03-08",
      { kind: "step", priceCents: 3600, nextStepDate: "2026-03-15", status: "ended" },
    ],
    [
      "the end date passed: ended",
      { endDate: "2026-03-07" },
      4000,
      "2026-03-08",
      { kind: "end", status: "ended" },
    ],
    ["paused: no step", { status: "paused" }, 4000, "2026-03-08", { kind: "none" }],
    [
      "paused past the end date: ended",
      { status: "paused", endDate: "2026-03-01" },
      4000,
      "2026-03-08",
      { kind: "end", status: "ended" },
    ],
    ["cancelled: nothing", { status: "cancelled" }, 4000, "2026-03-08", { kind: "none" }],
    ["at the floor: nothing", { status: "floor" }, 2400, "2026-03-08", { kind: "none" }],
  ])("%s", (_, patch, price, day, outcome) => {
    expect(takeStep({ ...s, ...patch }, price, day)).toEqual(outcome);
  });

  it("a step at the start of the marketplace's day: 00:30 New York is the new day, 04:30 UTC", () => {
    const day = localDateISO("2026-03-08T05:30:00Z", "America/New_York");
    expect(day).toBe("2026-03-08");
    expect(localDateISO("2026-03-08T04:30:00Z", "America/New_York")).toBe("2026-03-07");
  });
});

describe("refusals", () => {
  const ctx = { catalogueCents: 4000, currentCents: 4000, today: "2026-03-01" };
  it.each<[string, Partial<MarkdownTerms>, Partial<Record<"step" | "floor" | "endDate", string>>]>([
    ["acceptable", {}, {}],
    [
      "a floor above the price",
      { floorKind: "price", floorValue: 4500 },
      { floor: MARKDOWN_MESSAGES.floorAbovePrice },
    ],
    [
      "a floor at the price",
      { floorKind: "price", floorValue: 4000 },
      { floor: MARKDOWN_MESSAGES.floorAbovePrice },
    ],
    ["a zero floor", { floorKind: "price", floorValue: 0 }, { floor: MARKDOWN_MESSAGES.floorZero }],
    [
      "a step of the whole price",
      { stepKind: "amount", stepValue: 4000 },
      { step: MARKDOWN_MESSAGES.stepAmount },
    ],
    ["an end date in the past", { endDate: "2026-02-28" }, { endDate: MARKDOWN_MESSAGES.endDate }],
  ])("%s", (_, patch, problems) => {
    expect(termsProblems({ ...TERMS, ...patch }, ctx)).toEqual(problems);
  });

  it("the form reads dollars and percents, and refuses what is not a number", () => {
    const ok = MarkdownFormSchema.safeParse({
      intent: "markdown",
      stepKind: "amount",
      step: "$2.50",
      everyDays: "7",
      floorKind: "price",
      floor: "25",
      endDate: "",
    });
    expect(ok.success && ok.data).toEqual({
      stepKind: "amount",
      stepValue: 250,
      everyDays: 7,
      floorKind: "price",
      floorValue: 2500,
      endDate: null,
    });
    const bad = MarkdownFormSchema.safeParse({
      intent: "markdown",
      stepKind: "percent",
      step: "95",
      everyDays: "0",
      floorKind: "percent",
      floor: "60",
      endDate: "2026-02-30",
    });
    expect(bad.success).toBe(false);
    const messages = bad.success ? [] : bad.error.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([MARKDOWN_MESSAGES.everyDays, MARKDOWN_MESSAGES.endDate]),
    );
  });
});

describe("what a buyer sees", () => {
  const s = newSchedule(TERMS, 4000, "2026-03-01");
  it.each<[string, Partial<MarkdownSchedule>, number, string | null]>([
    ["the next step", {}, 4000, "Next price $36.00 on 2026-03-08"],
    ["the last step lands on the floor", {}, 2600, "Next price $24.00 on 2026-03-08"],
    ["at the floor: nothing", {}, 2400, null],
    ["paused: nothing", { status: "paused" }, 4000, null],
    ["the next step after the end date: nothing", { endDate: "2026-03-07" }, 4000, null],
  ])("%s", (_, patch, price, text) => {
    expect(nextPriceNotice({ ...s, ...patch }, price)?.text ?? null).toBe(text);
  });
});

describe("suggested schedule", () => {
  it("none under 20 sales; else four 10% steps over the median days to sell", () => {
    expect(suggestedTerms(28, 19)).toBeNull();
    expect(suggestedTerms(28, 20)).toMatchObject({ stepValue: 10, everyDays: 7, floorValue: 60 });
    expect(suggestedTerms(1, 50)).toMatchObject({ everyDays: 1 });
  });
});

describe("properties", () => {
  const terms = fc.record({
    stepKind: fc.constantFrom<"percent" | "amount">("percent", "amount"),
    stepPct: fc.integer({ min: 1, max: 90 }),
    stepAmt: fc.integer({ min: 1, max: 100_000 }),
    everyDays: fc.integer({ min: 1, max: 30 }),
    floorKind: fc.constantFrom<"percent" | "price">("percent", "price"),
    floorPct: fc.integer({ min: 1, max: 99 }),
    floorPrice: fc.integer({ min: 1, max: 200_000 }),
    catalogue: fc.integer({ min: 2, max: 200_000 }),
    days: fc.integer({ min: 1, max: 400 }),
    skip: fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }),
  });

  it("day after day the price never rises and never goes below the floor", () => {
    fc.assert(
      fc.property(terms, (t) => {
        const catalogue = t.catalogue;
        const floorValue =
          t.floorKind === "percent" ? t.floorPct : Math.min(t.floorPrice, catalogue - 1);
        const stepValue = t.stepKind === "percent" ? t.stepPct : Math.min(t.stepAmt, catalogue - 1);
        let s = newSchedule(
          {
            stepKind: t.stepKind,
            stepValue,
            everyDays: t.everyDays,
            floorKind: t.floorKind,
            floorValue,
            endDate: null,
          },
          catalogue,
          "2026-01-01",
        );
        let price = catalogue;
        for (let d = 1; d <= t.days; d++) {
          if (t.skip[d - 1]) continue; // a day the listing was held by an order in flight
          const out = takeStep(s, price, addDaysISO("2026-01-01", d));
          if (out.kind === "step") {
            expect(out.priceCents).toBeLessThanOrEqual(price);
            expect(out.priceCents).toBeGreaterThanOrEqual(Math.min(s.floorCents, price));
            price = out.priceCents;
            s = { ...s, status: out.status, nextStepDate: out.nextStepDate };
          }
        }
        expect(price).toBeGreaterThanOrEqual(Math.min(s.floorCents, catalogue));
      }),
    );
  });
});

describe("a stock file's markdown cell", () => {
  it.each<[string, Partial<MarkdownTerms> | string]>([
    [
      "10%/7/60%",
      { stepKind: "percent", stepValue: 10, everyDays: 7, floorKind: "percent", floorValue: 60 },
    ],
    [
      "$2.50 / 7 days / $24.00 / 2026-12-31",
      {
        stepKind: "amount",
        stepValue: 250,
        floorKind: "price",
        floorValue: 2400,
        endDate: "2026-12-31",
      },
    ],
    ["10%/0/60%", MARKDOWN_MESSAGES.everyDays],
    ["95%/7/60%", MARKDOWN_MESSAGES.stepPercent],
    ["10% every week", MARKDOWN_MESSAGES.cell],
  ])("%s", (cell, expected) => {
    const r = parseMarkdownCell(cell);
    if (typeof expected === "string") expect(r).toEqual({ ok: false, message: expected });
    else expect(r.ok && r.terms).toMatchObject(expected);
  });
});
