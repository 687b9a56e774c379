/**
 * /transaction/:ttype/:id's server half: the order as its viewer sees it (opening it marks the other party's
 * updates seen), and one function per intent of a purchase's action panel. Each sends one command to the
 * order's workflow (temporal.server.ts sendOrderCommand); a refused command shows the workflow's message
 * with a 4xx (docs/product/orders.md, docs/product/screens.md "Order detail"). A swap's intents are
 * swap.server.ts handleSwapAction's. Every answer is a Conform reply (DetailActionData): a form's errors from
 * submission.reply(), a refusal's message under its field or the form's, a success with what to show next.
 */
import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import type { UpdateDefinition } from "@temporalio/common";
import { z } from "zod";
import { markOrdersSeen } from "../../db/queries/order-seen";
import { storeApprovalsFor } from "../../db/queries/team";
import { getOrderDetail, type OrderDetail } from "../../db/queries/order-views/order-detail";
import { UPDATE_YOUR_LISTINGS } from "../../domain/messages";
import { checkModification } from "../../domain/order-money";
import { actionPanelFor, type Role } from "../../domain/states";
import { TEAM_MSG } from "../../domain/teams";
import {
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  BUY_REDIRECTS,
  cancelShipmentUpdate,
  completeCheckoutUpdate,
  declineCheckoutUpdate,
  declineModifiedPurchaseUpdate,
  declineSaleUpdate,
  modifySaleUpdate,
  ordersTabFor,
  storeApprovePurchaseUpdate,
  storeDeclinePurchaseUpdate,
  WRONG_PARTY_MESSAGES,
  type BuyCommandResult,
  type StoreDecisionCommand,
} from "../../workflows/buy/contract";
import {
  CancelShipmentSchema,
  DeclineCheckoutSchema,
  DeclineModifiedSchema,
  DeclineSaleSchema,
  parseUnitInputs,
} from "~/components/orders/schemas";
import type { DetailActionData } from "~/components/orders/BuyPanels";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { paymentMethodFromForm } from "~/utils/card-form.server";
import { rmaOffer } from "~/utils/rma.server";
import { handleSwapAction, swapPanelData } from "~/utils/swap.server";
import { storeApproveSwapUpdate, storeDeclineSwapUpdate } from "../../workflows/swap/contract";
import { sendOrderCommand, type CommandOutcome } from "~/utils/temporal.server";

type Viewer = {
  retailerId: number | null;
  isStaff: boolean;
  userId?: number;
  mayApprove?: boolean;
};

export function notFound(): never {
  throw new Response("Not found", { status: 404 });
}

/** The order of the URL as `viewer` may see it, else a 404. An RMA (an order of type 3) has its own page (/rma/:id). */
export async function loadOrder(
  params: LoaderFunctionArgs["params"],
  viewer: Viewer,
): Promise<OrderDetail> {
  const ttype = params.ttype;
  const idRaw = params.id ?? "";
  if ((ttype !== "buy" && ttype !== "swap") || !/^\d{1,9}$/.test(idRaw)) notFound();
  const order = await getOrderDetail(db, Number(idRaw), viewer);
  if (!order || order.ttype !== ttype || order.transactionType === 3) notFound();
  return order;
}

/** The page: the order, its action panel (by state name), a swap's terms, the RMA offer and both ratings. */
export async function orderDetailPage(params: LoaderFunctionArgs["params"], viewer: Viewer) {
  const order = await loadOrder(params, viewer);
  if (order.role && !viewer.isStaff) await markOrdersSeen(db, viewer.retailerId!, [order.id]);
  const { canRma, myRma } = await rmaOffer(order, viewer.retailerId);
  const myRating = order.role
    ? (order.ratings.find((r) => r.raterId === viewer.retailerId) ?? null)
    : null;
  const otherRating = order.role
    ? (order.ratings.find((r) => r.raterId !== viewer.retailerId) ?? null)
    : null;
  return {
    order,
    swap: order.ttype === "swap" ? await swapPanelData(order) : null,
    panel: actionPanelFor(order.ttype, order.statename),
    viewerIsStaff: viewer.isStaff,
    storeDecision: storeDecisionOf(order, viewer),
    canRma,
    myRma,
    myRating,
    otherRating,
    now: Date.now(),
  };
}

