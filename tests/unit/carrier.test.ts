/**
 * The sandbox carrier's pure parts: the tracker event format (EasyPost-shaped, statuses = every order workflow's
 * CarrierStatus), the HMAC signature of the raw body, and the PDF label, which must be anonymous: the
 * recipient is `retailer-00{id}` plus a street address, and no store name, e-mail or phone appears
 * (checked with pdftotext on the rendered PDF).
 */
import { describe, expect, test } from "vitest";
import { renderLabelPdf } from "../../app/routes/shipping-label.$tracking.server";
import { signCarrierEvent, verifyCarrierSignature } from "../../activities/carrier/signature";
import {
  buildCarrierEvent,
  CARRIER_EVENT_STATUSES,
  CARRIER_SIGNATURE_PREFIX,
  CarrierWebhookEventSchema,
  carrierSignalOf,
  parseCarrierEvent,
  SCANNED_CARRIER_STATUSES,
} from "../../domain/carrier-events";
import { printedText } from "../setup/pdf-text";

const SECRET = "carrier_test_secret";

describe("carrier events", () => {
  const event = buildCarrierEvent({
    eventId: "evt_1",
    trackingNumber: "SBX12345678901234",
    shipmentId: "shp_sandbox_1",
    status: "in_transit",
    occurredAt: "2026-03-02T15:00:00.000Z",
    history: [{ status: "picked_up", occurredAt: "2026-03-02T14:00:00.000Z" }],
  });

  test("the scanned statuses (every order workflow's In-Route) are carrier statuses, pre_transit not among them", () => {
    expect(
      [...SCANNED_CARRIER_STATUSES].every((s) =>
        (CARRIER_EVENT_STATUSES as readonly string[]).includes(s),
      ),
    ).toBe(true);
    expect(SCANNED_CARRIER_STATUSES.has("pre_transit")).toBe(false);
  });

  test("a tracker.updated event shaped like EasyPost's, with the scan history", () => {
    expect(CarrierWebhookEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      id: "evt_1",
      object: "Event",
      description: "tracker.updated",
      mode: "test",
      result: {
        object: "Tracker",
        tracking_code: "SBX12345678901234",
        status: "in_transit",
        shipment_id: "shp_sandbox_1",
      },
    });
    expect(event.result.tracking_details.map((d) => d.status)).toEqual(["picked_up", "in_transit"]);
    expect(carrierSignalOf(event)).toEqual({
      eventId: "evt_1",
      status: "in_transit",
      trackingNumber: "SBX12345678901234",
      occurredAt: "2026-03-02T15:00:00.000Z",
      description: expect.any(String),
    });
  });

  test("parseCarrierEvent: bad JSON, unknown statuses and other shapes are refused", () => {
    expect(parseCarrierEvent(JSON.stringify(event))).toEqual(event);
    expect(parseCarrierEvent("{not json")).toBeNull();
    expect(
      parseCarrierEvent(
        JSON.stringify({ ...event, result: { ...event.result, status: "teleported" } }),
      ),
    ).toBeNull();
    expect(
      parseCarrierEvent(JSON.stringify({ ...event, description: "shipment.invoice.created" })),
    ).toBeNull();
  });
});

describe("carrier signature", () => {
  const body = JSON.stringify(
    buildCarrierEvent({
      eventId: "evt_2",
      trackingNumber: "SBX1",
      shipmentId: null,
      status: "delivered",
      occurredAt: "2026-03-03T10:00:00.000Z",
    }),
  );

  test("header is hmac-sha256-hex=<hex HMAC-SHA256 of the raw body>", async () => {
    const { createHmac } = await import("node:crypto");
    const header = signCarrierEvent(body, SECRET);
    expect(header).toBe(
      `${CARRIER_SIGNATURE_PREFIX}${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    );
    expect(header).toMatch(/^hmac-sha256-hex=[0-9a-f]{64}$/);
  });

  test("verifies its own signature; refuses another secret, a changed body, and malformed headers", () => {
    const header = signCarrierEvent(body, SECRET);
    expect(verifyCarrierSignature(body, header, SECRET)).toBe(true);
    expect(verifyCarrierSignature(Buffer.from(body), header, SECRET)).toBe(true);
    expect(verifyCarrierSignature(body, signCarrierEvent(body, "forged"), SECRET)).toBe(false);
    expect(verifyCarrierSignature(body.replace("delivered", "picked_up"), header, SECRET)).toBe(
      false,
    );
    expect(verifyCarrierSignature(JSON.stringify(JSON.parse(body), null, 2), header, SECRET)).toBe(
      false,
    );
    for (const bad of [
      null,
      undefined,
      "",
      "sha256=abc",
      `${CARRIER_SIGNATURE_PREFIX}zz`,
      `${CARRIER_SIGNATURE_PREFIX}${"a".repeat(63)}`,
    ]) {
      expect(verifyCarrierSignature(body, bad, SECRET)).toBe(false);
    }
  });
});

describe("shipping label PDF", () => {
  const LABEL = {
    trackingNumber: "SBX99887766554433",
    callTag: "CT-ORD-42-1-AB12",
    externalId: "ORD-42",
    senderId: 17,
    receiverId: 23,
    to: { address1: "55 Elm Street", city: "Springfield", state: "IL", postalCode: "62701" },
    units: 3,
    createdAt: "2026-03-02T15:00:00.000Z",
    pickupBy: "2026-03-04T22:00:00.000Z",
  };

  test("names the recipient only as retailer-00{id} with its street address; no store name, e-mail or phone", async () => {
    const pdf = await renderLabelPdf(LABEL, "America/New_York");
    const text = printedText(pdf, [
      "retailer-0023",
      "retailer-0017",
      "55 Elm Street",
      "Springfield, IL 62701",
      "SBX99887766554433",
      "CT-ORD-42-1-AB12",
      "03/04/2026",
    ]);
    // Nothing else that could identify a store: no e-mail, no phone number, no "Store"/"LLC" names.
    expect(text).not.toMatch(/@/);
    expect(text).not.toMatch(/\d{3}-\d{3}-\d{4}|\(\d{3}\)/);
    expect(text).not.toMatch(/store|llc|inc\b/i);
  });

  test("prints its dates in the marketplace's time zone, as the packing slip and the order page do", async () => {
    // Approved on a Monday evening in New York (after 19:00 there it is already Tuesday in UTC): the pickup is due
    // on Wednesday evening, New York time.
    const pdf = await renderLabelPdf(
      { ...LABEL, createdAt: "2026-03-03T01:30:00.000Z", pickupBy: "2026-03-05T01:30:00.000Z" },
      "America/New_York",
    );
    const text = printedText(pdf, ["Label created: 03/02/2026", "Pickup by: 03/04/2026"]);
    expect(text).not.toContain("03/05/2026");
  });
});
