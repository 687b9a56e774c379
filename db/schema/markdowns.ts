import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { listings } from "./marketplace";

/**
 * A sell listing's markdown schedule (docs/product/markdowns.md; domain/markdown.ts MarkdownSchedule): the
 * seller's terms as entered (step_kind/step_value, floor_kind/floor_value), resolved to cents when set
 * (step_cents, floor_cents), and where it stands (status, next_step_date, a local date in the marketplace's
 * zone). One per listing. The daily run (db/queries/markdowns.ts applyMarkdownDaySql) reads the due ones
 * through markdowns_due_idx.
 */
export const listingMarkdowns = pgTable(
  "listing_markdowns",
  {
    listingId: integer("listing_id")
      .primaryKey()
      .references(() => listings.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("active"),
    stepKind: text("step_kind").notNull(),
    stepValue: integer("step_value").notNull(),
    stepCents: integer("step_cents").notNull(),
    everyDays: integer("every_days").notNull(),
    floorKind: text("floor_kind").notNull(),
    floorValue: integer("floor_value").notNull(),
    floorCents: integer("floor_cents").notNull(),
    endDate: date("end_date", { mode: "string" }),
    nextStepDate: date("next_step_date", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("markdowns_due_idx")
      .on(t.nextStepDate)
      .where(sql`${t.status} = 'active'`),
    index("markdowns_end_idx")
      .on(t.endDate)
      .where(sql`${t.status} IN ('active', 'paused') AND ${t.endDate} IS NOT NULL`),
    check(
      "listing_markdowns_status",
      sql`${t.status} IN ('active', 'paused', 'floor', 'ended', 'cancelled')`,
    ),
    check(
      "listing_markdowns_amounts",
      sql`${t.stepCents} > 0 AND ${t.floorCents} > 0 AND ${t.everyDays} BETWEEN 1 AND 365`,
    ),
  ],
);

/** A listing's markdown history: each step taken (the day, the price before and after). */
export const listingMarkdownSteps = pgTable(
  "listing_markdown_steps",
  {
    id: serial("id").primaryKey(),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    fromCents: integer("from_cents").notNull(),
    toCents: integer("to_cents").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("markdown_steps_listing_day_idx").on(t.listingId, t.day),
    index("markdown_steps_day_idx").on(t.day, t.id),
  ],
);
