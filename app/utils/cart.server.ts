/**
 * Server side of the cart shared by /cart (the resource/action route), /checkout and the marketplace
 * pages (which render <CartBar summary={await loadCartSummary(auth)} />).
 */
import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import {
  CART_MESSAGES,
  CheckoutTermsSchema,
  SellInfoSchema,
  selectionFromEntries,
  swapBlock,
  type CartType,
  type SwapBlock,
} from "../../domain/cart";
import {
  CONFIGURE_PAYOUT_TEXT,
  SWAP_NO_ACTIVE_LISTINGS,
  SWAP_NO_PAYOUT,
} from "../../domain/messages";
import {
  addToCart,
  clearCart,
  countActiveOwnListings,
  getCartSummary,
  removeFromCart,
  type CartSummary,
} from "../../db/queries/cart";
import { proceedFromCart } from "../../db/queries/checkout";
import { getCardOnFile } from "../../db/queries/settings";
import { buyWorkflowId } from "../../workflows/buy/contract";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { getAuth, type AuthContext, type RetailerRow } from "./auth.server";
import { ensureSellerCard } from "./card.server";
import { CHECKOUT_MESSAGES, sendOffers } from "./checkout.server";
import { db } from "./db.server";
import { formError, parseSubmission } from "./form.server";
import { rowIdDigits } from "../../domain/ids";

export type { CartSummary };

/** The cart of whoever asks: the effective retailer's; null for staff browsing as admin (no cart). */
export async function loadCartSummary(
  auth: Pick<AuthContext, "retailer" | "user"> | null,
): Promise<CartSummary | null> {
  if (!auth?.retailer) return null;
  return getCartSummary(db, auth.retailer.id, { viewerIsStaff: auth.user.isStaff });
}

/**
 * What the cart and checkout actions answer when something is refused (4xx): Conform's reply (the message as
 * the form's error; the sell dialog's card fields' errors under them; what was sent), and which checkout
 * dialog to show instead of the form when the refusal is one.
 */
export interface CartReply {
  result: SubmissionResult<string[]>;
  dialog?: "configure_payout" | "no_payout" | "no_active_listings";
}

type Replying = {
  reply(options: {
    formErrors: string[];
    fieldErrors?: Record<string, string[]>;
  }): SubmissionResult<string[]>;
};

/** A refusal: `error` as the form's error of `submission`'s reply (or alone before any parse). */
export function refuse(
  status: number,
  error: string,
  opts: {
    submission?: Replying;
    dialog?: CartReply["dialog"];
    fieldErrors?: Record<string, string[]>;
  } = {},
) {
  const result = opts.submission
    ? opts.submission.reply({ formErrors: [error], fieldErrors: opts.fieldErrors })
    : formError(error);
  return data<CartReply>({ result, ...(opts.dialog ? { dialog: opts.dialog } : {}) }, { status });
}

/** A same-site path to come back to (the marketplace page the form was on), else /cart. */
export function safeReturnTo(
  raw: FormDataEntryValue | null | undefined,
  fallback = "/cart",
): string {
  if (
    typeof raw !== "string" ||
    !raw.startsWith("/") ||
    raw.startsWith("//") ||
    raw.startsWith("/\\") ||
    /[\u0000-\u001f\\]/.test(raw)
  )
    return fallback;
  try {
    const u = new URL(raw, "http://same.invalid");
    if (u.origin !== "http://same.invalid") return fallback;
    return u.pathname + u.search;
  } catch {
    return fallback;
  }
}

export function withRef(path: string, ref: string): string {
  const u = new URL(path, "http://same.invalid");
  u.searchParams.set("ref", ref);
  return u.pathname + u.search;
}

/** The same-site page a cart form comes back to (safeReturnTo), /cart for anything else. */
const backTo = z.unknown().transform((v) => safeReturnTo(typeof v === "string" ? v : undefined));

const itemId = rowIdDigits();

/** The item of an add or remove (a listing or a request), a cart type, and the page to come back to. */
const ItemSchema = z.object({
  listingId: itemId.optional(),
  requestId: itemId.optional(),
  type: z.enum(["buy", "swap", "sell"] as const satisfies readonly CartType[]).optional(),
  returnTo: backTo,
});

/** intent=add: listingId or requestId, size.<label>=qty, optional type and returnTo. */
export async function handleAdd(retailerId: number, form: FormData) {
  const submission = parseSubmission(form, { schema: ItemSchema });
  if (submission.status !== "success") {
    // An id that cannot exist is "not found" like one that does not exist.
    const notFound = submission.error?.listingId || submission.error?.requestId;
    return notFound
      ? refuse(404, "Sorry, we could not find that item.", { submission })
      : refuse(400, "Unknown cart type.", { submission });
  }
  const { listingId, requestId, type, returnTo } = submission.value;
  const parsed = selectionFromEntries(form.entries());
  if (!parsed.ok) return refuse(400, parsed.message, { submission });
  const result = await addToCart(db, retailerId, {
    listingId,
    requestId,
    selection: parsed.selection,
    type,
  });
  if (!result.ok) return refuse(result.status, result.message, { submission });
  return redirect(withRef(returnTo, "cartAdded"), 303);
}

export async function handleRemove(retailerId: number, form: FormData) {
  const submission = parseSubmission(form, { schema: ItemSchema.omit({ type: true }) });
  if (submission.status !== "success") return refuse(404, CART_MESSAGES.notInCart, { submission });
  const { listingId, requestId, returnTo } = submission.value;
  if ((listingId === undefined) === (requestId === undefined))
    return refuse(404, CART_MESSAGES.notInCart, { submission });
  const result = await removeFromCart(
    db,
    retailerId,
    listingId !== undefined ? { listingId } : { requestId },
  );
  if (!result.ok) return refuse(result.status, result.message, { submission });
  return redirect(withRef(returnTo, "cartRemoved"), 303);
}

