/**
 * The parcel lifecycle, written once for every process that ships (a purchase's parcel, each side of a swap,
 * an RMA's return parcel): booked with the carrier (a pickup window of business days), booked again once when
 * the first window passes unscanned, failed when the second does; scanned (In-Route) on the carrier's first
 * scan; delivered, which opens the receiver's rating and RMA windows (docs/product/windows.md). The carrier's
 * events come in through one intake with one dedupe rule. Pure: no Temporal, no clock (times are passed in);
 * the booking is a step that yields its carrier call.
 */
import { WINDOWS, addBusinessDays, ratingDeadline } from "../../domain/business-days";
import { SCANNED_CARRIER_STATUSES, isCarrierEventStatus } from "../../domain/carrier-events";
import { idempotencyKey, type CarrierEventSignal } from "./contract";
import { nextAttempt, type Attempted } from "./record";
import type { Step } from "./steps";

/** One parcel as the process follows it. */
export interface Parcel {
  trackingNumber: string;
  callTag: string;
  /** The booking it is (1, or 2 after the first pickup window passed). */
  attempt: number;
  scanned: boolean;
  delivered: boolean;
  /** Never shipped (or cancelled by its sender). */
  failed: boolean;
}

/** The marketplace calendar business days are counted in. */
export interface Calendar {
  timeZone: string;
  holidays: readonly string[];
}

/** What the carrier answers a booking with (at least). */
export interface Booking {
  trackingNumber: string;
  callTag: string;
}

/** A parcel is booked at most twice: a second pickup window, then it failed. */
export const PICKUP_ATTEMPTS = 2;

/** The end of a pickup window that starts `now` (2 business days; an RMA's return has 4). */
export function pickupWindowEnd(
  now: number,
  cal: Calendar,
  businessDays: number = WINDOWS.pickupBusinessDays,
): number {
  return addBusinessDays(now, businessDays, cal.timeZone, cal.holidays);
}

/** A pickup window passed with the parcel unscanned: book it again, or (after the last booking) it failed. */
export function missedPickup(attempt: number): "rebook" | "fail" {
  return attempt < PICKUP_ATTEMPTS ? "rebook" : "fail";
}

/**
 * Books a pickup: the carrier call `activity` (policy "carrier") with the idempotency key of the step's next
 * attempt; `input` adds the kind's own fields (the attempt is given to it for the label). Returns the
 * carrier's answer and the attempt it was.
 */
export function* bookParcel<B extends Booking>(
  m: Attempted,
  step: string,
  activity: string,
  input: (attempt: number) => object,
): Step<{ booking: B; attempt: number }> {
  const attempt = nextAttempt(m, step);
  const booking = (yield {
    kind: "call",
    name: activity,
    input: { idempotencyKey: idempotencyKey(m.workflowId, step, attempt), ...input(attempt) },
    policy: "carrier",
  }) as B;
  return { booking, attempt };
}

/** A freshly booked parcel. */
export function newParcel(booking: Booking, attempt: number): Parcel {
  return {
    trackingNumber: booking.trackingNumber,
    callTag: booking.callTag,
    attempt,
    scanned: false,
    delivered: false,
    failed: false,
  };
}

/** Whether a carrier status means the parcel was scanned (domain/carrier-events.ts). */
export const isScan = (status: string): boolean => SCANNED_CARRIER_STATUSES.has(status);

/**
 * Staff's "Schedule pickup" (StaffBookPickupCommand, workflows/common/contract.ts) on parcel `p`: "book" a new
 * call tag when `p` still carries the one staff saw; "repeat" when it no longer does (a repeated click: nothing
 * booked); "refused" once the parcel is scanned, failed, or a scan of it waits in `queue`.
 */
export function staffPickup(
  p: Parcel | null,
  queue: readonly CarrierEventSignal[],
  replacesCallTag: unknown,
): "book" | "repeat" | "refused" {
  if (!p || p.failed || p.scanned) return "refused";
  const scanWaits = queue.some(
    (e) => isScan(e.status) && (!e.trackingNumber || e.trackingNumber === p.trackingNumber),
  );
  if (scanWaits) return "refused";
  return p.callTag === replacesCallTag ? "book" : "repeat";
}

/** The parcel's first scan: true once, when `status` is a scan of a parcel not failed and not yet scanned. */
export function takeScan(p: Pick<Parcel, "scanned" | "failed">, status: string): boolean {
  if (p.failed || p.scanned || !isScan(status)) return false;
  p.scanned = true;
  return true;
}

/** The parcel's delivery: true once, when `status` is `delivered` for a parcel not failed (after its scan, if any). */
export function takeDelivery(p: Pick<Parcel, "delivered" | "failed">, status: string): boolean {
  if (p.failed || p.delivered || status !== "delivered") return false;
  p.delivered = true;
  return true;
}

/** The windows a delivery opens for its receiver: rating (3 business days) and RMA request (48 hours). */
export function deliveryWindows(
  deliveredAt: number,
  cal: Calendar,
): { ratingBy: number; rmaBy: number } {
  return {
    ratingBy: ratingDeadline(deliveredAt, cal.timeZone, cal.holidays),
    rmaBy: deliveredAt + WINDOWS.rmaRequest,
  };
}

/** Where a process keeps the carrier events it has seen and those still to handle. */
export interface CarrierIntake {
  /** Event ids already seen (`carrier:<id>`; a purchase also keeps `payment:<id>` here). */
  seenEvents: Set<string>;
  carrierQueue: CarrierEventSignal[];
}

/**
 * The carrier-event intake of every process: an event is taken once per event id (a webhook the carrier
 * sends twice does nothing the second time), and queued when its status is a carrier status and `ours`
 * says it is about this order's parcel; true when the order has something new to do.
 */
export function takeCarrierEvent(
  m: CarrierIntake,
  ev: CarrierEventSignal | undefined,
  ours: (ev: CarrierEventSignal) => boolean,
): boolean {
  if (!ev || typeof ev.eventId !== "string" || m.seenEvents.has(`carrier:${ev.eventId}`))
    return false;
  m.seenEvents.add(`carrier:${ev.eventId}`);
  if (!isCarrierEventStatus(ev.status) || !ours(ev)) return false;
  m.carrierQueue.push(ev);
  return true;
}
