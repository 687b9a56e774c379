/**
 * The Temporal Web UI's view of an order through the codec server (ADR 0040), as the UI calls it: the e2e
 * stack's Temporal runs headless (scripts/test.mjs starts `temporal server start-dev --headless`), so the UI itself
 * is not driven here. What it does is: read a workflow's history, send the sealed payloads to the codec endpoint
 * (after a CORS preflight from its origin) with the browser's cookies and the `X-Namespace` header, and show what
 * comes back. This file does the same with a real purchase's history: a staff user holding "ops.decode" gets the
 * order's input opened; staff without it, a retailer (the buyer of that very order) and nobody signed in get
 * nothing (403 / 401, no payload). tests/e2e/production-safety.test.ts covers the endpoint's other answers.
 */
import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PAYLOAD_DECODE_PERMISSION } from "../../domain/staff-users";
import { payloadFromJson, payloadToJson, type JsonPayload } from "../../temporal/codec";
import {
  createBrand,
  createCollection,
  createListing,
  createProduct,
  createRetailer,
  createStaffUser,
  DEFAULT_TEST_PASSWORD,
  SIZE_RUNS,
} from "../factories";
import { buyWorkflowId, closeTemporal, startBuyOrder, temporal } from "./buy-helpers";
import { db } from "./harness";
import { baseUrl, freshEmail, HttpClient } from "./http";

const uiOrigin = new URL(process.env.TEMPORAL_UI_URL ?? "http://localhost:8233").origin;
const emails = {
  decoder: freshEmail("ui-decoder"),
  plainStaff: freshEmail("ui-staff"),
  buyer: freshEmail("ui-buyer"),
};
let orderId = 0;
/** The sealed input of the order's workflow, as the UI sends it to the codec server. */
let uiBody = "";

beforeAll(async () => {
  await createStaffUser(db(), { email: emails.decoder, permissions: [PAYLOAD_DECODE_PERMISSION] });
  await createStaffUser(db(), { email: emails.plainStaff, permissions: ["brand"] });
  const brand = await createBrand(db());
  const col = await createCollection(db(), { brandId: brand.id });
  const prod = await createProduct(db(), { collectionId: col.id, sizes: SIZE_RUNS.apparel });
  const seller = await createRetailer(db(), {
    payout: true,
    user: { email: freshEmail("ui-seller") },
  });
  const buyer = await createRetailer(db(), { payout: true, user: { email: emails.buyer } });
  const listing = await createListing(db(), {
    variationId: prod.variations[0].id,
    providerId: seller.retailer.id,
    sizes: { S: 2 },
  });
  const client = await temporal();
  const draft = await startBuyOrder(client, db(), {
    providerId: seller.retailer.id,
    receiverId: buyer.retailer.id,
    variationId: prod.variations[0].id,
    listingId: listing.id,
    sizes: { S: 1 },
    unitPriceCents: 2500,
  });
  orderId = draft.order.id;
  // The history as Temporal keeps it (what the UI reads): fetchHistory does not open payloads.
  const history = await client.workflow.getHandle(buyWorkflowId(orderId)).fetchHistory();
  const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  expect(input.length).toBe(1);
  uiBody = JSON.stringify({ payloads: input.map((p) => payloadToJson(p)) });
}, 120_000);

afterAll(async () => {
  if (orderId) {
    const client = await temporal();
    await client.workflow
      .getHandle(buyWorkflowId(orderId))
      .terminate("test done")
      .catch(() => undefined);
  }
  await closeTemporal();
});

/** The UI's request: preflight from its origin, then the POST with cookies and the namespace header. */
async function asTheUi(c: HttpClient) {
  const preflight = await fetch(`${baseUrl}/codec/decode`, {
    method: "OPTIONS",
    headers: {
      Origin: uiOrigin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,x-namespace",
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
  return c.request("/codec/decode", {
    method: "POST",
    body: uiBody,
    origin: uiOrigin,
    headers: { "Content-Type": "application/json", "X-Namespace": "default" },
  });
}

describe("an order's input in the Temporal UI, through the codec server", () => {
  test("the history holds the input sealed (what the UI shows without the codec server)", () => {
    const [p] = (JSON.parse(uiBody) as { payloads: JsonPayload[] }).payloads;
    expect(Buffer.from(p.metadata?.encoding ?? "", "base64").toString()).toBe("binary/encrypted");
    expect(Buffer.from(p.data ?? "", "base64").toString("latin1")).not.toContain(
      `"orderId":${orderId}`,
    );
  });

  test("staff holding ops.decode see the order's input opened", async () => {
    const staff = new HttpClient();
    await staff.signIn(emails.decoder, DEFAULT_TEST_PASSWORD);
    const r = await asTheUi(staff);
    expect(r.status, r.body).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe(uiOrigin);
    const [opened] = (JSON.parse(r.body).payloads as JsonPayload[]).map(payloadFromJson);
    const input = defaultPayloadConverter.fromPayload(opened) as { orderId: number };
    expect(input.orderId).toBe(orderId);
  });

  test("staff without the right, the order's own buyer and nobody signed in get nothing", async () => {
    const plain = new HttpClient();
    await plain.signIn(emails.plainStaff, DEFAULT_TEST_PASSWORD);
    const buyer = new HttpClient();
    await buyer.signIn(emails.buyer, DEFAULT_TEST_PASSWORD);
    for (const [c, status] of [
      [plain, 403],
      [buyer, 403],
      [new HttpClient(), 401],
    ] as const) {
      const r = await asTheUi(c);
      expect(r.status).toBe(status);
      expect(JSON.parse(r.body)).not.toHaveProperty("payloads");
      expect(r.body).not.toContain(String(orderId));
    }
  });
});
