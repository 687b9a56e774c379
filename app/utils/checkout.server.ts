/**
 * Checkout's server side after the review (docs/decisions/0010-checkout-and-webhooks.md):
 *
 * - Buy: /checkout/pay?order=<id>... takes a card (the saved one, or a new one: the sandbox's test-card form
 *   by default, Stripe Elements when Stripe keys are set) and, per order: starts `buyOrderWorkflow` (by type
 *   name, id = buyWorkflowId(orderId), REJECT_DUPLICATE: a second submit attaches to the first run), takes
 *   the order out of the cart (it is an order now: Pending Orders, expiring after 24 h), then runs the
 *   `completeCheckout` update (pre-authorisation). A declined card answers "Sorry but this card was
 *   declined. Please try another." and the page stays; the next card is a new attempt of the same workflow.
 *   When every order is checked out: /buy?ref=checkoutComplete (checkoutAwaitingStoreApproval when one waits
 *   for an approver of the buyer's store: docs/product/teams.md).
 * - Sell (to a request): when the seller confirms the sell dialog, proceedFromCart records the offer as a
 *   draft and sendOffers starts its workflow with kind for_request (action 223); then /buy?ref=offerSent.
 * - The same pay page completes checkout of an order made for one's request (Pending Orders links here).
 */
import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type WorkflowHandle,
} from "@temporalio/client";
import {
  cartDraftOrderIds,
  detachOrdersFromCart,
  expireStaleDrafts,
  getDraftOrders,
  type CheckoutDraft,
  type DraftOrderView,
} from "../../db/queries/checkout";
import { getCardOnFile } from "../../db/queries/settings";
import { storeApprovalsFor } from "../../db/queries/team";
import { CARD_FORM_MESSAGES } from "../../domain/card-form";
import { BUY_STATES, isTerminalState } from "../../domain/states";
import { storeApprovalMessage, TEAM_MSG, type StoreApprovalNeed } from "../../domain/teams";
import {
  BUY_ERRORS,
  BUY_WORKFLOW_TYPE,
  buyCommandError,
  buyOrderInputFromDraft,
  completeCheckoutUpdate,
  orderViewQuery,
  ordersTabFor,
  type BuyCommandResult,
  type PaymentMethodInput,
  type CompleteCheckoutCommand,
} from "../../workflows/buy/contract";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import type { AuthContext, RetailerRow } from "./auth.server";
import { cartRetailer, readFormData } from "./auth.server";
import { db } from "./db.server";
import { errorsReply } from "./form.server";
import { cardFormData, type CardFormMode } from "./card.server";
import { paymentMethodOf, parseCardForm } from "./card-form.server";
import { getEnv, paymentsProvider } from "./env.server";
import {
  executeUpdateOnce,
  getTemporalClient,
  isTemporalUnavailable,
  isUpdateRetryable,
  startWorkflowOnce,
  withTimeout,
} from "./temporal.server";
import { rowIdOf } from "../../domain/ids";

/** How long a page waits for the workflow to answer the checkout before saying it is still processing. */
const UPDATE_WAIT_MS = 25_000;

export const CHECKOUT_MESSAGES = Object.freeze({
  unavailable: "We could not reach the payment service right now. Please try again in a moment.",
  processing:
    "We are still processing your payment. Your order will show under Pending Orders in a moment.",
  nothingToPay: "There is no order waiting for checkout.",
});

type BuyHandle = WorkflowHandle<typeof buyOrderWorkflow>;

// ---------------------------------------------------------------------------------------------------------
// Starting workflows.

export type StartOutcome =
  | { ok: true; handle: BuyHandle }
  | { ok: false; unavailable: boolean; message: string };

