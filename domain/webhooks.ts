/**
 * Payment-provider webhooks: the wire format both ends share (pure: no crypto, no clock). The HMAC itself is
 * computed with node:crypto by the sender (the sandbox payments adapter) and by the receiver
 * (app/utils/webhooks.server.ts), over exactly `signedPayload(t, rawBody)`.
 *
 * Signature scheme (Stripe's):
 *   Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${rawBody}`)>
 *   secret STRIPE_WEBHOOK_SECRET (Stripe adapter) or SANDBOX_WEBHOOK_SECRET (sandbox adapter)
 * A signature older (or newer) than SIGNATURE_TOLERANCE_SECONDS is refused (replay window); several v1=
 * entries are allowed (secret rotation: any one that matches is enough).
 * Events are Stripe's envelope (`{ id, type, created, data: { object } }`).
 *
 * Carrier webhooks have their own format and signature (EasyPost's): domain/carrier-events.ts.
 * See docs/decisions/0010-checkout-and-webhooks.md.
 */
import { z } from "zod";
import { rowIdOf } from "./ids";

export const PAYMENT_SIGNATURE_HEADER = "Stripe-Signature";
/** Stripe's default tolerance. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Bodies larger than this are refused before anything is parsed (413). */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** The string that is signed. */
export function signedPayload(timestamp: number, rawBody: string): string {
  return `${timestamp}.${rawBody}`;
}

export function formatSignatureHeader(timestamp: number, hexSignature: string): string {
  return `t=${timestamp},v1=${hexSignature}`;
}

/** t and every v1 of a signature header, or null when it is not one. */
export function parseSignatureHeader(
  header: string | null | undefined,
): { timestamp: number; signatures: string[] } | null {
  if (typeof header !== "string" || header.length === 0 || header.length > 2048) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/** Whether a signature's timestamp is within the tolerance of `nowSeconds`. */
export function timestampWithinTolerance(
  timestamp: number,
  nowSeconds: number,
  tolerance = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  return Math.abs(nowSeconds - timestamp) <= tolerance;
}

// ---------------------------------------------------------------------------------------------------------
// Payment events (Stripe's event envelope).

export const PaymentEventSchema = z.object({
  /** The provider's event id ("evt_..."): the dedupe key (webhook_events.id = "payment:<id>"). */
  id: z.string().trim().min(1).max(200),
  object: z.literal("event").optional(),
  type: z.string().trim().min(1).max(100),
  /** Unix seconds. */
  created: z.number().int().nonnegative().optional(),
  data: z.object({
    object: z
      .object({
        /** The intent / charge / refund / transfer id. */
        id: z.string().max(200).optional(),
        object: z.string().max(50).optional(),
        payment_intent: z.string().max(200).nullable().optional(),
        metadata: z.record(z.string().max(500)).optional(),
      })
      .passthrough(),
  }),
});
export type PaymentEvent = z.infer<typeof PaymentEventSchema>;

/** The ids of our records a payment event may point at (order id from metadata, the provider object ids). */
export function paymentEventRefs(ev: PaymentEvent): { orderId: number | null; refs: string[] } {
  const o = ev.data.object;
  const raw = o.metadata?.order_id;
  const orderId = raw ? rowIdOf(raw) : null;
  const refs = [o.id, o.payment_intent].filter(
    (x): x is string => typeof x === "string" && x.length > 0,
  );
  return { orderId, refs };
}
