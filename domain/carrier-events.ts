/**
 * Carrier tracking webhooks (docs/product/orders.md, "Providers": the sandbox carrier sends tracking events signed with
 * a shared secret, modelled on a well-known shipping API). The payload is shaped like EasyPost's
 * `tracker.updated` Event: an envelope `{ id, object: "Event", description, mode, created_at, result }`
 * whose `result` is a Tracker `{ id, object: "Tracker", tracking_code, status, status_detail, shipment_id,
 * carrier, updated_at, tracking_details: [...] }`, so a real carrier adapter stays small.
 *
 * Statuses are EasyPost's tracker statuses plus `picked_up` (the first scan):
 *   picked_up / in_transit / out_for_delivery -> In-Route (the seller's payout is released), delivered ->
 *   Delivered; `pre_transit` is "pickup scheduled". They are every order workflow's carrier statuses
 *   (workflows/common/contract.ts CarrierEventSignal): the webhook endpoint signals
 *   `{ eventId: event.id, status: result.status, trackingNumber: result.tracking_code, occurredAt: event.created_at }`.
 *
 * Signature (carrierSignatureHeader): header `X-Hmac-Signature: hmac-sha256-hex=<hex>` where <hex> is the
 * lowercase hex HMAC-SHA256 of the raw request body (the exact bytes) keyed with CARRIER_WEBHOOK_SECRET. The
 * sender signs in activities/carrier/signature.ts, the receiver verifies in app/utils (both use node:crypto;
 * this file stays pure).
 *
 * Pure: no clock, no randomness; ids and times are passed in.
 */
import { z } from "zod";

/** The header carrying the signature, and the prefix of its value (EasyPost's scheme). */
export const CARRIER_SIGNATURE_HEADER = "X-Hmac-Signature";
export const CARRIER_SIGNATURE_PREFIX = "hmac-sha256-hex=";
/** The endpoint the carrier posts to (path under APP_ORIGIN). */
export const CARRIER_WEBHOOK_PATH = "/webhooks/carrier";
/** Carrier name in events and on the label. */
export const SANDBOX_CARRIER_NAME = "SandboxCarrier";

/** The sandbox carrier's tracking numbers: this prefix and 14 digits (activities/carrier/sandbox.ts issues them). */
export const SANDBOX_TRACKING_PREFIX = "SBX";

/** The carrier's statuses: what the webhook accepts and what an order workflow's carrier event carries. */
export const CARRIER_EVENT_STATUSES = [
  "pre_transit",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failure",
  "return_to_sender",
] as const;
export type CarrierEventStatus = (typeof CARRIER_EVENT_STATUSES)[number];

/**
 * The statuses that mean the carrier has the parcel (it was scanned: In-Route). `delivered` is one too: a
 * delivery implies a pickup that may have been reported late or never (docs/product/windows.md, "Pickup and rebooking").
 */
export const SCANNED_CARRIER_STATUSES: ReadonlySet<string> = new Set<CarrierEventStatus>([
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
]);

/** Whether `status` is one of the carrier's statuses. */
export function isCarrierEventStatus(status: unknown): status is CarrierEventStatus {
  return (
    typeof status === "string" && (CARRIER_EVENT_STATUSES as readonly string[]).includes(status)
  );
}

/** The statuses the sandbox carrier (and staff's "simulate pickup" / "simulate delivery") sends. */
export const SIMULATED_STATUSES = [
  "picked_up",
  "in_transit",
  "delivered",
] as const satisfies readonly CarrierEventStatus[];

const STATUS_TEXT: Readonly<Record<CarrierEventStatus, { detail: string; message: string }>> =
  Object.freeze({
    pre_transit: { detail: "label_created", message: "Pickup scheduled. Label created." },
    picked_up: { detail: "picked_up", message: "Picked up by the carrier." },
    in_transit: {
      detail: "arrived_at_facility",
      message: "In transit: arrived at a carrier facility.",
    },
    out_for_delivery: { detail: "out_for_delivery", message: "Out for delivery." },
    delivered: { detail: "arrived_at_destination", message: "Delivered." },
    failure: { detail: "unknown", message: "Delivery failed." },
    return_to_sender: { detail: "return", message: "Returned to sender." },
  });

export function carrierStatusMessage(status: CarrierEventStatus): string {
  return STATUS_TEXT[status].message;
}

export const TrackingDetailSchema = z.object({
  object: z.literal("TrackingDetail"),
  message: z.string(),
  status: z.enum(CARRIER_EVENT_STATUSES),
  status_detail: z.string().optional(),
  datetime: z.string(),
  source: z.string().optional(),
});

