/**
 * What every order kind's contract shares (buy, swap, RMA; the card and payout workflows use the key): the
 * carrier's event as the webhook signals it, a card as the card form hands it over, and the idempotency key
 * of a step that calls out. Pure, no Temporal runtime: pages, activities and workflows import it.
 */
import type { CarrierEventStatus } from "../../domain/carrier-events";
import type { StoreApprovalNeed } from "../../domain/teams";
import { signal } from "./messages";

/** A carrier status (domain/carrier-events.ts CARRIER_EVENT_STATUSES). */
export type CarrierStatus = CarrierEventStatus;

/**
 * A carrier tracking event. `picked_up`, `in_transit` and `out_for_delivery` mean the parcel was scanned
 * (In-Route); `delivered` implies a pickup that may have been reported late or never (out-of-order safe).
 */
export interface CarrierEventSignal {
  /** The carrier's event id: stored by the webhook first, and deduplicated by the workflow too. */
  eventId: string;
  status: CarrierStatus;
  /** Which parcel (a swap has two; a purchase and an RMA one). */
  trackingNumber?: string;
  /** When the carrier saw it (ISO with offset); informational: windows run from the workflow's clock. */
  occurredAt?: string;
  description?: string;
}

/** Carrier webhook (signed, stored by event id, then signalled), the same signal for every kind. */
export const carrierEventSignal = signal<[CarrierEventSignal]>("carrierEvent");

/**
 * Staff's "Schedule pickup" on a parcel not yet scanned, the same command in every kind: a new call tag with
 * the carrier. `replacesCallTag` is the call tag staff saw (it names the parcel: a swap has two); once the
 * workflow has booked past it, the same command again books nothing (a repeated click).
 */
export interface StaffBookPickupCommand {
  replacesCallTag: string;
}

/**
 * A checkout over the placer's limit (docs/product/teams.md, "Limits and approval"): why it waits for its store,
 * and who placed it (who may not decide on it). The app computes it (domain/teams storeApprovalNeed); absent on
 * checkouts that need no approval and on every checkout from before limits existed.
 */
export interface StoreApprovalRequest extends StoreApprovalNeed {
  placedByUserId: number;
}
/** An approver (or the owner) of the buyer's store approves or declines what waits for it. */
export interface StoreDecisionCommand {
  actorRetailerId: number;
  actorUserId: number;
}

/** A limit's hand-over as the app sends it (never trusted to be well formed: a bad one is refused). */
export function isStoreApprovalRequest(v: unknown): v is StoreApprovalRequest {
  const r = v as StoreApprovalRequest;
  return (
    typeof v === "object" &&
    v !== null &&
    (r.reason === "order_limit" || r.reason === "month_limit") &&
    Number.isSafeInteger(r.limitCents) &&
    r.limitCents >= 0 &&
    Number.isSafeInteger(r.placedByUserId) &&
    r.placedByUserId > 0
  );
}

/** A card as the card form hands it over (Stripe PaymentMethod id / sandbox test card token). */
export interface PaymentMethodInput {
  paymentMethodId: string;
  lastFour: string;
  /** Card type shown next to the last four ("Visa"). */
  description: string;
}

/**
 * Idempotency key = workflow id + step + the workflow's own attempt of that step (a second card after a
 * decline is attempt 2; the second pickup booking is attempt 2). Activity retries reuse the key, so a call
 * that did go through is not made twice. A step done per side of a swap names the side in the step
 * (`swap-refund:provider`).
 */
export function idempotencyKey(workflowId: string, step: string, attempt = 1): string {
  return `${workflowId}:${step}:${attempt}`;
}