/**
 * What the buyer's store's person may do on a purchase waiting for its store (docs/product/teams.md, "Limits and
 * approval"): decide (an approver or the owner), or not, because it placed the order itself or has no such role.
 */
export type StoreDecision = "decide" | "own_order" | "not_allowed";
function storeDecisionOf(order: OrderDetail, viewer: Viewer): StoreDecision | null {
  if (
    order.role !== "receiver" ||
    actionPanelFor(order.ttype, order.statename) !== "store-approval"
  )
    return null;
  if (!viewer.mayApprove) return "not_allowed";
  return order.placedByUserId !== null && order.placedByUserId === viewer.userId
    ? "own_order"
    : "decide";
}

/** One click on the order page: the order (the viewer a party of it), the form as read, who clicked. */
export type OrderIntent = {
  order: OrderDetail;
  form: FormData;
  intent: string;
  actor: number;
  /** The person who clicked, and whether its roles let it approve for its store. */
  user?: { id: number; mayApprove: boolean };
};

/**
 * A refusal as a Conform reply: the message under the fields it is about (a card's), else as the form's. The
 * page shows the first one above the panel.
 */
export function fail(intent: string, status: number, errors: string | Record<string, string>) {
  const error =
    typeof errors === "string"
      ? { "": [errors] }
      : Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, [message]]));
  return data<DetailActionData>({ status: "error", error, command: intent }, { status });
}

/** What a command did, as the page shows it: a message, a question (card, confirmation) or a delayed redirect. */
const done = (intent: string, answer: Omit<DetailActionData, "status" | "command">) =>
  data<DetailActionData>({ status: "success", command: intent, ...answer });

/** A refused command's message: under the card number when the card was declined. */
const refusalOf = (out: { code: string; message: string }) =>
  out.code === "card_declined" ? { card_number: out.message } : out.message;

/** A purchase command's answer as the page shows it: a message, a question (card, confirmation) or a redirect. */
function fromOutcome(
  c: OrderIntent,
  out: CommandOutcome<BuyCommandResult>,
  resend?: Record<string, string>,
) {
  const { intent } = c;
  if (!out.ok) return fail(intent, out.status, refusalOf(out));
  const r = out.result;
  if (r.status === "need_payment_method")
    return done(intent, { need: "payment_method", message: r.message, resend });
  if (r.status === "need_confirm_decline_others")
    return done(intent, { need: "confirm_decline_others", message: r.message, resend });
  if (r.redirectTo === BUY_REDIRECTS.activeListings) {
    // The seller goes to its active listings with an 'update your listings' message after about 2 s.
    return done(intent, {
      message: r.message ?? UPDATE_YOUR_LISTINGS,
      redirectTo: r.redirectTo,
      delayMs: 2000,
    });
  }
  if (r.redirectTo) throw redirect(ordersTabFor(c.order.role, r.redirectTo), 303);
  return done(intent, { message: r.message });
}

const send = <A>(
  c: OrderIntent,
  def: UpdateDefinition<BuyCommandResult, [A]>,
  arg: A,
  resend?: Record<string, string>,
) => sendOrderCommand("buy", c.order, def, arg).then((out) => fromOutcome(c, out, resend));

/** The party this intent belongs to, else its 403. */
function wrongParty(c: OrderIntent, role: Role) {
  return c.order.role === role ? null : fail(c.intent, 403, WRONG_PARTY_MESSAGES[role]);
}

/** The card of the form, or the card form's errors. */
function cardOf(c: OrderIntent) {
  const card = paymentMethodFromForm(c.form);
  return card.ok
    ? card
    : fail(c.intent, 400, Object.keys(card.errors).length ? card.errors : "Please check the card.");
}

