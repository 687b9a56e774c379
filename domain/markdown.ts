/**
 * Markdown schedules (docs/product/markdowns.md): a sell listing's price that steps down on a schedule until
 * its floor. Pure rules in integer cents and local calendar dates (YYYY-MM-DD in the marketplace's zone), no
 * clock: the daily run (workflows/markdown) passes its day in. The database's one-statement daily update
 * (db/queries/markdowns.ts applyMarkdownDaySql) does what `takeStep` does; tests/db/markdowns.test.ts checks
 * the two agree.
 */
import { z } from "zod";
import { formatCents, percentOf, type Cents } from "./money";

export const MARKDOWN_LIMITS = Object.freeze({
  stepPercentMax: 90,
  everyDaysMax: 365,
  floorPercentMax: 99,
});

export type MarkdownStatus = "active" | "paused" | "floor" | "ended" | "cancelled";

/** A schedule still stepping (or able to, once resumed). */
export const OPEN_MARKDOWN_STATUSES: readonly MarkdownStatus[] = ["active", "paused"];

export type StepKind = "percent" | "amount";
export type FloorKind = "price" | "percent";

/** What the seller sets (the form's values, kept to show them again). */
export interface MarkdownTerms {
  stepKind: StepKind;
  /** A whole percent of the catalogue price (percent), or cents (amount). */
  stepValue: number;
  everyDays: number;
  floorKind: FloorKind;
  /** Cents (price), or a whole percent of the catalogue price (percent). */
  floorValue: number;
  /** The last day a step may be taken (YYYY-MM-DD), or null. */
  endDate: string | null;
}

/** A schedule as stored: the terms, resolved to cents when set, and where it stands. */
export interface MarkdownSchedule extends MarkdownTerms {
  stepCents: Cents;
  floorCents: Cents;
  status: MarkdownStatus;
  /** The day of the next step (YYYY-MM-DD). */
  nextStepDate: string;
}

export const MARKDOWN_MESSAGES = {
  stepRequired: "Enter a step: a whole percent from 1 to 90, or an amount.",
  stepPercent: "A percent step is a whole number from 1 to 90.",
  stepAmount: "A step amount must be more than $0.00 and less than the catalogue price.",
  everyDays: "Enter how many days between steps: a whole number from 1 to 365.",
  floorRequired: "Enter a floor: a price, or a whole percent of the catalogue price.",
  floorPercent: "A percent floor is a whole number from 1 to 99.",
  floorAbovePrice: "The floor must be below the current price.",
  floorZero: "The floor must be more than $0.00.",
  endDate: "The end date must be today or later.",
  notSellListing: "Only a sell listing can have a markdown schedule.",
  noSchedule: "This listing has no markdown schedule.",
  notPaused: "The markdown schedule is not paused.",
  notActive: "The markdown schedule is not running.",
  saved: "Markdown schedule saved.",
  paused: "Markdown schedule paused.",
  resumed: "Markdown schedule resumed.",
  cancelled: "Markdown schedule cancelled: the listing is back at its catalogue price.",
  cell: 'A markdown is written step/days/floor, with an optional end date: "10%/7/60%" or "$2.50/7/$24.00/2026-12-31".',
} as const;

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(date: string): number {
  if (!ISO_DATE_RE.test(date))
    throw new RangeError(`not a date YYYY-MM-DD: ${JSON.stringify(date)}`);
  const [y, m, d] = date.split("-").map(Number);
  const n = Date.UTC(y, m - 1, d) / 86_400_000;
  if (new Date(n * 86_400_000).toISOString().slice(0, 10) !== date)
    throw new RangeError(`not a calendar date: ${date}`);
  return n;
}

