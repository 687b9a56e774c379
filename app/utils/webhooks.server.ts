/**
 * Webhooks, both ends (docs/decisions/0010-checkout-and-webhooks.md). Wire formats: domain/carrier-events.ts
 * (carrier: EasyPost's tracker.updated event, `X-Hmac-Signature: hmac-sha256-hex=<hex HMAC-SHA256 of the raw
 * body>` with CARRIER_WEBHOOK_SECRET; the sandbox carrier signs in activities/carrier/signature.ts) and
 * domain/webhooks.ts (payments: Stripe's envelope and Stripe-Signature scheme).
 *
 * Receiving (app/routes/webhooks.carrier.tsx, webhooks.payments.tsx):
 *   raw body (≤ 64 KiB, else 413) → HMAC signature over the RAW body (missing/forged/stale → 400) → JSON +
 *   Zod (→ 400) → the order it is about (unknown → 404, so that a carrier event that outruns our own
 *   shipment row is retried by the carrier) → INSERT webhook_events (primary key = provider event id;
 *   ON CONFLICT DO NOTHING) → claim it (processed_at) → signal the order's workflow (carrierEvent /
 *   paymentEvent of workflows/buy/contract.ts) → 200. A duplicate answers 200 with `duplicate: true` and
 *   signals nothing; a failed signal un-claims the event and answers 503 so the retry signals it.
 *
 * Sending (staff's "simulate pickup / delivery", through the same webhook path as the carrier):
 *   simulateCarrierEvent(orderId, status, shipmentId?) → { ok: true, eventId, httpStatus } | { ok: false, message }
 *   sendSignedCarrierEvent(event)         → POST APP_ORIGIN/webhooks/carrier with X-Hmac-Signature
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { WorkflowNotFoundError } from "@temporalio/client";
import { paymentEventSignal, type PaymentEventSignal } from "../../workflows/buy/contract";
import {
  carrierEventSignal,
  type CarrierEventSignal,
  type CarrierStatus,
} from "../../workflows/common/contract";
import {
  buildCarrierEvent,
  CARRIER_SIGNATURE_HEADER,
  CARRIER_SIGNATURE_PREFIX,
  CARRIER_WEBHOOK_PATH,
  CarrierWebhookEventSchema,
  carrierSignalOf,
  isCarrierEventStatus,
  type CarrierEventStatus,
  type CarrierWebhookEvent,
} from "../../domain/carrier-events";
import {
  formatSignatureHeader,
  MAX_WEBHOOK_BODY_BYTES,
  parseSignatureHeader,
  PAYMENT_SIGNATURE_HEADER,
  PaymentEventSchema,
  paymentEventRefs,
  signedPayload,
  timestampWithinTolerance,
} from "../../domain/webhooks";
import { orderEventMark } from "../../db/queries/orders";
import { ACTION } from "../../domain/action-codes";
import { findShipmentByTracking, recordShipmentEvent } from "../../db/queries/shipments";
import {
  claimWebhookEvent,
  findOrderForPayment,
  latestShipmentOfOrder,
  storeWebhookEvent,
  unclaimWebhookEvent,
  type WebhookOrderRef,
} from "../../db/queries/webhooks";
import { db } from "./db.server";
import { getEnv, paymentsProvider, type Env } from "./env.server";
import { getTemporalClient, isTemporalUnavailable } from "./temporal.server";

// ---------------------------------------------------------------------------------------------------------
// Signatures.

export function hmacHex(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload, "utf8").digest("hex");
}

/** The signature header for a body signed now (or at `timestamp`, unix seconds). */
export function signWebhookBody(
  secret: string,
  rawBody: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return formatSignatureHeader(timestamp, hmacHex(secret, signedPayload(timestamp, rawBody)));
}

export type SignatureVerdict =
  | { ok: true }
  | { ok: false; reason: "missing" | "malformed" | "stale" | "mismatch" };