/** Starts an order's buy workflow (attaches to it when it already runs or ran: REJECT_DUPLICATE). */
export async function startOrderWorkflow(
  client: Client,
  draft: CheckoutDraft,
  extra: { sellInfo?: { reason: string; floorTime: string } | null } = {},
): Promise<BuyHandle> {
  const env = getEnv();
  const input = buyOrderInputFromDraft(draft, {
    sellInfo: extra.sellInfo ?? null,
    timeZone: env.MARKETPLACE_TZ,
  });
  return startWorkflowOnce<typeof buyOrderWorkflow>(client, BUY_WORKFLOW_TYPE, draft.workflowId, [
    input,
  ]);
}

/**
 * Starts the workflows of the given drafts, then takes the started ones out of the cart. Throws
 * TemporalUnavailableError-like errors only when nothing could be started.
 */
async function startAndDetach(
  retailerId: number,
  drafts: CheckoutDraft[],
  extra: { sellInfo?: { reason: string; floorTime: string } | null } = {},
): Promise<{ handles: Map<number, BuyHandle>; error: unknown }> {
  const handles = new Map<number, BuyHandle>();
  let error: unknown = null;
  try {
    const client = await getTemporalClient();
    for (const d of drafts) {
      handles.set(d.orderId, await startOrderWorkflow(client, d, extra));
    }
  } catch (err) {
    error = err;
  }
  await detachOrdersFromCart(db, retailerId, [...handles.keys()]);
  return { handles, error };
}

/**
 * Sell cart confirmed (the sell dialog): the offers proceedFromCart recorded are sent, one workflow per
 * request (kind for_request: the offer is the seller's approval, action 223; the requestor checks out).
 */
export async function sendOffers(
  retailer: RetailerRow,
  drafts: CheckoutDraft[],
  sellInfo: { reason: string; floorTime: string },
): Promise<{ ok: true; sent: number } | { ok: false }> {
  const { handles, error } = await startAndDetach(retailer.id, drafts, { sellInfo });
  if (error) console.error("[checkout] starting offer workflows failed", error);
  return handles.size > 0 ? { ok: true, sent: handles.size } : { ok: false };
}

// ---------------------------------------------------------------------------------------------------------
// The pay page.

/** `?order=1&order=2` -> [1, 2]; null when one is not an id (the page answers 404). */
export function orderIdsFromUrl(url: URL): number[] | null {
  const raw = url.searchParams.getAll("order");
  const ids: number[] = [];
  for (const r of raw) {
    const n = rowIdOf(r);
    if (n === null) return null;
    if (!ids.includes(n)) ids.push(n);
  }
  return ids.length > 20 ? null : ids;
}

export interface PayOrder {
  id: number;
  externalId: string;
  counterpartyLabel: string;
  statename: string;
  displayStatus: string;
  awaitingCheckout: boolean;
  goodsCents: number;
  feeCents: number;
  shippingCents: number;
  totalCents: number;
  lines: DraftOrderView["lines"];
  /** Over the person's limit: the order will wait for an approver of its store (the message says so). */
  storeApprovalNote: string | null;
}

/** What the pay page says of an order over the person's limit (null: it goes straight to the seller). */
function storeApprovalNote(draft: CheckoutDraft, need: StoreApprovalNeed | null): string | null {
  if (!need) return null;
  return draft.requestId !== null
    ? TEAM_MSG.overLimitForRequest(need.limitCents)
    : storeApprovalMessage(need);
}

function notFound(): never {
  throw new Response("Not found", { status: 404 });
}

/**
 * The orders of the URL, all of them purchases of this retailer (anything else: 404), read once: what the
 * page shows and, in `draft`, the hand-over its workflow is started with.
 */
