/**
 * Safe with real money: the codec server the Temporal Web UI opens sealed payloads with (ADR 0040), and the
 * production refusals of the web process and the worker (docs/operations.md, "Production refusals").
 *
 * - /codec/decode and /codec/encode: 401 without a session, 403 for a retailer and for staff without "ops.decode";
 *   staff holding it get the payloads opened. CORS answers the Temporal UI's origin (TEMPORAL_UI_URL) only.
 * - Each process started with APP_ENV=production and unsafe settings exits 1 with one line per setting, naming it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "./harness";
import { DEV_PAYLOAD_KEYS } from "../../domain/env";
import { PAYLOAD_DECODE_PERMISSION } from "../../domain/staff-users";
import { payloadFromJson, payloadToJson } from "../../temporal/codec";
import { payloadCodecOf } from "../../temporal/connection";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories";
import { baseUrl, freshEmail, HttpClient } from "./http";

const uiOrigin = new URL(process.env.TEMPORAL_UI_URL ?? "http://localhost:8233").origin;
const emails = {
  decoder: freshEmail("codec-staff"),
  plainStaff: freshEmail("codec-nope"),
  retailer: freshEmail("codec-retailer"),
};

beforeAll(async () => {
  await createStaffUser(db(), {
    email: emails.decoder,
    permissions: [PAYLOAD_DECODE_PERMISSION],
  });
  await createStaffUser(db(), { email: emails.plainStaff, permissions: ["brand"] });
  await createRetailer(db(), { user: { email: emails.retailer } });
});

describe("the codec server", () => {
  const input = { orderId: 7, shipTo: { name: "Grace Hopper" } };
  const sealedBody = async () => {
    const [sealed] = await payloadCodecOf({}).encode([defaultPayloadConverter.toPayload(input)]);
    return JSON.stringify({ payloads: [payloadToJson(sealed)] });
  };
  const post = (c: HttpClient, op: string, body: string) =>
    c.request(`/codec/${op}`, {
      method: "POST",
      body,
      origin: uiOrigin,
      headers: { "Content-Type": "application/json", "X-Namespace": "default" },
    });

  test("refuses without a session (401), a retailer and staff without ops.decode (403)", async () => {
    const body = await sealedBody();
    expect((await post(new HttpClient(), "decode", body)).status).toBe(401);
    const retailer = new HttpClient();
    await retailer.signIn(emails.retailer, DEFAULT_TEST_PASSWORD);
    expect((await post(retailer, "decode", body)).status).toBe(403);
    const staff = new HttpClient();
    await staff.signIn(emails.plainStaff, DEFAULT_TEST_PASSWORD);
    expect((await post(staff, "decode", body)).status).toBe(403);
    expect((await post(staff, "encode", body)).status).toBe(403);
  });

  test("opens and seals for staff holding ops.decode, from the UI's origin, with CORS for it", async () => {
    const staff = new HttpClient();
    await staff.signIn(emails.decoder, DEFAULT_TEST_PASSWORD);
    const r = await post(staff, "decode", await sealedBody());
    expect(r.status, r.body).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe(uiOrigin);
    expect(r.headers.get("access-control-allow-credentials")).toBe("true");
    const [opened] = (
      JSON.parse(r.body).payloads as { metadata: Record<string, string>; data: string }[]
    ).map(payloadFromJson);
    expect(defaultPayloadConverter.fromPayload(opened)).toEqual(input);

    const plain = JSON.stringify({
      payloads: [payloadToJson(defaultPayloadConverter.toPayload(input))],
    });
    const sealed = await post(staff, "encode", plain);
    expect(sealed.status).toBe(200);
    const back = await payloadCodecOf({}).decode(
      JSON.parse(sealed.body).payloads.map(payloadFromJson),
    );
    expect(defaultPayloadConverter.fromPayload(back[0])).toEqual(input);
  });

  test("answers the UI's preflight, and nobody else's", async () => {
    const preflight = (origin: string) =>
      fetch(`${baseUrl}/codec/decode`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type,x-namespace",
        },
      });
    const ok = await preflight(uiOrigin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(uiOrigin);
    expect(ok.headers.get("access-control-allow-headers")).toMatch(/X-Namespace/i);
    const other = await preflight("https://evil.example");
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // A POST from another site is refused by the Origin check before any session is read.
    const staff = new HttpClient();
    await staff.signIn(emails.decoder, DEFAULT_TEST_PASSWORD);
    const r = await staff.request("/codec/decode", {
      method: "POST",
      body: await sealedBody(),
      origin: "https://evil.example",
    });
    expect(r.status).toBe(403);
  });
});

describe("production refusals", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refusals-"));
  const devKeyFile = path.join(dir, "payload-keys");
  fs.writeFileSync(devKeyFile, `${DEV_PAYLOAD_KEYS}\n`);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A production environment with nothing to refuse; each case below changes one setting. */
  const safe = (): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (
        v === undefined ||
        /WEBHOOK_SECRET|^STRIPE_|^APP_ENV$|^PAYLOAD_KEY|^TEMPORAL_TLS|^DATABASE_URL/.test(k)
      )
        continue;
      env[k] = v;
    }
    return {
      ...env,
      NODE_ENV: "production",
      APP_ENV: "production",
      PORT: "3198",
      APP_ORIGIN: "http://localhost:3198",
      TEMPORAL_TASK_QUEUE: "refusals-never-polled",
      DATABASE_URL: "postgres://app:a-real-db-password@127.0.0.1:1/marketplace",
      STRIPE_SECRET_KEY: "sk_live_0123456789abcdef",
      STRIPE_PUBLISHABLE_KEY: "pk_live_0123456789abcdef",
      STRIPE_WEBHOOK_SECRET: "whsec_live_0123456789abcdef",
      CARRIER_WEBHOOK_SECRET: "carrier-secret-0123456789abcdef",
      SANDBOX_WEBHOOK_SECRET: "whsec_0123456789abcdef0123",
      PAYLOAD_KEYS: `k1:${Buffer.alloc(32, 9).toString("base64")}`,
    };
  };

  /**
   * Each unsafe setting, and the start it is tried in: the settings of one start are independent of each other
   * (a publishable key is only asked for beside a live secret key, so that case and "no secret key" are not
   * tried together), and each is refused on its own line, so three starts per process try all ten.
   */
  const cases: {
    what: string;
    start: 1 | 2 | 3;
    change: Record<string, string | undefined>;
    line: RegExp;
  }[] = [
    {
      what: "payments on the sandbox",
      start: 1,
      change: { STRIPE_SECRET_KEY: undefined },
      line: /STRIPE_SECRET_KEY: empty, so payments would go to the sandbox/,
    },
    {
      what: "a Stripe test key",
      start: 2,
      change: { STRIPE_SECRET_KEY: "sk_test_0123456789" },
      line: /STRIPE_SECRET_KEY: a test-mode key/,
    },
    {
      what: "no publishable key beside the live secret key",
      start: 3,
      change: { STRIPE_PUBLISHABLE_KEY: undefined },
      line: /STRIPE_PUBLISHABLE_KEY: empty, so the payout and card forms could not make the provider's tokens/,
    },
    {
      what: "a public default secret",
      start: 1,
      change: { CARRIER_WEBHOOK_SECRET: "carrier_sandbox_local_only" },
      line: /CARRIER_WEBHOOK_SECRET: is the public sandbox default/,
    },
    {
      what: "an empty secret",
      start: 2,
      change: { CARRIER_WEBHOOK_SECRET: "" },
      line: /CARRIER_WEBHOOK_SECRET: required in production/,
    },
    {
      what: "a default database password",
      start: 1,
      change: { DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:1/marketplace" },
      line: /DATABASE_URL: the database password is a default/,
    },
    {
      what: "no payload key",
      start: 1,
      change: { PAYLOAD_KEYS: undefined },
      line: /PAYLOAD_KEYS: required in production/,
    },
    {
      what: "the public development key, from a file",
      start: 2,
      change: { PAYLOAD_KEYS: undefined, PAYLOAD_KEYS_FILE: devKeyFile },
      line: /PAYLOAD_KEYS: holds the public development key/,
    },
    {
      what: "the payload codec off",
      start: 3,
      change: { PAYLOAD_CODEC: "off" },
      line: /PAYLOAD_CODEC: off, so payloads would reach Temporal unencrypted/,
    },
    {
      what: "a remote Temporal without TLS",
      start: 1,
      change: { TEMPORAL_ADDRESS: "temporal.internal:7233" },
      line: /TEMPORAL_ADDRESS: temporal\.internal:7233 is not on this machine and TLS is off/,
    },
  ];

  const processes = [
    { name: "web", args: ["workers/web.mjs"] },
    { name: "worker", args: ["--import", "tsx", "workers/main.ts"] },
  ];

  /** Runs a process to its exit (killed after 60 s): its code and what it printed. */
  function run(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, {
        cwd: process.cwd(),
        env: env as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  test(
    "each process refuses each unsafe setting with one line naming it",
    { timeout: 180_000 },
    async () => {
      const starts = processes.flatMap((p) =>
        [1, 2, 3].map((start) => ({ p, tried: cases.filter((c) => c.start === start) })),
      );
      // Three at a time: every start loads the whole app, and the machine runs the rest of the suite beside it.
      const results: { p: string; tried: typeof cases; code: number | null; output: string }[] = [];
      for (let i = 0; i < starts.length; i += 3) {
        const batch = starts.slice(i, i + 3).map(async ({ p, tried }) => {
          const env = safe();
          for (const c of tried)
            for (const [k, v] of Object.entries(c.change)) {
              if (v === undefined) delete env[k];
              else env[k] = v;
            }
          results.push({ p: p.name, tried, ...(await run(p.args, env)) });
        });
        await Promise.all(batch);
      }
      expect(results).toHaveLength(6);
      for (const r of results) {
        const refusals = r.output.split("\n").filter((l) => l.includes("cannot start:"));
        const what = r.tried.map((c) => c.what).join(", ");
        expect(r.code, `${r.p}, ${what}: ${r.output}`).toBe(1);
        // One line per unsafe setting, and none for the safe ones.
        expect(refusals, `${r.p}, ${what}`).toHaveLength(r.tried.length);
        for (const line of refusals)
          expect(line, `${r.p}, ${what}`).toMatch(
            new RegExp(`^\\[${r.p}\\] cannot start: Invalid environment: `),
          );
        for (const c of r.tried)
          expect(
            refusals.filter((l) => c.line.test(l)),
            `${r.p}, ${c.what}`,
          ).toHaveLength(1);
        expect(r.output, `${r.p}, ${what}`).not.toMatch(/\n\s+at /); // a message, not a stack trace
      }
    },
  );
});
