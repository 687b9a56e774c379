import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./accounts";
import { orders } from "./orders";
import { retailers } from "./retailers";

/**
 * A message of an order's conversation (ADR 0027; docs/product/screens.md, "Messages on an order"): between the
 * order's two retailers (a purchase's, a swap's or an RMA's provider and receiver), or from staff (author_retailer_id
 * null, is_staff). Kept with the order (deleted with it). provider_seen / receiver_seen: whether that party has
 * opened the conversation since the message came (the author's own side is seen at once); an unseen message
 * raises that party's Alerts bell.
 */
export const orderMessages = pgTable(
  "order_messages",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    authorUserId: integer("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorRetailerId: integer("author_retailer_id").references(() => retailers.id),
    isStaff: boolean("is_staff").notNull().default(false),
    body: text("body").notNull(),
    providerSeen: boolean("provider_seen").notNull().default(false),
    receiverSeen: boolean("receiver_seen").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("order_messages_order_idx").on(t.orderId, t.id),
    index("order_messages_author_idx").on(t.authorUserId, t.createdAt),
    check("order_messages_body_length", sql`char_length(${t.body}) between 1 and 2000`),
  ],
);