async function payOrders(
  auth: AuthContext,
  retailer: RetailerRow,
  ids: number[],
): Promise<(PayOrder & { draft: CheckoutDraft; storeApproval: StoreApprovalNeed | null })[]> {
  // A cart draft older than 24 hours has expired: it is no longer awaiting checkout.
  await expireStaleDrafts(db, { retailerId: retailer.id });
  const views = await getDraftOrders(db, retailer.id, ids, { viewerIsStaff: auth.user.isStaff });
  if (views.length !== ids.length || views.some((v) => v.kind !== "buy" || v.ttype !== "buy"))
    notFound();
  const waiting = views.filter((v) => v.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT);
  const needs = await storeApprovalsFor(
    db,
    auth.user.id,
    waiting.map((v) => v.draft.totalCents),
    { timeZone: getEnv().MARKETPLACE_TZ },
  );
  const needOf = new Map(waiting.map((v, i) => [v.id, needs[i]]));
  return views.map((v) => ({
    storeApproval: needOf.get(v.id) ?? null,
    storeApprovalNote: storeApprovalNote(v.draft, needOf.get(v.id) ?? null),
    draft: v.draft,
    id: v.id,
    externalId: v.externalId,
    counterpartyLabel: v.counterpartyLabel,
    statename: v.statename,
    displayStatus: v.displayStatus,
    awaitingCheckout: v.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    goodsCents: v.goodsCents,
    feeCents: v.feeCents,
    shippingCents: v.shippingCents,
    totalCents: v.totalCents,
    lines: v.lines,
  }));
}

export async function payLoader(request: Request) {
  const { auth, retailer } = await cartRetailer(request);
  if (!retailer) return { admin: true as const };
  const url = new URL(request.url);
  const ids = orderIdsFromUrl(url);
  if (ids === null) notFound();
  if (ids.length === 0) {
    // From the review: the cart's buy drafts, named in the URL so the page survives their leaving the cart.
    const drafts = (
      await getDraftOrders(db, retailer.id, await cartDraftOrderIds(db, retailer.id))
    ).filter(
      (d) =>
        d.kind === "buy" && d.ttype === "buy" && d.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    );
    if (drafts.length > 0)
      throw redirect(`/checkout/pay?${drafts.map((d) => `order=${d.id}`).join("&")}`);
    return {
      admin: false as const,
      orders: [] as PayOrder[],
      card: null,
      mode: "test_card" as CardFormMode,
      provider: paymentsProvider(),
      publishableKey: null,
      formId: randomUUID(),
    };
  }
  const orders = (await payOrders(auth, retailer, ids)).map(
    ({ draft: _draft, storeApproval: _need, ...o }): PayOrder => o,
  );
  return {
    admin: false as const,
    orders,
    ...(await cardFormData(retailer.id)),
    formId: randomUUID(),
  };
}

/** A refused payment: Conform's reply (per card field, or the form's) and what happened to each order. */
export interface PayActionData {
  result: SubmissionResult<string[]>;
  /** Per order id: what happened to it (declined, still processing, ...). */
  orderErrors?: Record<number, string>;
  declined?: boolean;
}

export function fail(
  status: number,
  errors: Record<string, string>,
  extra: Omit<PayActionData, "result"> = {},
) {
  return data<PayActionData>({ result: errorsReply(errors), ...extra }, { status });
}

/** The card of the form: the saved card, a test card (token), or a Stripe Elements PaymentMethod id. */
export async function cardFromForm(
  retailerId: number,
  form: FormData,
): Promise<{ ok: true; card: PaymentMethodInput } | { ok: false; errors: Record<string, string> }> {
  const parsed = parseCardForm(form);
  if (!parsed.ok) return parsed;
  if (parsed.card.source !== "saved") return { ok: true, card: paymentMethodOf(parsed.card) };
  const saved = await getCardOnFile(db, retailerId);
  if (!saved) return { ok: false, errors: { "": CARD_FORM_MESSAGES.noSavedCard } };
  return {
    ok: true,
    card: {
      paymentMethodId: saved.providerPaymentMethodId,
      lastFour: saved.lastFour,
      description: saved.description,
    },
  };
}

type CheckoutOutcome =
  | { ok: true; result: BuyCommandResult | null }
  | { ok: false; code: string; message: string };

