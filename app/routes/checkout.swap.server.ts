/**
 * The swap cart's checkout after the swap terms (docs/product/screens.md, "Cart and checkout": swap review, card modal):
 * /checkout/swap shows the swap draft proceedFromCart made (the other retailer's goods, anonymous) and what
 * the card is pre-authorised for now: the 5% fee of the larger goods value and the shipping of the units
 * received (domain/fees swapValuation; the cash difference, if any, is paid once both sides approve).
 * Submitting the card starts the swap's workflow and completes its checkout in one call
 * (update-with-start, like a purchase): a declined card keeps the page with the message and the next card
 * is a new attempt of the same workflow; then the swap is the provider's to answer ("awaiting retailer's
 * response") and it leaves the cart.
 */
import { randomUUID } from "node:crypto";
import { redirect } from "@remix-run/node";
import { WithStartWorkflowOperation, type Client } from "@temporalio/client";
import {
  cartDraftOrderIds,
  detachOrdersFromCart,
  getDraftOrders,
  type DraftOrderView,
} from "../../db/queries/checkout";
import { storeApprovalsFor } from "../../db/queries/team";
import { swapValuation } from "../../domain/fees";
import { storeApprovalMessage } from "../../domain/teams";
import { BUY_STATES } from "../../domain/states";
import {
  SWAP_ERRORS,
  SWAP_WORKFLOW_TYPE,
  swapCheckoutUpdate,
  swapCommandError,
  type SwapCheckoutCommand,
  type SwapInput,
} from "../../workflows/swap/contract";
import type { swapOrderWorkflow } from "../../workflows/swap/workflow";
import type { AuthContext, RetailerRow } from "~/utils/auth.server";
import { cartRetailer, readFormData } from "~/utils/auth.server";
import { cardFormData } from "~/utils/card.server";
import { CHECKOUT_MESSAGES, cardFromForm, fail, orderIdsFromUrl } from "~/utils/checkout.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { getTemporalClient, isTemporalUnavailable, withTimeout } from "~/utils/temporal.server";

const UPDATE_WAIT_MS = 25_000;

function notFound(): never {
  throw new Response("Not found", { status: 404 });
}

/** What the receiver is pre-authorised for at checkout: the fee and the shipping of what it receives. */
export function swapCheckoutEstimate(view: Pick<DraftOrderView, "lines">) {
  const goodsCents = view.lines.reduce((a, l) => a + l.valueCents, 0);
  const units = view.lines.reduce((a, l) => a + l.quantity, 0);
  const v = swapValuation({
    provider: { goodsCents, units },
    receiver: { goodsCents: 0, units: 0 },
    callItEven: false,
  });
  return {
    goodsCents,
    feeCents: v.receiver.feeCents,
    shippingCents: v.receiver.shippingCents,
    authorizeCents: v.receiver.feeCents + v.receiver.shippingCents,
  };
}

/**
 * The swap to check out: `?order=<id>` (after a declined card the swap has left the cart), else the cart's
 * swap draft. Only a swap this retailer receives, still awaiting checkout; anything else is 404.
 */
async function swapToCheckOut(
  auth: AuthContext,
  retailer: RetailerRow,
  url: URL,
): Promise<DraftOrderView | null> {
  const ids = orderIdsFromUrl(url);
  if (ids === null || ids.length > 1) notFound();
  const candidates = ids.length === 1 ? ids : await cartDraftOrderIds(db, retailer.id);
  const views = (
    await getDraftOrders(db, retailer.id, candidates, { viewerIsStaff: auth.user.isStaff })
  ).filter((v) => v.ttype === "swap" && v.kind === "buy");
  if (ids.length === 1 && views.length === 0) notFound();
  return views[0] ?? null;
}

export async function swapCheckoutLoader(request: Request) {
  const { auth, retailer } = await cartRetailer(request);
  if (!retailer) return { admin: true as const };
  const url = new URL(request.url);
  const swap = await swapToCheckOut(auth, retailer, url);
  return {
    admin: false as const,
    swap: swap
      ? {
          id: swap.id,
          externalId: swap.externalId,
          counterpartyLabel: swap.counterpartyLabel,
          displayStatus: swap.displayStatus,
          awaitingCheckout: swap.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT,
          lines: swap.lines,
          estimate: swapCheckoutEstimate(swap),
          storeApprovalNote: await swapApprovalNeeds(auth.user.id, swap).then(([need]) =>
            need ? storeApprovalMessage(need, "swap") : null,
          ),
        }
      : null,
    /** The card just tried was declined (the action redirected here). */
    declinedMessage: url.searchParams.get("declined") === "1" ? SWAP_ERRORS.card_declined : null,
    ...(await cardFormData(retailer.id)),
    formId: randomUUID(),
  };
}

