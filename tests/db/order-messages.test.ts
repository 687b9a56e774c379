/**
 * An order's conversation in Postgres (ADR 0027): each party's unseen messages (the bell), staff's message to
 * both, the per-user count behind the rate limit, the sender's own names, and the e-mail rule — at most one per
 * conversation and recipient an hour, also when two messages are posted at the same moment.
 */
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  markMessagesSeen,
  messagesPostedSince,
  postOrderMessage,
  retailerOwnNames,
  unseenConversations,
} from "../../db/queries/order-messages";
import { outboxEmails, type orders } from "../../db/schema";
import { MESSAGE_MAIL_WINDOW_MS } from "../../domain/order-messages";
import { createRetailer, createStaffUser, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { createOrderAt } from "../factories/orders";
import { useTestDb } from "./helpers";

const db = useTestDb(6);
const tok = uniqueToken().toUpperCase();
let order: typeof orders.$inferSelect;
let seller: { id: number; userId: number };
let buyer: { id: number; userId: number };
let staffUserId: number;

const mail = {
  windowMs: MESSAGE_MAIL_WINDOW_MS,
  fromLabel: "x",
  build: () => ({ subject: "s", text: "t" }),
};
const post = (authorUserId: number, authorRetailerId: number | null, body: string) =>
  postOrderMessage(db, { order, authorUserId, authorRetailerId, body }, mail);
const mailsTo = (retailerId: number) =>
  db
    .select()
    .from(outboxEmails)
    .where(
      and(
        eq(outboxEmails.kind, "order_message"),
        like(outboxEmails.dedupeKey, `order-message:${order.id}:${retailerId}:%`),
      ),
    );

beforeAll(async () => {
  const { products } = await createWorld(db, {
    brand: { name: `MsgDb ${tok}` },
    products: [{ sku: `MDB${tok}`, sizes: SIZE_RUNS.apparel }],
  });
  const prod = products[0];
  const s = await createRetailer(db, {
    storeName: `Seller Store ${tok}`,
    contact: { firstName: "Dana", lastName: `Whit${tok}` },
  });
  const b = await createRetailer(db, { storeName: `Buyer Store ${tok}` });
  seller = { id: s.retailer.id, userId: s.user!.id };
  buyer = { id: b.retailer.id, userId: b.user!.id };
  staffUserId = (
    await createStaffUser(db, { email: `msg-db-staff-${tok.toLowerCase()}@example.test` })
  ).id;
  order = (
    await createOrderAt(db, "provider_approve_sale", {
      providerId: seller.id,
      receiverId: buyer.id,
      lines: [{ variationId: prod.variations[0].id, sizes: { S: 1 } }],
    })
  ).order;
});

describe("order messages", () => {
  it("two messages posted at once mail the other party once; the author gets none", async () => {
    await Promise.all([
      post(buyer.userId, buyer.id, "first"),
      post(buyer.userId, buyer.id, "second"),
    ]);
    expect(await mailsTo(seller.id)).toHaveLength(1);
    expect(await mailsTo(buyer.id)).toHaveLength(0);
    expect(await messagesPostedSince(db, buyer.userId, new Date(Date.now() - 60_000))).toBe(2);
  });

  it("the unseen messages are the other party's until it opens the conversation", async () => {
    const forSeller = await unseenConversations(db, seller.id);
    expect(forSeller.items.find((c) => c.orderId === order.id)).toMatchObject({
      unseen: 2,
      counterpartyId: buyer.id,
    });
    expect(
      (await unseenConversations(db, buyer.id)).items.some((c) => c.orderId === order.id),
    ).toBe(false);
    await markMessagesSeen(db, order.id, "provider");
    expect(
      (await unseenConversations(db, seller.id)).items.some((c) => c.orderId === order.id),
    ).toBe(false);
  });

  it("staff's message is unseen by both and mails each party once within the hour", async () => {
    await post(staffUserId, null, "from staff");
    for (const r of [seller.id, buyer.id])
      expect((await unseenConversations(db, r)).items.some((c) => c.orderId === order.id)).toBe(
        true,
      );
    expect(await mailsTo(seller.id)).toHaveLength(1);
    expect(await mailsTo(buyer.id)).toHaveLength(1);
  });

  it("a sender's own names: store, business, street address, contacts' names and addresses", async () => {
    const names = await retailerOwnNames(db, seller.id);
    expect(names).toContain(`Seller Store ${tok}`);
    expect(names).toContain(`Dana Whit${tok}`);
    expect(names.length).toBeGreaterThanOrEqual(4);
  });
});
