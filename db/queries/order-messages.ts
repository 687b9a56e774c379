/**
 * An order's conversation (ADR 0027; docs/product/screens.md, "Messages on an order"): its messages, posting one
 * (with the other party's e-mail, at most one an hour per conversation), the sender's own names the page refuses,
 * the per-user rate count, and the unseen messages that raise a party's Alerts bell.
 */
import { and, asc, count, eq, gt, like, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { orderMessages, orders, outboxEmails, retailerContacts, retailers } from "../schema";
import { insertOutboxEmail } from "./outbox";
import { retailerNoticeAddress } from "./order-steps";

export type OrderMessage = {
  id: number;
  body: string;
  isStaff: boolean;
  authorRetailerId: number | null;
  createdAt: string;
};

/** A conversation's messages, oldest first (at most the last 500). */
export async function listOrderMessages(db: DbOrTx, orderId: number): Promise<OrderMessage[]> {
  const rows = await db
    .select({
      id: orderMessages.id,
      body: orderMessages.body,
      isStaff: orderMessages.isStaff,
      authorRetailerId: orderMessages.authorRetailerId,
      createdAt: orderMessages.createdAt,
    })
    .from(orderMessages)
    .where(eq(orderMessages.orderId, orderId))
    .orderBy(asc(orderMessages.id))
    .limit(500);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The party's messages are now seen: its bell for this conversation goes. */
export async function markMessagesSeen(
  db: DbOrTx,
  orderId: number,
  role: "provider" | "receiver",
): Promise<void> {
  const col = role === "provider" ? orderMessages.providerSeen : orderMessages.receiverSeen;
  await db
    .update(orderMessages)
    .set(role === "provider" ? { providerSeen: true } : { receiverSeen: true })
    .where(and(eq(orderMessages.orderId, orderId), eq(col, false)));
}

/** Messages this user posted since `since` (the per-user rate limit). */
export async function messagesPostedSince(
  db: DbOrTx,
  userId: number,
  since: Date,
): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(orderMessages)
    .where(and(eq(orderMessages.authorUserId, userId), gt(orderMessages.createdAt, since)));
  return r?.n ?? 0;
}

/**
 * What a retailer may not write in a message: its store and business names and street address, its contacts'
 * full names and street addresses.
 */
export async function retailerOwnNames(db: DbOrTx, retailerId: number): Promise<string[]> {
  const [r] = await db
    .select({
      storeName: retailers.storeName,
      businessName: retailers.businessName,
      address1: retailers.address1,
    })
    .from(retailers)
    .where(eq(retailers.id, retailerId));
  const contacts = await db
    .select({
      first: retailerContacts.firstName,
      last: retailerContacts.lastName,
      address1: retailerContacts.address1,
    })
    .from(retailerContacts)
    .where(eq(retailerContacts.retailerId, retailerId));
  const names = [
    r?.storeName,
    r?.businessName,
    r?.address1,
    ...contacts.flatMap((c) => [`${c.first} ${c.last}`.trim(), c.address1]),
  ];
  return [...new Set(names.filter((n): n is string => !!n && n.trim().length > 0))];
}

export type NewOrderMessage = {
  order: { id: number; externalId: string; providerId: number; receiverId: number };
  authorUserId: number;
  /** The author's retailer (a party of the order), or null for staff. */
  authorRetailerId: number | null;
  body: string;
};

/** What to e-mail a recipient (built by the caller: links need the app's origin). */
export type MessageMail = (recipientId: number, from: string) => { subject: string; text: string };

/**
 * Saves a message and queues the e-mail of each recipient (the other party; staff's: both) unless that
 * recipient already got one for this conversation within `mailWindowMs`. One transaction, the conversation
 * locked (two messages posted at once mail once).
 */
export async function postOrderMessage(
  db: Db,
  m: NewOrderMessage,
  mail: { build: MessageMail; windowMs: number; fromLabel: string },
): Promise<{ id: number; mailed: number[] }> {
  const { order } = m;
  const staff = m.authorRetailerId === null;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x6d5347}, ${order.id})`);
    const [row] = await tx
      .insert(orderMessages)
      .values({
        orderId: order.id,
        authorUserId: m.authorUserId,
        authorRetailerId: m.authorRetailerId,
        isStaff: staff,
        body: m.body,
        providerSeen: m.authorRetailerId === order.providerId,
        receiverSeen: m.authorRetailerId === order.receiverId,
      })
      .returning({ id: orderMessages.id });
    const recipients = [order.providerId, order.receiverId].filter((r) => r !== m.authorRetailerId);
    const mailed: number[] = [];
    for (const to of recipients) {
      const prefix = `order-message:${order.id}:${to}:`;
      const [recent] = await tx
        .select({ n: count() })
        .from(outboxEmails)
        .where(
          and(
            like(outboxEmails.dedupeKey, `${prefix}%`),
            gt(outboxEmails.createdAt, new Date(Date.now() - mail.windowMs)),
          ),
        );
      if ((recent?.n ?? 0) > 0) continue;
      const address = await retailerNoticeAddress(tx, to);
      if (!address) continue;
      const { subject, text } = mail.build(to, mail.fromLabel);
      await insertOutboxEmail(tx, {
        toEmail: address,
        subject,
        bodyText: text,
        kind: "order_message",
        dedupeKey: `${prefix}${row.id}`,
      });
      mailed.push(to);
    }
    return { id: row.id, mailed };
  });
}

export type UnseenConversation = {
  orderId: number;
  externalId: string;
  transactionType: number;
  counterpartyId: number;
  unseen: number;
};

/** How many of the retailer's conversations have messages it has not seen (the header's Alerts count). */
export async function unseenConversationCount(db: DbOrTx, retailerId: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(distinct ${orders.id})::int` })
    .from(orderMessages)
    .innerJoin(orders, eq(orders.id, orderMessages.orderId))
    .where(unseenBy(retailerId));
  return r?.n ?? 0;
}

/** Messages of the retailer's orders that it has not seen. */
function unseenBy(retailerId: number) {
  return or(
    and(eq(orders.providerId, retailerId), eq(orderMessages.providerSeen, false)),
    and(eq(orders.receiverId, retailerId), eq(orderMessages.receiverSeen, false)),
  );
}

/** The retailer's conversations with messages it has not seen (newest first): its Alerts bell for messages. */
export async function unseenConversations(
  db: DbOrTx,
  retailerId: number,
  limit = 20,
): Promise<{ total: number; items: UnseenConversation[] }> {
  const unseen = unseenBy(retailerId);
  const rows = await db
    .select({
      orderId: orders.id,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      providerId: orders.providerId,
      receiverId: orders.receiverId,
      unseen: count(),
      last: sql<number>`max(${orderMessages.id})`,
    })
    .from(orderMessages)
    .innerJoin(orders, eq(orders.id, orderMessages.orderId))
    .where(and(or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)), unseen))
    .groupBy(orders.id)
    .orderBy(sql`max(${orderMessages.id}) desc`);
  const items = rows.slice(0, limit).map((r) => ({
    orderId: r.orderId,
    externalId: r.externalId,
    transactionType: r.transactionType,
    counterpartyId: r.providerId === retailerId ? r.receiverId : r.providerId,
    unseen: r.unseen,
  }));
  return { total: rows.length, items };
}