/**
 * Whether the swap waits for an approver of the receiver's store: it counts as the value of the goods the store
 * receives plus its fee and shipping (docs/product/teams.md, "Limits and approval").
 */
function swapApprovalNeeds(userId: number, swap: DraftOrderView) {
  const e = swapCheckoutEstimate(swap);
  return storeApprovalsFor(db, userId, [e.goodsCents + e.authorizeCents], {
    timeZone: getEnv().MARKETPLACE_TZ,
  });
}

function swapInput(view: DraftOrderView): SwapInput {
  return {
    orderId: view.draft.orderId,
    externalId: view.draft.externalId,
    providerId: view.draft.providerId,
    receiverId: view.draft.receiverId,
    providerLines: view.draft.units,
    timeZone: getEnv().MARKETPLACE_TZ,
  };
}

type Outcome = { ok: true } | { ok: false; code: string; message: string; started: boolean };

/** Starts the swap's workflow (or uses the one running) and completes its checkout in one call. */
async function startAndCheckOut(
  client: Client,
  view: DraftOrderView,
  cmd: SwapCheckoutCommand,
): Promise<Outcome> {
  const start = new WithStartWorkflowOperation<typeof swapOrderWorkflow>(SWAP_WORKFLOW_TYPE, {
    taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
    workflowId: view.draft.workflowId,
    workflowIdConflictPolicy: "USE_EXISTING",
    workflowIdReusePolicy: "REJECT_DUPLICATE",
    args: [swapInput(view)],
  } as ConstructorParameters<typeof WithStartWorkflowOperation<typeof swapOrderWorkflow>>[1]);
  try {
    const res = await withTimeout(
      client.workflow.executeUpdateWithStart(swapCheckoutUpdate, {
        args: [cmd],
        startWorkflowOperation: start,
      }),
      UPDATE_WAIT_MS,
    );
    if (res === "timeout")
      return {
        ok: false,
        code: "processing",
        message: CHECKOUT_MESSAGES.processing,
        started: true,
      };
    return { ok: true };
  } catch (err) {
    const known = swapCommandError(err);
    if (!known) throw err;
    let started = true;
    try {
      await start.workflowHandle();
    } catch {
      started = false;
    }
    return { ok: false, code: known.code, message: known.message, started };
  }
}

export async function swapCheckoutAction(request: Request) {
  const { auth, retailer } = await cartRetailer(request);
  const form = await readFormData(request);
  if (!retailer)
    return fail(403, {
      "": "Staff browsing as admin have no swap to check out: act as a retailer first.",
    });
  const swap = await swapToCheckOut(auth, retailer, new URL(request.url));
  if (!swap || swap.statename !== BUY_STATES.COMPLETE_ORDER_CHECKOUT)
    return fail(409, { "": CHECKOUT_MESSAGES.nothingToPay });
  const card = await cardFromForm(retailer.id, form);
  if (!card.ok) return fail(400, card.errors);

  // Over the person's limit (docs/product/teams.md): the swap waits for an approver of its store.
  const [need] = await swapApprovalNeeds(auth.user.id, swap);
  const cmd: SwapCheckoutCommand = {
    actorRetailerId: retailer.id,
    paymentMethod: card.card,
    ...(need ? { storeApproval: { ...need, placedByUserId: auth.user.id } } : {}),
  };
  let outcome: Outcome;
  try {
    outcome = await startAndCheckOut(await getTemporalClient(), swap, cmd);
  } catch (err) {
    if (!isTemporalUnavailable(err))
      console.error("[swap checkout] failed", swap.draft.workflowId, err);
    return fail(503, { "": CHECKOUT_MESSAGES.unavailable });
  }
  // Once its workflow runs the swap is an order: it leaves the cart (the swap cart is emptied with it).
  if (outcome.ok || outcome.started) await detachOrdersFromCart(db, retailer.id, [swap.id]);
  // After a swap checkout a success notice shows and the user goes to /buy.
  if (outcome.ok)
    return redirect(`/buy?ref=${need ? "swapAwaitingStoreApproval" : "swapRequested"}`, 303);
  // Declined: the swap has left the cart (its workflow waits for a card), so the page continues at its own
  // address, saying so; the next card is a new attempt.
  if (outcome.code === "card_declined")
    return redirect(`/checkout/swap?order=${swap.id}&declined=1`, 303);
  return fail(409, { "": outcome.message });
}
