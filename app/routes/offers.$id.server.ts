/**
 * Server side of /offers/:id (docs/product/offers.md): the offer as its buyer or seller sees it (anyone else: 404)
 * and their answer (accept, decline, withdraw, counter) sent to the offer's workflow as an update; a refused
 * answer is a 409 with the rule's message and changes nothing.
 */
import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getOfferForRetailer } from "../../db/queries/offers";
import { orderStateMark } from "../../db/queries/orders";
import { BUY_STATES } from "../../domain/states";
import { OfferAnswerFormSchema } from "../../domain/offers";
import {
  acceptOfferUpdate,
  counterOfferUpdate,
  declineOfferUpdate,
  offerCommandError,
  withdrawOfferUpdate,
} from "../../workflows/offer/contract";
import { readFormData, requireRetailer, requireTradingRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { offerOverLimit } from "~/utils/limits.server";
import { parseSubmission } from "~/utils/form.server";
import { COMMAND_TIMEOUT_MS, executeUpdateOnce, getTemporalClient } from "~/utils/temporal.server";

/** The offer of the URL for its buyer or seller, else a 404; answering it is trading (requireTradingRetailer). */
async function loadOffer(request: Request, params: LoaderFunctionArgs["params"], trading = false) {
  const auth = trading ? await requireTradingRetailer(request) : await requireRetailer(request);
  const raw = params.id ?? "";
  if (!/^\d{1,9}$/.test(raw)) throw new Response("Not found", { status: 404 });
  const offer = await getOfferForRetailer(db, Number(raw), auth.retailer.id);
  if (!offer) throw new Response("Not found", { status: 404 });
  return { auth, offer };
}

export async function offerLoader(request: Request, params: LoaderFunctionArgs["params"]) {
  const { offer } = await loadOffer(request, params);
  const url = new URL(request.url);
  return { offer, ref: url.searchParams.get("ref") };
}

export async function offerAction(request: Request, params: LoaderFunctionArgs["params"]) {
  const { auth, offer } = await loadOffer(request, params, true);
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: OfferAnswerFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  // The buyer raising its price (a counter, or accepting the seller's counter) stays within its limits.
  const raisedTo =
    offer.side !== "buyer"
      ? null
      : v.intent === "counter"
        ? v.price
        : v.intent === "accept"
          ? offer.tableUnitCents
          : null;
  const refused =
    raisedTo === null
      ? null
      : await offerOverLimit(auth.user.id, offer.sizes, raisedTo, getEnv().MARKETPLACE_TZ);
  if (refused) return data(submission.reply({ formErrors: [refused] }), { status: 403 });
  const actor = { actorRetailerId: auth.retailer.id };
  const handle = (await getTemporalClient()).workflow.getHandle(offer.workflowId);
  try {
    const sent =
      v.intent === "counter"
        ? await executeUpdateOnce(
            handle,
            counterOfferUpdate,
            [{ ...actor, unitPriceCents: v.price }],
            COMMAND_TIMEOUT_MS,
          )
        : await executeUpdateOnce(
            handle,
            v.intent === "accept"
              ? acceptOfferUpdate
              : v.intent === "decline"
                ? declineOfferUpdate
                : withdrawOfferUpdate,
            [actor],
            COMMAND_TIMEOUT_MS,
          );
    if (sent === "timeout")
      return data(submission.reply({ formErrors: ["Please try again in a moment."] }), {
        status: 503,
      });
  } catch (err) {
    const refused = offerCommandError(err);
    if (!refused) throw err;
    return data(submission.reply({ formErrors: [refused.message] }), { status: 409 });
  }
  if (v.intent === "accept") await purchaseOpened(offer.id, auth.retailer.id);
  return redirect(`/offers/${offer.id}?ref=${v.intent}`);
}

/** How long an acceptance's answer waits for its purchase to open, and how often it looks. */
const OPEN_WAIT_MS = 5_000;
const OPEN_POLL_MS = 20;

/**
 * An accepted offer's purchase opens on its own workflow (capture on the offer's hold, the pickup booked:
 * docs/product/offers.md, "When it is accepted"). The acceptance's answer waits (up to 5 s) until the purchase's
 * read model shows it opened, so the page the seller lands on links a purchase already at its pickup, as "Approve
 * Sale" lands on one. An offer that ended otherwise (its units taken) answers at once.
 */
async function purchaseOpened(offerId: number, retailerId: number): Promise<void> {
  // The acceptance's step wrote the purchase's id on the offer before it answered; only the purchase is waited for.
  const o = await getOfferForRetailer(db, offerId, retailerId);
  if (!o || o.status !== "accepted" || o.orderId === null) return;
  const until = Date.now() + OPEN_WAIT_MS;
  while (Date.now() < until) {
    const mark = await orderStateMark(db, o.orderId);
    if (mark && mark.statename !== BUY_STATES.COMPLETE_ORDER_CHECKOUT) return;
    await new Promise((r) => setTimeout(r, OPEN_POLL_MS));
  }
}