export const CarrierTrackerSchema = z.object({
  id: z.string().min(1),
  object: z.literal("Tracker"),
  mode: z.enum(["test", "production"]).optional(),
  tracking_code: z.string().min(1).max(100),
  status: z.enum(CARRIER_EVENT_STATUSES),
  status_detail: z.string().optional(),
  carrier: z.string(),
  shipment_id: z.string().nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string(),
  tracking_details: z.array(TrackingDetailSchema).default([]),
});

/** A tracker event as the carrier posts it (the webhook endpoint parses the raw body with this). */
export const CarrierWebhookEventSchema = z.object({
  id: z.string().min(1).max(200),
  object: z.literal("Event"),
  description: z.literal("tracker.updated"),
  mode: z.enum(["test", "production"]),
  created_at: z.string().min(1),
  result: CarrierTrackerSchema,
});

export type TrackingDetail = z.infer<typeof TrackingDetailSchema>;
export type CarrierTracker = z.infer<typeof CarrierTrackerSchema>;
export type CarrierWebhookEvent = z.infer<typeof CarrierWebhookEventSchema>;

export interface CarrierEventInput {
  /** Unique per event (the webhook deduplicates by it): e.g. "evt_" + random. */
  eventId: string;
  trackingNumber: string;
  /** The carrier's shipment id (sandbox: "shp_..."). */
  shipmentId: string | null;
  status: CarrierEventStatus;
  /** ISO instant of the scan. */
  occurredAt: string;
  /** Earlier scans (oldest first), to make tracking_details the full history like the real API. */
  history?: { status: CarrierEventStatus; occurredAt: string }[];
  mode?: "test" | "production";
}

/** Builds a tracker.updated event (pure: ids and times come in). */
export function buildCarrierEvent(input: CarrierEventInput): CarrierWebhookEvent {
  const detail = (status: CarrierEventStatus, at: string): TrackingDetail => ({
    object: "TrackingDetail",
    message: STATUS_TEXT[status].message,
    status,
    status_detail: STATUS_TEXT[status].detail,
    datetime: at,
    source: SANDBOX_CARRIER_NAME,
  });
  const history = [
    ...(input.history ?? []),
    { status: input.status, occurredAt: input.occurredAt },
  ];
  return {
    id: input.eventId,
    object: "Event",
    description: "tracker.updated",
    mode: input.mode ?? "test",
    created_at: input.occurredAt,
    result: {
      id: `trk_${input.trackingNumber}`,
      object: "Tracker",
      mode: input.mode ?? "test",
      tracking_code: input.trackingNumber,
      status: input.status,
      status_detail: STATUS_TEXT[input.status].detail,
      carrier: SANDBOX_CARRIER_NAME,
      shipment_id: input.shipmentId,
      updated_at: input.occurredAt,
      tracking_details: history.map((h) => detail(h.status, h.occurredAt)),
    },
  };
}

/** What the webhook endpoint signals to the order's workflow (workflows/common/contract.ts CarrierEventSignal). */
export function carrierSignalOf(event: CarrierWebhookEvent): {
  eventId: string;
  status: CarrierEventStatus;
  trackingNumber: string;
  occurredAt: string;
  description: string;
} {
  return {
    eventId: event.id,
    status: event.result.status,
    trackingNumber: event.result.tracking_code,
    occurredAt: event.created_at,
    description: STATUS_TEXT[event.result.status].message,
  };
}

/** Parses a raw body (after the signature was verified). Bad JSON or shape -> null (answer 400). */
export function parseCarrierEvent(rawBody: string): CarrierWebhookEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const parsed = CarrierWebhookEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

// ---------------------------------------------------------------------------------------------------------
// The shipping label.

/** A street address as printed on a label (never a name: recipients are `retailer-00{id}`). */
export interface CarrierLabelAddress {
  address1: string;
  city: string;
  state: string;
  postalCode: string;
}

/**
 * What a shipping label prints, recorded by the carrier when the pickup is booked. The PDF is rendered from it
 * when someone opens the label (app/routes/shipping-label.$tracking.server.tsx), never on the approval's path.
 */
export interface CarrierLabelData {
  trackingNumber: string;
  callTag: string;
  externalId: string;
  senderId: number;
  receiverId: number;
  /** The recipient's street address (printed), never its name. */
  to: CarrierLabelAddress;
  units: number;
  /** ISO: when the label was created (printed as MM/DD/YYYY). */
  createdAt: string;
  /** ISO: end of the pickup window. */
  pickupBy: string;
}

/** Where returns go: the marketplace's returns desk at the carrier, so no seller address is printed. */
export const CARRIER_RETURNS_ADDRESS: CarrierLabelAddress = Object.freeze({
  address1: "c/o SandboxCarrier Returns, 100 Depot Way",
  city: "Memphis",
  state: "TN",
  postalCode: "38118",
});