/** The unit fields the seller's response carries (kept through a card step or a confirmation). */
function unitFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (k.startsWith("units.")) out[k] = String(v);
  return out;
}

/** The seller's OK ("1") to decline the other orders its units would take; anything else is no OK. */
const DeclineOthersSchema = z.object({
  confirm_decline_others: z.literal("1").optional().catch(undefined),
});
function confirmed(c: OrderIntent): boolean {
  const submission = parseSubmission(c.form, { schema: DeclineOthersSchema });
  return submission.status === "success" && submission.value.confirm_decline_others === "1";
}

/** A decline or a cancellation: its party, a reason from its list, one command. */
async function withReason<A extends { actorRetailerId: number; reason?: number }>(
  c: OrderIntent,
  role: Role,
  schema: z.ZodType<{ reason: number }, z.ZodTypeDef, unknown>,
  def: UpdateDefinition<BuyCommandResult, [A]>,
) {
  const refused = wrongParty(c, role);
  if (refused) return refused;
  const submission = parseSubmission(c.form, { schema });
  if (submission.status !== "success")
    return data<DetailActionData>({ ...submission.reply(), command: c.intent }, { status: 400 });
  return send(c, def, { actorRetailerId: c.actor, reason: submission.value.reason } as A);
}

// ---------------------------------------------------------------------------------------------------------
// The intents.

/** The buyer pays for an order made for its request (or started without a card). */
export async function completeCheckout(c: OrderIntent) {
  const refused = wrongParty(c, "receiver");
  if (refused) return refused;
  const card = cardOf(c);
  if (!("paymentMethod" in card)) return card;
  // Over the person's limit (docs/product/teams.md): a purchase waits for its store; an order made for a
  // request is captured at once, so it is refused here.
  const [need] = c.user
    ? await storeApprovalsFor(db, c.user.id, [c.order.amounts.receiverGrandTotalCents], {
        timeZone: getEnv().MARKETPLACE_TZ,
      })
    : [null];
  if (need && c.order.requestId !== null)
    return fail(c.intent, 403, TEAM_MSG.overLimitForRequest(need.limitCents));
  return send(c, completeCheckoutUpdate, {
    actorRetailerId: c.actor,
    paymentMethod: card.paymentMethod,
    ...(need && c.user ? { storeApproval: { ...need, placedByUserId: c.user.id } } : {}),
  });
}

export const declineCheckout = (c: OrderIntent) =>
  withReason(c, "receiver", DeclineCheckoutSchema, declineCheckoutUpdate);
export const declineSale = (c: OrderIntent) =>
  withReason(c, "provider", DeclineSaleSchema, declineSaleUpdate);
export const declineModified = (c: OrderIntent) =>
  withReason(c, "receiver", DeclineModifiedSchema, declineModifiedPurchaseUpdate);
export const cancelShipment = (c: OrderIntent) =>
  withReason(c, "provider", CancelShipmentSchema, cancelShipmentUpdate);

/**
 * The buyer's store approves or declines a purchase (or a swap) over its placer's limit: an approver, not the
 * placer (docs/product/teams.md, "Limits and approval").
 */
async function storeDecide(c: OrderIntent, approve: boolean) {
  const refused = wrongParty(c, "receiver");
  if (refused) return refused;
  const decision = storeDecisionOf(c.order, {
    retailerId: c.actor,
    isStaff: false,
    userId: c.user?.id,
    mayApprove: c.user?.mayApprove,
  });
  if (decision === "not_allowed" || !c.user)
    return fail(c.intent, 403, TEAM_MSG.notAllowed("approve"));
  if (decision === "own_order") return fail(c.intent, 403, TEAM_MSG.ownOrder);
  const cmd: StoreDecisionCommand = { actorRetailerId: c.actor, actorUserId: c.user.id };
  if (c.order.ttype === "buy")
    return send(c, approve ? storeApprovePurchaseUpdate : storeDeclinePurchaseUpdate, cmd);
  const out = await sendOrderCommand(
    "swap",
    c.order,
    approve ? storeApproveSwapUpdate : storeDeclineSwapUpdate,
    cmd,
  );
  if (!out.ok) return fail(c.intent, out.status, out.message);
  return done(c.intent, { message: out.result.message });
}
export const storeApprove = (c: OrderIntent) => storeDecide(c, true);
export const storeDecline = (c: OrderIntent) => storeDecide(c, false);