/**
 * Starts an order's workflow and completes its checkout in ONE call (update-with-start): the workflow is
 * started with the draft (or, when it already runs, the one running is used) and its first task runs the
 * completeCheckout update. Answers the outcome and the workflow's handle when it was started or found
 * running (null when nothing could be started: the draft stays in the cart).
 */
async function startAndCompleteCheckout(
  client: Client,
  draft: CheckoutDraft,
  cmd: CompleteCheckoutCommand,
): Promise<{ handle: BuyHandle | null; outcome: CheckoutOutcome }> {
  const input = buyOrderInputFromDraft(draft, { timeZone: getEnv().MARKETPLACE_TZ });
  const start = new WithStartWorkflowOperation<typeof buyOrderWorkflow>(BUY_WORKFLOW_TYPE, {
    taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
    workflowId: draft.workflowId,
    workflowIdConflictPolicy: "USE_EXISTING",
    workflowIdReusePolicy: "REJECT_DUPLICATE",
    args: [input],
  } as ConstructorParameters<typeof WithStartWorkflowOperation<typeof buyOrderWorkflow>>[1]);
  const updateId = randomUUID();
  let outcome: CheckoutOutcome;
  try {
    const res = await withTimeout(
      client.workflow.executeUpdateWithStart(completeCheckoutUpdate, {
        args: [cmd],
        startWorkflowOperation: start,
        updateId,
      }),
      UPDATE_WAIT_MS,
    );
    outcome =
      res === "timeout"
        ? { ok: false, code: "processing", message: CHECKOUT_MESSAGES.processing }
        : { ok: true, result: res };
  } catch (err) {
    let handle: BuyHandle | null = null;
    try {
      handle = await start.workflowHandle();
    } catch (startErr) {
      // A workflow of this order ran and closed already (REJECT_DUPLICATE): answer as a second submit does.
      if (!(startErr instanceof WorkflowExecutionAlreadyStartedError)) throw startErr;
      const closed = client.workflow.getHandle<typeof buyOrderWorkflow>(draft.workflowId);
      return { handle: closed, outcome: await completeCheckout(closed, cmd) };
    }
    // Started, but its update was not answered (no worker answering: one restarting): the same update, sent
    // again until the click's timeout, is run once.
    if (isUpdateRetryable(err))
      return { handle, outcome: await completeCheckout(handle, cmd, updateId) };
    return { handle, outcome: await checkoutRefused(handle, err) };
  }
  return { handle: await start.workflowHandle(), outcome };
}

/** completeCheckout on one order's workflow. A second submit of a finished checkout counts as done. */
async function completeCheckout(
  handle: BuyHandle,
  cmd: CompleteCheckoutCommand,
  updateId?: string,
): Promise<CheckoutOutcome> {
  try {
    const res = await executeUpdateOnce(handle, completeCheckoutUpdate, [cmd], UPDATE_WAIT_MS, {
      updateId,
    });
    if (res === "timeout")
      return { ok: false, code: "processing", message: CHECKOUT_MESSAGES.processing };
    return { ok: true, result: res };
  } catch (err) {
    return checkoutRefused(handle, err);
  }
}

/** A refused completeCheckout: the specification's error, or done when an earlier submit already checked out. */
async function checkoutRefused(handle: BuyHandle, err: unknown): Promise<CheckoutOutcome> {
  const known = buyCommandError(err);
  if (!known) throw err;
  if (known.code === "wrong_state") {
    // Already checked out by an earlier submit (double click, back button)?
    try {
      const view = await handle.query(orderViewQuery);
      if (view.statename !== BUY_STATES.COMPLETE_ORDER_CHECKOUT && !isTerminalState(view.statename))
        return { ok: true, result: null };
    } catch {
      // finished workflow: keep the command's answer
    }
  }
  return { ok: false, code: known.code, message: known.message };
}

