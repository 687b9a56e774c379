/**
 * The Temporal Web UI's view of an order through the codec server (ADR 0040). The last block drives the UI itself:
 * the UI server scripts/lib/tools.mjs installs (ensureTemporalUi), started here with the production config
 * (config/temporal-ui/production.yaml: codec endpoint the app's /codec, includeCredentials) in front of the e2e
 * stack's Temporal, on TEMPORAL_UI_URL (the one origin the app's codec CORS answers; the stack's Temporal runs
 * headless, so its port is free), then an order's workflow page opened in Chromium: a staff user holding
 * "ops.decode" reads the order's input, its buyer sees it sealed. The blocks before it make the UI's requests by
 * hand with a real purchase's history (a CORS preflight from the UI's origin, then the sealed payloads with the
 * browser's cookies and the `X-Namespace` header): the same staff user gets the order's input opened; staff
 * without the right, a retailer (the buyer of that very order) and nobody signed in get nothing (403 / 401, no
 * payload). tests/e2e/production-safety.test.ts covers the endpoint's other answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
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
import { db, launchBrowser, signedIn } from "./harness";
import { baseUrl, freshEmail, HttpClient } from "./http";
import { temporalUiArgs, temporalUiEnv } from "../../config/topology.mjs";
import { RESULTS_DIR, ROOT } from "../../scripts/lib/paths.mjs";
import { isPortOpen, whoListens } from "../../scripts/lib/proc.mjs";
import { toolPaths } from "../../scripts/lib/tools.mjs";

const uiUrl = new URL(process.env.TEMPORAL_UI_URL ?? "http://localhost:8233");
const uiOrigin = uiUrl.origin;
const namespace = process.env.TEMPORAL_NAMESPACE ?? "default";
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

describe("the Temporal Web UI itself, in Chromium, through the codec server", () => {
  let ui: ChildProcess | undefined;
  /** The base64 of the sealed payloads' encoding, as the UI prints a payload it could not open. */
  const sealedEncoding = Buffer.from("binary/encrypted").toString("base64");

  beforeAll(async () => {
    const bin = process.env.TEMPORAL_UI_SERVER_PATH ?? toolPaths.temporalUi;
    if (!fs.existsSync(bin)) throw new Error(`no Temporal UI server at ${bin} (npm run tools)`);
    const port = Number(uiUrl.port);
    if (await isPortOpen(port))
      throw new Error(`TEMPORAL_UI_URL's port ${port} is taken (${whoListens(port)})`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const logFile = path.join(RESULTS_DIR, "e2e-temporal-ui.log");
    const log = fs.openSync(logFile, "a");
    ui = spawn(bin, temporalUiArgs(ROOT), {
      env: {
        ...process.env,
        ...temporalUiEnv({
          address: process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7243",
          ip: "127.0.0.1",
          port,
          namespace,
          appOrigin: new URL(baseUrl).origin,
        }),
      },
      stdio: ["ignore", log, log],
    });
    fs.closeSync(log);
    const answers = () =>
      fetch(`http://127.0.0.1:${port}/api/v1/settings`).then(
        (r) => r.ok,
        () => false,
      );
    const deadline = Date.now() + 60_000;
    while (!(await answers())) {
      if (ui.exitCode !== null)
        throw new Error(`the UI server exited (${ui.exitCode}): ${logFile}`);
      if (Date.now() > deadline)
        throw new Error(`the UI server did not answer in 60 s: ${logFile}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 90_000);

  afterAll(async () => {
    if (!ui || ui.exitCode !== null) return;
    const exited = new Promise((r) => ui!.once("exit", r));
    ui.kill("SIGTERM");
    await exited;
  });

  /** Opens the order's workflow page in the UI; the status of the UI's first request to the codec server. */
  async function openOrderInUi(email: string) {
    const page = await signedIn(await launchBrowser(), email, { at: null });
    const codecAnswer = page.waitForResponse(
      (r) => r.url() === `${baseUrl}/codec/decode` && r.request().method() === "POST",
    );
    await page.goto(
      `${uiOrigin}/namespaces/${namespace}/workflows/${encodeURIComponent(buyWorkflowId(orderId))}`,
    );
    return { page, status: (await codecAnswer).status() };
  }

  test(
    "staff holding ops.decode read the order's input on its workflow page; its buyer sees it sealed",
    { timeout: 90_000 },
    async () => {
      const staff = await openOrderInUi(emails.decoder);
      expect(staff.status).toBe(200);
      await expect
        .poll(() => staff.page.locator("body").innerText(), { timeout: 20_000 })
        .toContain(`"orderId": ${orderId}`);
      expect(await staff.page.locator("body").innerText()).not.toContain(sealedEncoding);

      const buyer = await openOrderInUi(emails.buyer);
      expect(buyer.status).toBe(403);
      await expect
        .poll(() => buyer.page.locator("body").innerText(), { timeout: 20_000 })
        .toContain(sealedEncoding);
      const seen = await buyer.page.locator("body").innerText();
      expect(seen).toContain("Codec Server could not connect");
      expect(seen).not.toContain(`"orderId": ${orderId}`);
    },
  );
});
