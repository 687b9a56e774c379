/**
 * Webhooks, both ends (docs/decisions/0010-checkout-and-webhooks.md). Wire formats: domain/carrier-events.ts
 * (carrier: EasyPost's tracker.updated event, `X-Hmac-Signature: hmac-sha256-hex=<hex HMAC-SHA256 of the raw
 * body>` with CARRIER_WEBHOOK_SECRET; the sandbox carrier signs in activities/carrier/signature.ts) and
 * domain/webhooks.ts (payments: Stripe's envelope and Stripe-Signature scheme).
 *
 * Receiving (app/routes/webhooks.carrier.tsx, webhooks.payments.tsx), an inbox (docs/decisions/0042-webhook-inbox.md):
 *   raw body (≤ 64 KiB, else 413) → HMAC signature over the RAW body (missing/forged/stale → 400) → JSON +
 *   Zod (→ 400) → the order it is about (unknown → 404, so that a carrier event that outruns our own
 *   shipment row is retried by the carrier) → INSERT webhook_events with the signal it is delivered as
 *   (primary key = provider event id; ON CONFLICT DO NOTHING) → signal the order's workflow (carrierEvent /
 *   paymentEvent of workflows/buy/contract.ts) → mark it delivered → 200. A duplicate answers 200 with
 *   `duplicate: true` and signals nothing; a failed signal still answers 200 (`queued: true`: the event is
 *   stored) and the worker's relay (workers/webhook-relay.ts) delivers it until the workflow has it.
 *
 * Sending (staff's "simulate pickup / delivery", through the same webhook path as the carrier):
 *   simulateCarrierEvent(orderId, status, shipmentId?) → { ok: true, eventId, httpStatus } | { ok: false, message }
 *   sendSignedCarrierEvent(event)         → POST APP_ORIGIN/webhooks/carrier with X-Hmac-Signature
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
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
  type PaymentEvent,
  signedPayload,
  timestampWithinTolerance,
} from "../../domain/webhooks";
import { orderEventMark } from "../../db/queries/orders";
import { ACTION } from "../../domain/action-codes";
import { findShipmentByTracking, recordShipmentEvent } from "../../db/queries/shipments";
import {
  findOrderForPayment,
  latestShipmentOfOrder,
  retryWebhookEventAt,
  settleWebhookEvent,
  storeWebhookEvent,
  type NewWebhookEvent,
  type WebhookDelivery,
  type WebhookProvider,
} from "../../db/queries/webhooks";
import { INBOX, inboxRetryDelayMs, type InboxOutcome } from "../../domain/webhook-inbox";
import { signalOutcome } from "../../temporal/inbox";
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
  /** Stored, not yet signalled: the worker's relay delivers it (docs/decisions/0042-webhook-inbox.md). */
  queued?: boolean;
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

/** The body's JSON; a NUL (U+0000) taken out of every string, since no text or jsonb column stores one. */
function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return {
      ok: true,
      value: JSON.parse(raw, (_key, v: unknown) =>
        typeof v === "string" && v.includes("\u0000") ? v.replace(/\u0000/g, "") : v,
      ),
    };
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

/**
 * An event as the endpoint keeps it before it answers: its row (`storeWebhookEvent`) and whether this request
 * inserted it (false: a duplicate).
 */
export interface StoredEvent {
  event: NewWebhookEvent;
  inserted: boolean;
}

/** The row of an event: delivered as `deliver`, or (null) kept for the record only, settled as `outcome`. */
function inboxRow(
  id: string,
  provider: WebhookProvider,
  type: string,
  payload: unknown,
  deliver: WebhookDelivery | null,
  outcome?: InboxOutcome,
): NewWebhookEvent {
  return {
    id,
    provider,
    type,
    payload,
    deliver,
    outcome,
    nextAttemptAt: new Date(Date.now() + INBOX.holdMs),
  };
}

async function store(event: NewWebhookEvent): Promise<StoredEvent> {
  return { event, inserted: await storeWebhookEvent(db, event) };
}

/**
 * The endpoint's answer once the event is stored (docs/decisions/0042-webhook-inbox.md): a duplicate is answered
 * as one; a new event is signalled at once and settled; if the signal fails, the event stays stored and the
 * worker's relay delivers it (the sender still gets 200: we have it). An event for a workflow that has ended
 * is settled as such.
 */
async function deliverStored({ event, inserted }: StoredEvent): Promise<Response> {
  const eventId = event.id;
  if (!inserted) return answer(200, { received: true, eventId, duplicate: true });
  const d = event.deliver;
  if (d === null)
    return answer(200, {
      received: true,
      eventId,
      ignored: event.outcome === "no_order" ? "no_order" : "status",
    });
  try {
    const client = await getTemporalClient();
    const outcome = await signalOutcome(() =>
      client.workflow.getHandle(d.workflowId).signal(d.signalName, d.signalArg),
    );
    await settleWebhookEvent(db, eventId, outcome);
    return answer(200, {
      received: true,
      eventId,
      ...(outcome === "order_closed" ? { ignored: "order_closed" } : {}),
    });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (!isTemporalUnavailable(err))
      console.error("[webhooks] signal failed; the relay delivers it", eventId, err);
    await retryWebhookEventAt(db, eventId, new Date(Date.now() + inboxRetryDelayMs(1)), why).catch(
      () => {},
    );
    return answer(200, { received: true, eventId, queued: true });
  }
}

/**
 * Stores a carrier event as the endpoint does, without delivering it (the endpoint then calls deliverStored;
 * the tests call this alone to stand for a web process that died before the signal). A tracking number we do
 * not know is a 404 (nothing stored), so the carrier retries: our shipment row may not exist yet.
 */
export async function storeCarrierEvent(ev: CarrierWebhookEvent): Promise<StoredEvent | Response> {
  const shipment = await findShipmentByTracking(db, ev.result.tracking_code);
  if (!shipment)
    return answer(404, { received: false, eventId: ev.id, error: "unknown tracking number" });
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
  const type = `${ev.description}:${ev.result.status}`;
  // A status the order's workflow does not act on (pre_transit, ...): kept in the history, not signalled.
  if (!isCarrierEventStatus(ev.result.status))
    return store(inboxRow(id, "carrier", type, ev, null, "ignored"));
  const payload: CarrierEventSignal = { ...signal, status: signal.status as CarrierStatus };
  return store(
    inboxRow(id, "carrier", type, ev, {
      workflowId: shipment.workflowId,
      signalName: carrierEventSignal.name,
      signalArg: payload,
    }),
  );
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
  const stored = await storeCarrierEvent(parsed.data);
  return stored instanceof Response ? stored : deliverStored(stored);
}

/** Stores a payment event as the endpoint does, without delivering it (see storeCarrierEvent). */
export async function storePaymentEvent(ev: PaymentEvent): Promise<StoredEvent> {
  const id = `payment:${ev.id}`;
  const target = await findOrderForPayment(db, paymentEventRefs(ev));
  // Events about objects that are not an order's (connected accounts, cards on file): stored, acknowledged.
  if (!target) return store(inboxRow(id, "payments", ev.type, ev, null, "no_order"));
  const signal: PaymentEventSignal = {
    eventId: ev.id,
    type: ev.type,
    paymentRef: ev.data.object.id ?? undefined,
    occurredAt: ev.created !== undefined ? new Date(ev.created * 1000).toISOString() : undefined,
  };
  return store(
    inboxRow(id, "payments", ev.type, ev, {
      workflowId: target.workflowId,
      signalName: paymentEventSignal.name,
      signalArg: signal,
    }),
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
  return deliverStored(await storePaymentEvent(parsed.data));
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
