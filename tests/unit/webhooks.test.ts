/**
 * Webhook signatures (app/utils/webhooks.server.ts):
 * - payments: Stripe's scheme (domain/webhooks.ts), so the Stripe SDK must accept what we sign and we must
 *   accept what it signs; forged, stale, tampered and malformed signatures are refused.
 * - carrier: EasyPost's scheme (domain/carrier-events.ts); what the sandbox carrier signs
 *   (activities/carrier/signature.ts) verifies here, and the other way round.
 */
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import {
  buildCarrierEvent,
  CarrierWebhookEventSchema,
  CARRIER_SIGNATURE_PREFIX,
} from "../../domain/carrier-events";
import {
  signCarrierEvent,
  verifyCarrierSignature as senderVerify,
} from "../../activities/carrier/signature";
import {
  formatSignatureHeader,
  parseSignatureHeader,
  PaymentEventSchema,
  paymentEventRefs,
  SIGNATURE_TOLERANCE_SECONDS,
} from "../../domain/webhooks";
import {
  hmacHex,
  signCarrierBody,
  signWebhookBody,
  verifyCarrierSignature,
  verifyWebhookSignature,
} from "../../app/utils/webhooks.server";

const SECRET = "whsec_test_secret_123";
const body = JSON.stringify({
  id: "evt_1",
  type: "payment_intent.succeeded",
  data: { object: { id: "pi_1" } },
});
const now = 1_750_000_000;

describe("signature header format", () => {
  test("t=<unix>,v1=<hex> round-trips", () => {
    const h = formatSignatureHeader(now, "a".repeat(64));
    expect(h).toBe(`t=${now},v1=${"a".repeat(64)}`);
    expect(parseSignatureHeader(h)).toEqual({ timestamp: now, signatures: ["a".repeat(64)] });
  });
  test("several v1 (secret rotation) and unknown schemes are tolerated", () => {
    const h = `t=${now},v0=zzz,v1=${"b".repeat(64)},v1=${"c".repeat(64)}`;
    expect(parseSignatureHeader(h)?.signatures).toEqual(["b".repeat(64), "c".repeat(64)]);
  });
  test.each([
    null,
    undefined,
    "",
    "garbage",
    "t=abc,v1=" + "a".repeat(64),
    `t=${now}`,
    `v1=${"a".repeat(64)}`,
    `t=${now},v1=short`,
    "x".repeat(5000),
  ])("rejects %s", (h) => {
    expect(parseSignatureHeader(h as string)).toBeNull();
  });
});

