import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { retailers } from "./retailers";

/**
 * A retailer's API token (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"): only its
 * SHA-256 is kept (the token is shown once), scoped to one use of one retailer ("stock-import").
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    scope: text("scope").notNull().default("stock-import"),
    /** hex SHA-256 of the token. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The token's first characters, shown to tell tokens apart. */
    prefix: text("prefix").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_retailer_idx").on(t.retailerId)],
);