/** The local date `days` calendar days after `date` (both YYYY-MM-DD). */
export function addDaysISO(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${days}`);
  return new Date((dayNumber(date) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** The cents one step takes: a percent of the catalogue price rounded half up, or the amount. */
export function stepCentsOf(catalogueCents: Cents, kind: StepKind, value: number): Cents {
  return kind === "percent" ? percentOf(catalogueCents, value) : value;
}

/** The floor in cents: the price, or a percent of the catalogue price rounded UP (never below the percent). */
export function floorCentsOf(catalogueCents: Cents, kind: FloorKind, value: number): Cents {
  if (kind === "price") return value;
  return Number((BigInt(catalogueCents) * BigInt(value) + 99n) / 100n);
}

/** The price after one step from `priceCents`: the step taken off, never below the floor. */
export function steppedPrice(priceCents: Cents, stepCents: Cents, floorCents: Cents): Cents {
  return Math.max(floorCents, priceCents - stepCents);
}

/** What the day's run does with one schedule (the listing not locked by an order in flight). */
export type DayOutcome =
  | { kind: "none" }
  | { kind: "end"; status: "ended" }
  | { kind: "step"; priceCents: Cents; nextStepDate: string; status: MarkdownStatus };

/**
 * The day's run for one schedule at `priceCents` on `day`: an end date passed ends it; an active schedule due
 * (its next step date on or before `day`) steps once, the next step `everyDays` after `day`; at the floor it
 * ends as "floor", and when the next step would fall after the end date it ends as "ended".
 */
export function takeStep(s: MarkdownSchedule, priceCents: Cents, day: string): DayOutcome {
  if (s.status !== "active" && s.status !== "paused") return { kind: "none" };
  if (s.endDate !== null && s.endDate < day) return { kind: "end", status: "ended" };
  if (s.status !== "active" || s.nextStepDate > day) return { kind: "none" };
  const next = steppedPrice(priceCents, s.stepCents, s.floorCents);
  const nextStepDate = addDaysISO(day, s.everyDays);
  const status: MarkdownStatus =
    next <= s.floorCents
      ? "floor"
      : s.endDate !== null && nextStepDate > s.endDate
        ? "ended"
        : "active";
  return { kind: "step", priceCents: next, nextStepDate, status };
}

/** Refusals of a schedule's terms against the listing's prices and today, by field (empty: acceptable). */
export function termsProblems(
  t: MarkdownTerms,
  ctx: { catalogueCents: Cents; currentCents: Cents; today: string },
): Partial<Record<"step" | "floor" | "endDate", string>> {
  const out: Partial<Record<"step" | "floor" | "endDate", string>> = {};
  if (t.stepKind === "amount" && (t.stepValue < 1 || t.stepValue >= ctx.catalogueCents))
    out.step = MARKDOWN_MESSAGES.stepAmount;
  const floor = floorCentsOf(ctx.catalogueCents, t.floorKind, t.floorValue);
  if (floor < 1) out.floor = MARKDOWN_MESSAGES.floorZero;
  else if (floor >= ctx.currentCents) out.floor = MARKDOWN_MESSAGES.floorAbovePrice;
  if (t.endDate !== null && t.endDate < ctx.today) out.endDate = MARKDOWN_MESSAGES.endDate;
  return out;
}

/** A new (or replaced) schedule set on `today`: its first step `everyDays` later. */
export function newSchedule(
  t: MarkdownTerms,
  catalogueCents: Cents,
  today: string,
): MarkdownSchedule {
  return {
    ...t,
    stepCents: stepCentsOf(catalogueCents, t.stepKind, t.stepValue),
    floorCents: floorCentsOf(catalogueCents, t.floorKind, t.floorValue),
    status: "active",
    nextStepDate: addDaysISO(today, t.everyDays),
  };
}

/** Resumed on `today`: the next step `everyDays` later. */
export function resumedNextStepDate(everyDays: number, today: string): string {
  return addDaysISO(today, everyDays);
}

/**
 * What a buyer sees ("Next price $x on <date>"): the next step's price and day, or null when none is coming
 * (not active, at the floor, or the step falls after the end date).
 */
export function nextPriceNotice(
  s: Pick<MarkdownSchedule, "status" | "stepCents" | "floorCents" | "nextStepDate" | "endDate">,
  priceCents: Cents,
): { priceCents: Cents; date: string; text: string } | null {
  if (s.status !== "active" || priceCents <= s.floorCents) return null;
  if (s.endDate !== null && s.nextStepDate > s.endDate) return null;
  const next = steppedPrice(priceCents, s.stepCents, s.floorCents);
  return {
    priceCents: next,
    date: s.nextStepDate,
    text: `Next price ${formatCents(next)} on ${s.nextStepDate}`,
  };
}

const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string({ required_error: message })
    .trim()
    .regex(/^[0-9]{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

const dollars = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .regex(/^\$?[0-9]{1,7}(\.[0-9]{1,2})?$/, message)
    .transform((v) => Math.round(Number(v.replace("$", "")) * 100));

/**
 * The schedule form (intent=markdown): the step as a percent or a dollar amount, every N days, the floor as a
 * dollar price or a percent, an optional end date. Checks against the listing's prices are termsProblems'.
 */
export const MarkdownFormSchema = z
  .object({
    intent: z.literal("markdown"),
    stepKind: z.enum(["percent", "amount"], { message: MARKDOWN_MESSAGES.stepRequired }),
    step: z.string({ required_error: MARKDOWN_MESSAGES.stepRequired }).trim().max(12),
    everyDays: wholeNumber(MARKDOWN_MESSAGES.everyDays, 1, MARKDOWN_LIMITS.everyDaysMax),
    floorKind: z.enum(["price", "percent"], { message: MARKDOWN_MESSAGES.floorRequired }),
    floor: z.string({ required_error: MARKDOWN_MESSAGES.floorRequired }).trim().max(12),
    endDate: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : null))
      .refine(
        (v) => v === null || (ISO_DATE_RE.test(v) && isCalendarDate(v)),
        MARKDOWN_MESSAGES.endDate,
      ),
  })
  .transform((v, ctx): MarkdownTerms => {
    const step =
      v.stepKind === "percent"
        ? wholeNumber(MARKDOWN_MESSAGES.stepPercent, 1, MARKDOWN_LIMITS.stepPercentMax).safeParse(
            v.step,
          )
        : dollars(MARKDOWN_MESSAGES.stepAmount).safeParse(v.step);
    const floor =
      v.floorKind === "percent"
        ? wholeNumber(MARKDOWN_MESSAGES.floorPercent, 1, MARKDOWN_LIMITS.floorPercentMax).safeParse(
            v.floor,
          )
        : dollars(MARKDOWN_MESSAGES.floorRequired).safeParse(v.floor);
    if (!step.success)
      ctx.addIssue({ code: "custom", path: ["step"], message: step.error.issues[0].message });
    if (!floor.success)
      ctx.addIssue({ code: "custom", path: ["floor"], message: floor.error.issues[0].message });
    if (!step.success || !floor.success) return z.NEVER;
    return {
      stepKind: v.stepKind,
      stepValue: step.data,
      everyDays: v.everyDays,
      floorKind: v.floorKind,
      floorValue: floor.data,
      endDate: v.endDate,
    };
  });

function isCalendarDate(v: string): boolean {
  try {
    dayNumber(v);
    return true;
  } catch {
    return false;
  }
}

/** Pause, resume or cancel (one form per button). */
export const MarkdownCommandSchema = z.object({
  intent: z.enum(["markdown-pause", "markdown-resume", "markdown-cancel"]),
});

/** Sales of a brand and category the suggestion needs (fewer: no suggestion). */
export const SUGGESTION_MIN_SALES = 20;

/**
 * A suggested schedule from the marketplace's median days to sell of the listing's brand and category: four
 * steps of 10% spread over that median (at least a day apart), floor at 60% of the catalogue price. Fewer
 * than SUGGESTION_MIN_SALES sales: none.
 */
export function suggestedTerms(medianDaysToSell: number, sales: number): MarkdownTerms | null {
  if (sales < SUGGESTION_MIN_SALES || !Number.isFinite(medianDaysToSell)) return null;
  return {
    stepKind: "percent",
    stepValue: 10,
    everyDays: Math.min(
      MARKDOWN_LIMITS.everyDaysMax,
      Math.max(1, Math.round(medianDaysToSell / 4)),
    ),
    floorKind: "percent",
    floorValue: 60,
    endDate: null,
  };
}

const CELL_RE =
  /^\s*(\$?\d{1,7}(?:\.\d{1,2})?%?)\s*\/\s*(\d{1,3})\s*(?:d|days?)?\s*\/\s*(\$?\d{1,7}(?:\.\d{1,2})?%?)\s*(?:\/\s*(\d{4}-\d{2}-\d{2}))?\s*$/i;

/**
 * A stock file's markdown cell (docs/product/markdowns.md, "Where a seller sets it"): step/days/floor[/end], a
 * percent with "%", else dollars: "10%/7/60%", "$2.50/7/$24.00/2026-12-31". The same checks as the form.
 */
export function parseMarkdownCell(
  text: string,
): { ok: true; terms: MarkdownTerms } | { ok: false; message: string } {
  const m = CELL_RE.exec(text);
  if (!m) return { ok: false, message: MARKDOWN_MESSAGES.cell };
  const percent = (v: string) => v.endsWith("%");
  const parsed = MarkdownFormSchema.safeParse({
    intent: "markdown",
    stepKind: percent(m[1]) ? "percent" : "amount",
    step: m[1].replace("%", ""),
    everyDays: m[2],
    floorKind: percent(m[3]) ? "percent" : "price",
    floor: m[3].replace("%", ""),
    endDate: m[4] ?? "",
  });
  return parsed.success
    ? { ok: true, terms: parsed.data }
    : { ok: false, message: parsed.error.issues[0].message };
}