describe("verifyWebhookSignature", () => {
  test("accepts our own signature", () => {
    expect(verifyWebhookSignature(SECRET, body, signWebhookBody(SECRET, body, now), now)).toEqual({
      ok: true,
    });
  });
  test("is HMAC-SHA256 over '<t>.<raw body>'", () => {
    expect(signWebhookBody(SECRET, body, now)).toBe(
      `t=${now},v1=${hmacHex(SECRET, `${now}.${body}`)}`,
    );
  });
  test("missing header", () => {
    expect(verifyWebhookSignature(SECRET, body, null, now)).toEqual({
      ok: false,
      reason: "missing",
    });
  });
  test("malformed header", () => {
    expect(verifyWebhookSignature(SECRET, body, "sha256=abc", now)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
  test("forged: signed with another secret", () => {
    expect(
      verifyWebhookSignature(SECRET, body, signWebhookBody("whsec_attacker", body, now), now),
    ).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });
  test("tampered body (one byte, or re-serialised JSON) fails: the RAW body is signed", () => {
    const header = signWebhookBody(SECRET, body, now);
    expect(verifyWebhookSignature(SECRET, body.replace("pi_1", "pi_2"), header, now).ok).toBe(
      false,
    );
    expect(
      verifyWebhookSignature(SECRET, JSON.stringify(JSON.parse(body), null, 2), header, now).ok,
    ).toBe(false);
  });
  test("a signature for another timestamp does not verify with this one", () => {
    const sig = hmacHex(SECRET, `${now}.${body}`);
    expect(verifyWebhookSignature(SECRET, body, formatSignatureHeader(now + 1, sig), now).ok).toBe(
      false,
    );
  });
  test("stale or future timestamps outside the tolerance are refused (replays)", () => {
    const old = now - SIGNATURE_TOLERANCE_SECONDS - 1;
    expect(verifyWebhookSignature(SECRET, body, signWebhookBody(SECRET, body, old), now)).toEqual({
      ok: false,
      reason: "stale",
    });
    const future = now + SIGNATURE_TOLERANCE_SECONDS + 1;
    expect(
      verifyWebhookSignature(SECRET, body, signWebhookBody(SECRET, body, future), now),
    ).toEqual({ ok: false, reason: "stale" });
    expect(
      verifyWebhookSignature(
        SECRET,
        body,
        signWebhookBody(SECRET, body, now - SIGNATURE_TOLERANCE_SECONDS),
        now,
      ).ok,
    ).toBe(true);
  });
  test("any one matching v1 is enough (rotation)", () => {
    const good = hmacHex(SECRET, `${now}.${body}`);
    expect(
      verifyWebhookSignature(SECRET, body, `t=${now},v1=${"0".repeat(64)},v1=${good}`, now).ok,
    ).toBe(true);
  });
});

describe("compatible with Stripe's own webhook signatures", () => {
  const stripe = new Stripe("sk_test_123");
  test("Stripe's SDK accepts what we sign", () => {
    const header = signWebhookBody(SECRET, body);
    const ev = stripe.webhooks.constructEvent(body, header, SECRET);
    expect(ev.id).toBe("evt_1");
  });
  test("we accept what Stripe's SDK signs", () => {
    const header = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: SECRET,
      timestamp: now,
    });
    expect(verifyWebhookSignature(SECRET, body, header, now)).toEqual({ ok: true });
  });
});

describe("carrier signatures (X-Hmac-Signature: hmac-sha256-hex=<hex of the raw body>)", () => {
  const event = buildCarrierEvent({
    eventId: "evt_1",
    trackingNumber: "SBX1",
    shipmentId: null,
    status: "picked_up",
    occurredAt: "2025-01-02T15:00:00.000Z",
  });
  const raw = JSON.stringify(event);
  test("what the sandbox carrier signs verifies here, and ours verifies there", () => {
    expect(verifyCarrierSignature(SECRET, raw, signCarrierEvent(raw, SECRET))).toEqual({
      ok: true,
    });
    expect(senderVerify(raw, signCarrierBody(SECRET, raw), SECRET)).toBe(true);
    expect(signCarrierBody(SECRET, raw)).toBe(`${CARRIER_SIGNATURE_PREFIX}${hmacHex(SECRET, raw)}`);
  });
  test("missing, malformed, forged and tampered are refused", () => {
    expect(verifyCarrierSignature(SECRET, raw, undefined)).toEqual({
      ok: false,
      reason: "missing",
    });
    expect(verifyCarrierSignature(SECRET, raw, "sha256=" + "a".repeat(64))).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyCarrierSignature(SECRET, raw, CARRIER_SIGNATURE_PREFIX + "xyz")).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyCarrierSignature(SECRET, raw, signCarrierBody("other-secret", raw))).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(
      verifyCarrierSignature(
        SECRET,
        raw.replace("picked_up", "delivered"),
        signCarrierBody(SECRET, raw),
      ),
    ).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });
  test("upper-case hex is accepted", () => {
    const h = signCarrierBody(SECRET, raw);
    expect(
      verifyCarrierSignature(
        SECRET,
        raw,
        CARRIER_SIGNATURE_PREFIX + h.slice(CARRIER_SIGNATURE_PREFIX.length).toUpperCase(),
      ).ok,
    ).toBe(true);
  });
});

describe("event schemas", () => {
  test("the sandbox carrier's event parses", () => {
    const ev = buildCarrierEvent({
      eventId: "sim_1",
      trackingNumber: "SBX123",
      shipmentId: null,
      status: "picked_up",
      occurredAt: "2025-01-02T15:00:00.000Z",
    });
    const parsed = CarrierWebhookEventSchema.parse(JSON.parse(JSON.stringify(ev)));
    expect(parsed.result).toMatchObject({ tracking_code: "SBX123", status: "picked_up" });
  });
  test.each([
    {},
    { id: "e", description: "tracker.updated" },
    {
      id: "e",
      object: "Event",
      description: "tracker.updated",
      mode: "test",
      created_at: "x",
      result: { tracking_code: "X", status: "teleported" },
    },
  ])("carrier payload %# is refused", (p) => {
    expect(CarrierWebhookEventSchema.safeParse(p).success).toBe(false);
  });
  test("payment events: Stripe's envelope; refs from the object and metadata", () => {
    const ev = PaymentEventSchema.parse({
      id: "evt_9",
      object: "event",
      type: "charge.refunded",
      created: now,
      data: {
        object: {
          id: "ch_1",
          object: "charge",
          payment_intent: "pi_7",
          metadata: { order_id: "42" },
          amount: 100,
        },
      },
    });
    expect(paymentEventRefs(ev)).toEqual({ orderId: 42, refs: ["ch_1", "pi_7"] });
    expect(
      paymentEventRefs(
        PaymentEventSchema.parse({
          id: "e",
          type: "t",
          data: { object: { metadata: { order_id: "-1" } } },
        }),
      ),
    ).toEqual({
      orderId: null,
      refs: [],
    });
    expect(PaymentEventSchema.safeParse({ id: "evt", type: "x" }).success).toBe(false);
    expect(PaymentEventSchema.safeParse({ id: 5, type: "x", data: { object: {} } }).success).toBe(
      false,
    );
  });
});