/** Checks a `t=...,v1=...` header against the raw body (constant-time compare; any v1 may match). */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  header: string | null | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureVerdict {
  if (!header) return { ok: false, reason: "missing" };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: "malformed" };
  if (!timestampWithinTolerance(parsed.timestamp, nowSeconds))
    return { ok: false, reason: "stale" };
  const expected = Buffer.from(hmacHex(secret, signedPayload(parsed.timestamp, rawBody)), "hex");
  const match = parsed.signatures.some((s) => {
    const got = Buffer.from(s, "hex");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  return match ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** The carrier's header value for a raw body (EasyPost's scheme, as activities/carrier/signature.ts signs). */
export function signCarrierBody(secret: string, rawBody: string): string {
  return `${CARRIER_SIGNATURE_PREFIX}${hmacHex(secret, rawBody)}`;
}

/** Checks `X-Hmac-Signature: hmac-sha256-hex=<hex>` against the raw body (constant-time compare). */
export function verifyCarrierSignature(
  secret: string,
  rawBody: string,
  header: string | null | undefined,
): SignatureVerdict {
  if (!header) return { ok: false, reason: "missing" };
  const value = header.trim();
  if (!value.startsWith(CARRIER_SIGNATURE_PREFIX)) return { ok: false, reason: "malformed" };
  const given = value.slice(CARRIER_SIGNATURE_PREFIX.length).trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return { ok: false, reason: "malformed" };
  const expected = Buffer.from(hmacHex(secret, rawBody), "hex");
  return timingSafeEqual(Buffer.from(given, "hex"), expected)
    ? { ok: true }
    : { ok: false, reason: "mismatch" };
}

export function carrierWebhookSecret(env: Env = getEnv()): string {
  return env.CARRIER_WEBHOOK_SECRET;
}

/**
 * Stripe adapter: STRIPE_WEBHOOK_SECRET (never the sandbox's public default; getEnv refuses Stripe keys
 * without it); sandbox payments: SANDBOX_WEBHOOK_SECRET.
 */
export function paymentWebhookSecret(env: Env = getEnv()): string {
  if (paymentsProvider(env) === "sandbox") return env.SANDBOX_WEBHOOK_SECRET;
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw new Error("STRIPE_WEBHOOK_SECRET is not set: payment webhooks cannot be verified");
  return env.STRIPE_WEBHOOK_SECRET;
}

// ---------------------------------------------------------------------------------------------------------
// Receiving.

export interface WebhookAnswer {
  received: boolean;
  eventId?: string;
  duplicate?: boolean;
  /** Why nothing was signalled (the event is still stored). */
  ignored?: string;
  error?: string;
}

function answer(status: number, body: WebhookAnswer): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The raw body as text, or a 4xx answer (too large / unreadable). */
async function readRawBody(request: Request): Promise<string | Response> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BODY_BYTES)
    return new Response("Payload too large", { status: 413 });
  let buf: ArrayBuffer;
  try {
    buf = await request.arrayBuffer();
  } catch {
    return new Response("Bad request", { status: 400 });
  }
  if (buf.byteLength > MAX_WEBHOOK_BODY_BYTES)
    return new Response("Payload too large", { status: 413 });
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return new Response("Bad request", { status: 400 });
  }
}