export async function payAction(request: Request) {
  const { auth, retailer } = await cartRetailer(request);
  const form = await readFormData(request);
  if (!retailer)
    return fail(403, {
      "": "Staff browsing as admin have no orders to pay: act as a retailer first.",
    });
  const ids = orderIdsFromUrl(new URL(request.url));
  if (ids === null || ids.length === 0) return fail(404, { "": CHECKOUT_MESSAGES.nothingToPay });
  const orders = await payOrders(auth, retailer, ids);
  const toPay = orders.filter((o) => o.awaitingCheckout);
  if (toPay.length === 0) return fail(409, { "": CHECKOUT_MESSAGES.nothingToPay });

  const card = await cardFromForm(retailer.id, form);
  if (!card.ok) return fail(400, card.errors);

  // An order made for a request is captured at its checkout: over the person's limit it cannot wait for an
  // approver, so it is refused before anything is sent (docs/product/teams.md, "Limits and approval").
  const unheld = toPay.find((o) => o.storeApproval && o.draft.requestId !== null);
  if (unheld?.storeApproval)
    return fail(403, { "": TEAM_MSG.overLimitForRequest(unheld.storeApproval.limitCents) });
  const drafts = toPay.map((o) => o.draft);
  const commands = toPay.map(
    (o): CompleteCheckoutCommand => ({
      actorRetailerId: retailer.id,
      paymentMethod: card.card,
      ...(o.storeApproval
        ? { storeApproval: { ...o.storeApproval, placedByUserId: auth.user.id } }
        : {}),
    }),
  );
  let client: Client;
  try {
    client = await getTemporalClient();
  } catch (err) {
    if (!isTemporalUnavailable(err)) console.error("[checkout] no Temporal client", err);
    return fail(503, { "": CHECKOUT_MESSAGES.unavailable });
  }

  const orderErrors: Record<number, string> = {};
  const started: number[] = [];
  let declined = false;
  let redirectTo: string | null = null;
  // One call per order: start its workflow and complete its checkout together (update-with-start).
  const results = await Promise.all(
    drafts.map(async (d, i) => {
      try {
        return await startAndCompleteCheckout(client, d, commands[i]);
      } catch (err) {
        if (!isTemporalUnavailable(err))
          console.error("[checkout] checkout failed", d.workflowId, err);
        return {
          handle: null,
          outcome: {
            ok: false as const,
            code: "unavailable",
            message: CHECKOUT_MESSAGES.unavailable,
          },
        };
      }
    }),
  );
  drafts.forEach((d, i) => {
    if (results[i].handle) started.push(d.orderId);
  });
  // Orders whose workflow runs have left the cart; one that could not be started stays there.
  await detachOrdersFromCart(db, retailer.id, started);
  if (started.length === 0) return fail(503, { "": CHECKOUT_MESSAGES.unavailable });

  let awaitingStore = false;
  for (const [i, d] of drafts.entries()) {
    const { outcome } = results[i];
    if (outcome.ok) {
      redirectTo ??= outcome.result?.redirectTo ?? null;
      awaitingStore ||= outcome.result?.statename === BUY_STATES.STORE_APPROVE_PURCHASE;
      continue;
    }
    if (outcome.code === "card_declined") declined = true;
    orderErrors[d.orderId] = outcome.message;
  }

  if (Object.keys(orderErrors).length === 0) {
    // The buyer checks out: "/orders" (an order made for its request) is its Purchase Orders tab.
    const target =
      redirectTo && redirectTo !== "/buy" ? ordersTabFor("receiver", redirectTo) : "/buy";
    const ref =
      target !== "/buy"
        ? "requestCheckoutComplete"
        : awaitingStore
          ? "checkoutAwaitingStoreApproval"
          : "checkoutComplete";
    return redirect(`${target}?ref=${ref}`, 303);
  }
  const messages = [...new Set(Object.values(orderErrors))];
  const first = declined ? BUY_ERRORS.card_declined : messages[0];
  return fail(declined ? 402 : 409, { "": first }, { orderErrors, declined });
}
