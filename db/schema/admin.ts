import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/** A sales rep and the states of their territory (two-letter codes); reports group retailers by those states. */
export const salesReps = pgTable("sales_reps", {
  id: serial("id").primaryKey(),
  territoryName: text("territory_name").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  states: text("states")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row of a bulk retailer upload as parsed (domain/retailer-upload UploadRow) with its problems. */
export type RetailerUploadRowJson = {
  line: number;
  values: Record<string, string>;
  problems: string[];
  note?: string;
};
/** What Submit did with each row. */
export type RetailerUploadResultJson = {
  line: number;
  outcome: "created" | "skipped" | "failed";
  reason: string;
  retailerId?: number;
};

/**
 * A bulk retailer upload (Upload → Preview → Submit → Summary): the parsed rows are kept between the preview
 * and the submit, so the file is read once; `results` is the summary of the last submit.
 */
export const retailerUploads = pgTable(
  "retailer_uploads",
  {
    id: serial("id").primaryKey(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    rows: jsonb("rows").$type<RetailerUploadRowJson[]>().notNull(),
    /** previewed | submitted */
    status: text("status").notNull().default("previewed"),
    results: jsonb("results").$type<RetailerUploadResultJson[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
  },
  (t) => [index("retailer_uploads_created_idx").on(t.createdAt)],
);