export async function approveModified(c: OrderIntent) {
  return (
    wrongParty(c, "receiver") ??
    send(c, approveModifiedPurchaseUpdate, { actorRetailerId: c.actor })
  );
}

const MORE_THAN_REQUESTED =
  "You cannot select more units than what the retailer has requested to purchase.";

/**
 * The seller's answer: the units it can ship per line and size (never more than requested, no size that was
 * not asked for: domain/order-money checkModification). Unchanged units approve the sale; fewer are
 * "Submit Response", a modification the buyer approves or declines.
 */
export async function respond(c: OrderIntent) {
  const refused = wrongParty(c, "provider");
  if (refused) return refused;
  const parsed = parseUnitInputs(c.form);
  if (!parsed.ok) return fail(c.intent, 400, "Choose units of this order only, in whole numbers.");
  const goods = c.order.lines.filter((l) => l.type === "goods");
  const lines = goods.map((l) => {
    const given = parsed.units.get(l.contributionId) ?? {};
    const sizes: Record<string, number> = {};
    for (const [size, requested] of Object.entries(l.sizes))
      sizes[size] = Object.hasOwn(given, size) ? given[size] : requested;
    return {
      listingId: l.listingId,
      variationId: l.variationId,
      sizes,
      asked: { ...given, ...sizes },
    };
  });
  const check = checkModification(
    goods,
    lines.map((l) => ({ listingId: l.listingId, variationId: l.variationId, sizes: l.asked })),
  );
  if (!check.ok && check.code === "total_too_high") return fail(c.intent, 400, MORE_THAN_REQUESTED);
  const resend = { intent: c.intent, ...unitFields(c.form) };
  const confirmDeclineOthers = confirmed(c);
  // No units left is the workflow's to refuse ("decline the sale instead").
  if (check.ok && !check.changed)
    return send(c, approveSaleUpdate, { actorRetailerId: c.actor, confirmDeclineOthers }, resend);
  const modified = lines.map(({ listingId, variationId, sizes }) => ({
    listingId,
    variationId,
    sizes,
  }));
  return send(
    c,
    modifySaleUpdate,
    { actorRetailerId: c.actor, lines: modified, confirmDeclineOthers },
    resend,
  );
}

/**
 * The seller's card, asked for by an approval or modification: that response continues in the workflow; if it
 * then needs the decline-others confirmation, the confirmed resend is that same response (its units carried
 * through the card step).
 */
export async function addCard(c: OrderIntent) {
  const refused = wrongParty(c, "provider");
  if (refused) return refused;
  const card = cardOf(c);
  if (!("paymentMethod" in card)) return card;
  const resend = { intent: "respond", ...unitFields(c.form) };
  return send(
    c,
    addPaymentMethodUpdate,
    {
      actorRetailerId: c.actor,
      paymentMethod: card.paymentMethod,
      confirmDeclineOthers: confirmed(c),
    },
    resend,
  );
}

/** A swap's panel: its intents are the swap's (swap.server.ts). */
export async function swapIntent(c: OrderIntent) {
  const out = await handleSwapAction(c.order, c.form, c.actor);
  if (!out.ok) return fail(c.intent, out.status, refusalOf(out));
  if (out.result.redirectTo) throw redirect(out.result.redirectTo, 303);
  return done(c.intent, { message: out.result.message });
}