export async function handleClear(retailerId: number, form: FormData) {
  const submission = parseSubmission(form, { schema: z.object({ returnTo: backTo }) });
  await clearCart(db, retailerId);
  return redirect(
    withRef(submission.status === "success" ? submission.value.returnTo : "/cart", "cartCleared"),
    303,
  );
}

export interface CheckoutState {
  summary: CartSummary;
  payoutSet: boolean;
  /** Swap carts: why swapping is not possible yet, or null. */
  swapBlock: SwapBlock | null;
  /** Sell carts without payout: the "Configure Payout Settings" prompt. */
  needsPayoutForSell: boolean;
  /** Sell carts of a seller without a card on file: the sell dialog asks for one. */
  needsCardForSell: boolean;
  /** The id of the card's submission when it is asked for (one card-on-file workflow per submission). */
  cardSubmissionId: string | null;
}

export async function checkoutState(
  auth: { user: { isStaff: boolean } },
  retailer: RetailerRow,
): Promise<CheckoutState> {
  const summary = await getCartSummary(db, retailer.id, { viewerIsStaff: auth.user.isStaff });
  const payoutSet = Boolean(retailer.btMerchantId);
  let block: SwapBlock | null = null;
  if (summary.type === "swap" && summary.lines.length > 0) {
    const n = payoutSet
      ? await countActiveOwnListings(db, retailer.id, summary.lines[0].brandId)
      : 0;
    block = swapBlock({ payoutSet, activeListingsOfBrand: n });
  }
  const needsCardForSell = summary.type === "sell" && !(await getCardOnFile(db, retailer.id));
  return {
    summary,
    payoutSet,
    swapBlock: block,
    needsPayoutForSell: summary.type === "sell" && !payoutSet,
    needsCardForSell,
    cardSubmissionId: needsCardForSell ? randomUUID() : null,
  };
}

/** A refused parse's first message (the schema's order), else `fallback`. */
const firstError = (error: Record<string, string[] | null> | null | undefined, fallback: string) =>
  Object.values(error ?? {}).flat()[0] ?? fallback;

/**
 * intent=proceed: the terms (and for a sell cart the info dialog) are checked here, then the cart is
 * handed to proceedFromCart. Buy and sell go to the draft review; a swap to its review and card step.
 */
export async function handleProceed(auth: AuthContext, retailer: RetailerRow, form: FormData) {
  const state = await checkoutState(auth, retailer);
  const type = state.summary.type;
  const sell = type === "sell" ? parseSubmission(form, { schema: SellInfoSchema }) : null;
  const submission = sell ?? parseSubmission(form, { schema: CheckoutTermsSchema });
  if (!type)
    return refuse(
      400,
      state.summary.dropped > 0 ? CART_MESSAGES.itemDropped : CART_MESSAGES.emptyCart,
      { submission },
    );
  if (type === "swap" && state.swapBlock) {
    return refuse(403, state.swapBlock === "no_payout" ? SWAP_NO_PAYOUT : SWAP_NO_ACTIVE_LISTINGS, {
      submission,
      dialog: state.swapBlock,
    });
  }
  if (state.needsPayoutForSell)
    return refuse(403, CONFIGURE_PAYOUT_TEXT, { submission, dialog: "configure_payout" });
  if (submission.status !== "success") {
    return refuse(
      400,
      firstError(
        submission.error,
        sell ? CART_MESSAGES.fillOutEverything : CART_MESSAGES.acceptTerms,
      ),
      { submission },
    );
  }

  let sellInfo: { reason: string; floorTime: string } | null = null;
  if (sell?.status === "success") {
    sellInfo = { reason: sell.value.reason, floorTime: sell.value.floor_time };
    // The offer is the seller's approval: without a card on file, the dialog's card fields are saved first.
    const card = await ensureSellerCard(retailer, form);
    if (!card.ok) {
      const fieldErrors = Object.fromEntries(
        Object.entries(card.errors)
          .filter(([name]) => name !== "")
          .map(([name, message]) => [name, [message]]),
      );
      return refuse(
        card.status,
        card.errors[""] ?? Object.values(card.errors)[0] ?? CART_MESSAGES.fillOutEverything,
        {
          submission,
          fieldErrors,
        },
      );
    }
  }

  const outcome = await proceedFromCart(db, retailer.id, {
    workflowIdFor: buyWorkflowId,
    swapWorkflowIdFor: swapWorkflowId,
    sellInfo,
    placedBy: auth.user.id,
  });
  if (!outcome.ok) {
    const dialog =
      outcome.code === "no_payout" || outcome.code === "no_active_listings"
        ? outcome.code
        : outcome.code === "payout_required"
          ? "configure_payout"
          : undefined;
    return refuse(outcome.status, outcome.message, { submission, dialog });
  }
  // A swap: its review and card step (the card is pre-authorised as the swap's workflow starts).
  if (outcome.kind === "swap") return redirect("/checkout/swap", 303);
  // Selling to a request: confirming the sell dialog sends the offer (its workflow starts, action 223).
  if (outcome.kind === "sell" && sellInfo) {
    const sent = await sendOffers(retailer, outcome.drafts, sellInfo);
    if (sent.ok) return redirect("/buy?ref=offerSent", 303);
    return refuse(503, CHECKOUT_MESSAGES.unavailable, { submission });
  }
  return redirect("/checkout/review", 303);
}

/** For loaders that must know who asks without requiring anything. */
export { getAuth };
