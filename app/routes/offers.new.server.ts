/**
 * Server side of /offers/new?listing=:id, "Make an offer" (docs/product/offers.md, "Making an offer"): the
 * listing's current price and units (404 when the buyer may not offer on it), and the offer: checked and written
 * by db/queries/offers.ts makeOffer (a refusal is a 4xx with its message and writes nothing), then its workflow
 * started (it holds the card and waits for the seller).
 */
import { data, redirect } from "@remix-run/node";
import { makeOffer, offerableListing } from "../../db/queries/offers";
import { toISO } from "../../domain/business-days";
import { MakeOfferFormSchema } from "../../domain/offers";
import {
  OFFER_WORKFLOW_TYPE,
  offerWorkflowId,
  type OfferWorkflowInput,
} from "../../workflows/offer/contract";
import type { offerWorkflow } from "../../workflows/offer/workflow";
import { readFormData, requireTradingRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { offerOverLimit } from "~/utils/limits.server";
import { getTemporalClient, startWorkflowOnce } from "~/utils/temporal.server";

function listingIdOf(value: string | null): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new Response("Not found", { status: 404 });
  return Number(value);
}

export async function newOfferLoader(request: Request) {
  const auth = await requireTradingRetailer(request);
  const id = listingIdOf(new URL(request.url).searchParams.get("listing"));
  const listing = await offerableListing(db, id, auth.retailer.id);
  // Not offerable (gone, a swap, one's own): a 404 page that still shows a refused offer's message.
  return data({ listing }, { status: listing ? 200 : 404 });
}

export async function newOfferAction(request: Request) {
  const auth = await requireTradingRetailer(request);
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: MakeOfferFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  const env = getEnv();
  const refused = await offerOverLimit(auth.user.id, v.sizes, v.price, env.MARKETPLACE_TZ);
  if (refused) return data(submission.reply({ formErrors: [refused] }), { status: 403 });
  const made = await makeOffer(db, {
    listingId: v.listing,
    buyerId: auth.retailer.id,
    buyerUserId: auth.user.isStaff ? null : auth.user.id,
    offeredUnitCents: v.price,
    sizes: v.sizes,
    at: toISO(Date.now()),
    workflowIdFor: offerWorkflowId,
    calendar: { timeZone: env.MARKETPLACE_TZ },
  });
  if (!made.ok)
    return data(submission.reply({ formErrors: [made.message] }), { status: made.status });
  const input: OfferWorkflowInput = {
    offerId: made.offerId,
    listingId: v.listing,
    variationId: made.variationId,
    buyerId: auth.retailer.id,
    sellerId: made.sellerId,
    state: made.state,
    holdCents: made.holdCents,
    timeZone: env.MARKETPLACE_TZ,
  };
  await startWorkflowOnce<typeof offerWorkflow>(
    await getTemporalClient(),
    OFFER_WORKFLOW_TYPE,
    made.workflowId,
    [input],
  );
  return redirect(`/offers/${made.offerId}?ref=made`);
}
