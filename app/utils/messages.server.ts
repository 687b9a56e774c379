/**
 * Messages on an order, the server half (ADR 0027; docs/product/screens.md, "Messages on an order"): who may
 * read and post in a conversation (its two retailers, and staff), the conversation as the viewer reads it
 * (every retailer as retailer-00{id}, staff's messages marked), and posting: parsed with Conform + Zod, refused
 * with the reason and a 4xx when it is empty, too long, too frequent or carries contact details.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  listOrderMessages,
  markMessagesSeen,
  messagesPostedSince,
  postOrderMessage,
  retailerOwnNames,
  unseenConversations,
} from "../../db/queries/order-messages";
import { orders } from "../../db/schema";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import {
  checkMessage,
  CONVERSATION_KINDS,
  conversationKind,
  conversationPagePath,
  MESSAGE_MAIL_WINDOW_MS,
  MESSAGE_MAX_LENGTH,
  MESSAGE_RATE_LIMIT,
  MESSAGE_RATE_LIMITED,
  MESSAGE_RATE_WINDOW_MS,
  MESSAGE_TOO_LONG,
  messageNoticeMail,
  MESSAGE_EMPTY,
} from "../../domain/order-messages";
import { readFormData, requireRetailer, requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";
import { absoluteUrl } from "~/utils/mail.server";

export type ConversationOrder = {
  id: number;
  externalId: string;
  transactionType: number;
  providerId: number;
  receiverId: number;
};
export type ConversationViewer = {
  userId: number;
  isStaff: boolean;
  retailerId: number | null;
  role: "provider" | "receiver" | null;
};

const notFound = (): never => {
  throw new Response("Not found", { status: 404 });
};

/** The order of /messages/:kind/:id and who asks: a party of it (its own retailer) or staff; anyone else 404. */
export async function conversationAccess(
  request: Request,
  params: LoaderFunctionArgs["params"],
): Promise<{ order: ConversationOrder; viewer: ConversationViewer }> {
  const kind = params.kind ?? "";
  const idRaw = params.id ?? "";
  if (!Object.hasOwn(CONVERSATION_KINDS, kind) || !/^\d{1,9}$/.test(idRaw)) notFound();
  const auth = await requireUser(request);
  const retailerId = auth.user.isStaff ? null : (await requireRetailer(request)).retailer.id;
  const [order] = await db
    .select({
      id: orders.id,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      providerId: orders.providerId,
      receiverId: orders.receiverId,
    })
    .from(orders)
    .where(eq(orders.id, Number(idRaw)));
  if (!order || conversationKind(order.transactionType) !== kind) notFound();
  const role =
    retailerId === order.providerId
      ? "provider"
      : retailerId === order.receiverId
        ? "receiver"
        : null;
  if (!auth.user.isStaff && !role) notFound();
  return { order, viewer: { userId: auth.user.id, isStaff: auth.user.isStaff, retailerId, role } };
}

export type ConversationMessage = {
  id: number;
  author: string;
  mine: boolean;
  isStaff: boolean;
  body: string;
  createdAt: string;
};
export type Conversation = {
  postTo: string;
  pagePath: string;
  messages: ConversationMessage[];
  maxLength: number;
};

/**
 * The conversation as `viewer` reads it; a party's unseen messages become seen (its bell for it goes). The
 * order pages call it with the order they show.
 */
export async function conversationFor(
  order: ConversationOrder,
  viewer: Omit<ConversationViewer, "userId">,
): Promise<Conversation> {
  if (viewer.role && !viewer.isStaff) await markMessagesSeen(db, order.id, viewer.role);
  const rows = await listOrderMessages(db, order.id);
  return {
    postTo: `/messages/${conversationKind(order.transactionType)}/${order.id}`,
    pagePath: conversationPagePath(order.transactionType, order.id),
    maxLength: MESSAGE_MAX_LENGTH,
    messages: rows.map((m) => {
      const mine =
        !m.isStaff && m.authorRetailerId !== null && m.authorRetailerId === viewer.retailerId;
      const author = m.isStaff
        ? "Staff"
        : mine
          ? "You"
          : anonymousRetailerLabel(m.authorRetailerId ?? 0);
      return { id: m.id, author, mine, isStaff: m.isStaff, body: m.body, createdAt: m.createdAt };
    }),
  };
}

/** The message form: its one field (an over-long or empty one is the field's message). */
export const MessageSchema = z.object({
  body: z
    .string({ required_error: MESSAGE_EMPTY })
    .trim()
    .min(1, MESSAGE_EMPTY)
    .max(MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG),
});

/** POST /messages/:kind/:id: a message in the conversation, or the reason it was not sent (4xx, nothing saved). */
export async function postMessage(request: Request, params: LoaderFunctionArgs["params"]) {
  const { order, viewer } = await conversationAccess(request, params);
  const submission = parseSubmission(await readFormData(request), { schema: MessageSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const body = submission.value.body;
  const recent = await messagesPostedSince(
    db,
    viewer.userId,
    new Date(Date.now() - MESSAGE_RATE_WINDOW_MS),
  );
  if (recent >= MESSAGE_RATE_LIMIT)
    return data(submission.reply({ fieldErrors: { body: [MESSAGE_RATE_LIMITED] } }), {
      status: 429,
    });
  const ownNames =
    viewer.isStaff || viewer.retailerId === null
      ? []
      : await retailerOwnNames(db, viewer.retailerId);
  const refusal = checkMessage(body, ownNames);
  if (refusal) return data(submission.reply({ fieldErrors: { body: [refusal] } }), { status: 400 });
  const authorRetailerId = viewer.isStaff ? null : viewer.retailerId;
  const link = absoluteUrl(conversationPagePath(order.transactionType, order.id));
  await postOrderMessage(
    db,
    { order, authorUserId: viewer.userId, authorRetailerId, body },
    {
      windowMs: MESSAGE_MAIL_WINDOW_MS,
      fromLabel: authorRetailerId === null ? "Staff" : anonymousRetailerLabel(authorRetailerId),
      build: (_to, from) => messageNoticeMail({ externalId: order.externalId, from, link }),
    },
  );
  return data(submission.reply({ resetForm: true }));
}

/** The retailer's conversations with unread messages, for its Alerts bell (/alerts). */
export async function messageAlerts(retailerId: number) {
  const { total, items } = await unseenConversations(db, retailerId);
  return {
    total,
    items: items.map((c) => ({
      orderId: c.orderId,
      externalId: c.externalId,
      path: conversationPagePath(c.transactionType, c.orderId),
      other: anonymousRetailerLabel(c.counterpartyId),
      unseen: c.unseen,
    })),
  };
}