function issueText(error: { issues: { path: (string | number)[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "bad payload";
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

async function verifiedBody(
  request: Request,
  verify: (raw: string, header: string | null) => SignatureVerdict,
  headerName: string,
): Promise<{ value: unknown } | Response> {
  if (request.method !== "POST")
    return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
  const raw = await readRawBody(request);
  if (typeof raw !== "string") return raw;
  const verdict = verify(raw, request.headers.get(headerName));
  if (!verdict.ok)
    return answer(400, { received: false, error: `invalid signature (${verdict.reason})` });
  const json = parseJson(raw);
  if (!json.ok) return answer(400, { received: false, error: "the body is not JSON" });
  return { value: json.value };
}

/** Store, claim, signal; the common tail of both endpoints. */
async function storeAndSignal(
  stored: { id: string; provider: "carrier" | "payments"; type: string; payload: unknown },
  target: WebhookOrderRef,
  signal: ((workflowId: string) => Promise<void>) | null,
): Promise<Response> {
  await storeWebhookEvent(db, stored);
  if (!(await claimWebhookEvent(db, stored.id)))
    return answer(200, { received: true, eventId: stored.id, duplicate: true });
  // A status the order's workflow does not act on (pre_transit, ...): kept in the history, not signalled.
  if (signal === null)
    return answer(200, { received: true, eventId: stored.id, ignored: "status" });
  try {
    await signal(target.workflowId);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      // The order's workflow has finished (or never ran): the event is kept, nothing is left to move.
      return answer(200, { received: true, eventId: stored.id, ignored: "order_closed" });
    }
    await unclaimWebhookEvent(db, stored.id);
    if (isTemporalUnavailable(err))
      return answer(503, {
        received: false,
        eventId: stored.id,
        error: "temporarily unavailable, retry",
      });
    console.error("[webhooks] signal failed", stored.id, err);
    return answer(503, {
      received: false,
      eventId: stored.id,
      error: "could not process the event, retry",
    });
  }
  return answer(200, { received: true, eventId: stored.id });
}

/** POST /webhooks/carrier */
export async function handleCarrierWebhook(request: Request): Promise<Response> {
  const secret = carrierWebhookSecret();
  const body = await verifiedBody(
    request,
    (raw, header) => verifyCarrierSignature(secret, raw, header),
    CARRIER_SIGNATURE_HEADER,
  );
  if (body instanceof Response) return body;
  const parsed = CarrierWebhookEventSchema.safeParse(body.value);
  if (!parsed.success)
    return answer(400, { received: false, error: `invalid event: ${issueText(parsed.error)}` });
  const ev = parsed.data;
  const shipment = await findShipmentByTracking(db, ev.result.tracking_code);
  // Unknown tracking number: 404 (not stored), so the carrier retries; our shipment row may not exist yet.
  if (!shipment)
    return answer(404, { received: false, eventId: ev.id, error: "unknown tracking number" });
  const target: WebhookOrderRef = {
    orderId: shipment.orderId,
    workflowId: shipment.workflowId,
    shipmentId: shipment.shipmentId,
  };
  const id = `carrier:${ev.id}`;
  const signal = carrierSignalOf(ev);
  const at = new Date(signal.occurredAt);
  // The tracking history (a shipment's events), once per carrier event id.
  await recordShipmentEvent(db, {
    trackingNumber: ev.result.tracking_code,
    providerEventId: id,
    status: ev.result.status,
    description: signal.description,
    eventTimestamp: Number.isNaN(at.getTime()) ? new Date() : at,
  });
  const signalable = isCarrierEventStatus(ev.result.status);
  const send = async (workflowId: string) => {
    const client = await getTemporalClient();
    const payload: CarrierEventSignal = { ...signal, status: signal.status as CarrierStatus };
    await client.workflow.getHandle(workflowId).signal(carrierEventSignal, payload);
  };
  return storeAndSignal(
    { id, provider: "carrier", type: `${ev.description}:${ev.result.status}`, payload: ev },
    target,
    signalable ? send : null,
  );
}

/** POST /webhooks/payments */
export async function handlePaymentWebhook(request: Request): Promise<Response> {
  const secret = paymentWebhookSecret();
  const body = await verifiedBody(
    request,
    (raw, header) => verifyWebhookSignature(secret, raw, header),
    PAYMENT_SIGNATURE_HEADER,
  );
  if (body instanceof Response) return body;
  const parsed = PaymentEventSchema.safeParse(body.value);
  if (!parsed.success)
    return answer(400, { received: false, error: `invalid event: ${issueText(parsed.error)}` });
  const ev = parsed.data;
  const target = await findOrderForPayment(db, paymentEventRefs(ev));
  // Events about objects that are not an order's (connected accounts, cards on file): stored, acknowledged.
  if (!target) {
    const inserted = await storeWebhookEvent(db, {
      id: `payment:${ev.id}`,
      provider: "payments",
      type: ev.type,
      payload: ev,
    });
    return answer(200, {
      received: true,
      eventId: `payment:${ev.id}`,
      ...(inserted ? { ignored: "no_order" } : { duplicate: true }),
    });
  }
  const id = `payment:${ev.id}`;
  return storeAndSignal(
    { id, provider: "payments", type: ev.type, payload: ev },
    target,
    async (workflowId) => {
      const signal: PaymentEventSignal = {
        eventId: ev.id,
        type: ev.type,
        paymentRef: ev.data.object.id ?? undefined,
        occurredAt:
          ev.created !== undefined ? new Date(ev.created * 1000).toISOString() : undefined,
      };
      const client = await getTemporalClient();
      await client.workflow.getHandle(workflowId).signal(paymentEventSignal, signal);
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Sending (the sandbox carrier as staff drive it).

export interface SendResult {
  httpStatus: number;
  body: WebhookAnswer | null;
}

/** Signs a carrier event with CARRIER_WEBHOOK_SECRET and POSTs it to APP_ORIGIN/webhooks/carrier. */
export async function sendSignedCarrierEvent(
  event: CarrierWebhookEvent,
  opts: { origin?: string; secret?: string } = {},
): Promise<SendResult> {
  const env = getEnv();
  const raw = JSON.stringify(event);
  const res = await fetch(new URL(CARRIER_WEBHOOK_PATH, opts.origin ?? env.APP_ORIGIN), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [CARRIER_SIGNATURE_HEADER]: signCarrierBody(opts.secret ?? carrierWebhookSecret(env), raw),
    },
    body: raw,
    signal: AbortSignal.timeout(15_000),
  });
  let body: WebhookAnswer | null = null;
  try {
    body = (await res.json()) as WebhookAnswer;
  } catch {
    body = null;
  }
  return { httpStatus: res.status, body };
}

export type SimulateResult =
  | { ok: true; eventId: string; httpStatus: number; duplicate: boolean; settled: boolean }
  | { ok: false; message: string; httpStatus?: number };

/** How long staff's simulate action waits for the order's workflow to write the step the event caused. */
const SIMULATE_SETTLE_MS = 5_000;
const SIMULATE_SETTLE_POLL_MS = 20;

/**
 * Waits until the order's workflow has written the step the event caused (true), or the time is up (false:
 * an event that changes nothing, or a slow workflow). A scan is written as its own action (110 picked up,
 * 119 delivered: a swap's first parcel scanned changes no state, so the action is the mark); any other event
 * as another state. A write of the same state (the payout released after a pickup, say) does not count.
 */
async function orderStepWritten(
  orderId: number,
  before: EventMark,
  timeoutMs = SIMULATE_SETTLE_MS,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = await eventMark(orderId, before.code);
    if (
      now.statename === null ||
      (before.code === null ? now.statename !== before.statename : now.scans > before.scans)
    )
      return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, SIMULATE_SETTLE_POLL_MS));
  }
}

interface EventMark {
  code: number | null;
  statename: string | null;
  scans: number;
}
const SCAN_CODE: Partial<Record<CarrierEventStatus, number>> = {
  picked_up: ACTION.SHIPMENT_PICKED_UP,
  delivered: ACTION.SHIPMENT_DELIVERED,
};

async function eventMark(orderId: number, code: number | null): Promise<EventMark> {
  const mark = await orderEventMark(db, orderId, code);
  return { code, statename: mark?.statename ?? null, scans: mark?.scans ?? 0 };
}

/**
 * Staff: "simulate pickup" (picked_up) / "simulate delivery" (delivered) of an order's latest shipment (or
 * the one named: a swap has a parcel each way). The
 * event goes through the signed webhook like the carrier's; the answer then waits (up to 5 s) until the
 * order's workflow has written the state it caused, so the page staff land on already shows it (no
 * reloading in a loop). A duplicate answers at once and an event that changes nothing when the time is up,
 * both with `settled: false`.
 */
export async function simulateCarrierEvent(
  orderId: number,
  status: CarrierEventStatus,
  shipmentId?: number | null,
): Promise<SimulateResult> {
  const shipment = await latestShipmentOfOrder(db, orderId, shipmentId);
  if (!shipment?.trackingNumber)
    return { ok: false, message: "This order has no shipment with a tracking number yet." };
  const before = await eventMark(orderId, SCAN_CODE[status] ?? null);
  const eventId = `evt_sim_${randomUUID().replace(/-/g, "")}`;
  const event = buildCarrierEvent({
    eventId,
    trackingNumber: shipment.trackingNumber,
    shipmentId: null,
    status,
    occurredAt: new Date().toISOString(),
  });
  let sent: SendResult;
  try {
    sent = await sendSignedCarrierEvent(event);
  } catch (err) {
    console.error("[webhooks] simulate: could not reach the webhook endpoint", err);
    return { ok: false, message: "The carrier webhook could not be reached. Please try again." };
  }
  if (sent.httpStatus !== 200) {
    return {
      ok: false,
      httpStatus: sent.httpStatus,
      message: `The carrier webhook answered ${sent.httpStatus}${sent.body?.error ? `: ${sent.body.error}` : ""}.`,
    };
  }
  const duplicate = sent.body?.duplicate === true;
  const settled = duplicate ? false : await orderStepWritten(orderId, before);
  return { ok: true, eventId, httpStatus: sent.httpStatus, duplicate, settled };
}
