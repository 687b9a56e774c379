/**
 * The history canary: what Temporal keeps of an order may hold ids, amounts and states, never a bank account,
 * a tax id, a birth date, a store's e-mail or its street (docs/architecture.md, "What a history may hold";
 * ADR 0040: every payload is sealed by the payload codec before it leaves the process).
 *
 * The canaries: a payout set-up this file makes as a browser does (the sandbox provider's tokens, then /getpaid/)
 * with values no one else uses (an account number, a routing number, a tax id, a date of birth, an e-mail and a
 * street), and every store e-mail and street
 * address of every retailer in the e2e database. The haystack: every workflow history on the e2e suite's
 * Temporal server (purchases, swaps, RMAs and payout set-ups driven by the whole suite: this file runs after the
 * others of its process, vitest.config.ts RUN_LAST), exported as JSON and with each payload's bytes read as
 * text (an unsealed payload is base64 in the JSON); Temporal's own database, the SQLite file the suite's server
 * keeps (scripts/test.mjs, E2E_TEMPORAL_DB) and its write-ahead log, byte for byte; and the web process's and the
 * worker's logs. No canary may appear in the clear. Each search is shown to find a planted one.
 */
import { randomInt, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { defaultPayloadConverter } from "@temporalio/common";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoutProfiles, retailerContacts, retailers } from "../../db/schema";
import { payoutDetailsSchema } from "../../domain/payout";
import {
  accountTokenData,
  bankAccountTokenData,
  PAYOUT_TOKEN_FIELDS,
  personTokenData,
} from "../../domain/payout-tokens";
import { createRetailer, uniqueToken } from "../factories";
import { validPayoutForm } from "../factories/payout";
import { payloadsOf } from "../setup/history-payloads";
import { closeTemporal, temporal, until } from "./buy-helpers";
import { db, SESSION_COOKIE, sessionFor, uniqueEmail } from "./harness";
import { HttpClient } from "./http";

let client: Client;
const tok = uniqueToken();

/** A routing number that passes the ABA checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function routingNumber(): string {
  const d = [0, 1, ...Array.from({ length: 6 }, () => randomInt(10))];
  const partial = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5]);
  return [...d, (10 - (partial % 10)) % 10].join("");
}

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join("");
const canary = {
  account_number: `9${digits(11)}`,
  routing_number: routingNumber(),
  bustax_id: `${digits(2)}-${digits(7)}`,
  date_of_birth: `0${randomInt(1, 10)}/1${randomInt(0, 10)}/19${randomInt(50, 90)}`,
  email: `canary-${tok}@payout.example.test`,
  street_address: `${randomInt(100, 999)} Canary ${tok} Rd`,
};

/** A history as JSON with every payload's bytes beside it as text (what a reader of the export could decode). */
export function historyText(history: unknown): string {
  return `${JSON.stringify(history)}\n${payloadsOf(history)
    .map((p) => p.text)
    .join("\n")}`;
}

/** The canaries found in `text`. */
export function found(text: string, canaries: readonly string[]): string[] {
  return canaries.filter((c) => text.includes(c));
}

/**
 * Temporal's own database as the suite's server keeps it: the file and its write-ahead log (recent commits
 * are there until a checkpoint copies them into the file), their bytes as text. A value SQLite stored in
 * one piece is found; one its record split across two pages would not be (history blobs larger than a page
 * are split), which is why the export above is searched too.
 */
function engineDatabaseText(): { text: string; files: string[] } {
  const file = process.env.E2E_TEMPORAL_DB;
  if (!file)
    throw new Error("E2E_TEMPORAL_DB is not set: the e2e suite's Temporal server keeps no file");
  const files = [file, `${file}-wal`].filter((f) => fs.existsSync(f));
  return { text: files.map((f) => fs.readFileSync(f).toString("latin1")).join("\n"), files };
}

beforeAll(async () => {
  client = await temporal();
  const login = uniqueEmail("canary");
  const { retailer } = await createRetailer(db(), {
    payout: false,
    user: { email: login },
    storeEmail: `store-${tok}@canary.example.test`,
    address1: `${randomInt(100, 999)} Storefront ${tok} Ave`,
  });
  // The payout set-up, as a retailer's browser sends it (ADR 0050): the bank account, the tax id and the birth
  // date go to the (sandbox) provider's token endpoint, the form posts the tokens and the other fields.
  const http = new HttpClient();
  http.cookies.set(SESSION_COOKIE, (await sessionFor(login)).id);
  const details = payoutDetailsSchema.parse({
    ...validPayoutForm,
    first_name: "Canary",
    last_name: "Payout",
    buslegal_name: `Canary ${tok} LLC`,
    busstreet_address: canary.street_address,
    ...canary,
  });
  const tokens: Record<string, string> = {};
  for (const [kind, data] of [
    ["account", accountTokenData(details)],
    ["person", personTokenData(details)],
    ["bank_account", bankAccountTokenData(details)],
  ] as const) {
    const r = await http.postRaw(
      "/sandbox/v1/tokens",
      JSON.stringify({ kind, data }),
      "application/json",
    );
    expect(r.status, r.body.slice(0, 300)).toBe(200);
    tokens[PAYOUT_TOKEN_FIELDS[kind]] = (JSON.parse(r.body) as { token: { id: string } }).token.id;
  }
  const res = await http.postForm("/getpaid/", {
    first_name: details.first_name,
    last_name: details.last_name,
    email: details.email,
    street_address: details.street_address,
    locality: "Portland",
    region: "ME",
    postal_code: "04101",
    buslegal_name: details.buslegal_name,
    busstreet_address: details.busstreet_address,
    buslocality: "Portland",
    busregion: "ME",
    buspostal_code: "04101",
    ...tokens,
    bustax_id_last4: canary.bustax_id.slice(-4),
    tos_accepted: "on",
    submission_id: randomUUID(),
  });
  expect(res.status, res.body.slice(0, 300)).toBeLessThan(400);
  // The set-up has run (its workflow wrote the profile): the canaries are in a closed history, not only in flight.
  await until("the payout set-up", async () => {
    const [p] = await db()
      .select()
      .from(payoutProfiles)
      .where(eq(payoutProfiles.retailerId, retailer.id));
    return p ?? null;
  });
}, 120_000);

afterAll(async () => {
  await closeTemporal();
});

/** Every store e-mail and street of every retailer and contact, long enough not to match by chance. */
async function retailerCanaries(): Promise<string[]> {
  const stores = await db()
    .select({ email: retailers.storeEmail, street: retailers.address1 })
    .from(retailers);
  const contacts = await db()
    .select({ email: retailerContacts.email, street: retailerContacts.address1 })
    .from(retailerContacts);
  return [
    ...new Set(
      [...stores, ...contacts]
        .flatMap((r) => [r.email, r.street])
        .filter((v) => v && v.length >= 10),
    ),
  ];
}

describe("no bank, tax, birth, e-mail or street value in the clear in Temporal's histories, its database or the logs", () => {
  it("the search finds a canary planted in an unsealed payload (base64 in the JSON export)", () => {
    const planted = {
      events: [
        {
          input: {
            payloads: [defaultPayloadConverter.toPayload({ account: canary.account_number })],
          },
        },
      ],
    };
    expect(found(historyText(planted), [canary.account_number])).toEqual([canary.account_number]);
    expect(JSON.stringify(planted)).not.toContain(canary.account_number);
  });

  it("the search of Temporal's database finds a value a client wrote without the codec", async () => {
    // A client of its own without the payload codec: what a leak would look like in the engine's tables.
    const planted = `planted-${tok}-${digits(12)}`;
    const connection = await Connection.connect({
      address: process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7243",
    });
    try {
      const raw = new Client({
        connection,
        namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
      });
      const handle = await raw.workflow.start("historyCanaryPlanted", {
        taskQueue: `history-canary-${tok}`,
        workflowId: `history-canary-planted-${tok}`,
        args: [{ account: planted }],
      });
      await handle.terminate("the history canary's planted value");
    } finally {
      await connection.close();
    }
    const db = engineDatabaseText();
    expect(db.files.length).toBeGreaterThan(0);
    expect(found(db.text, [planted, canary.account_number])).toEqual([planted]);
  });

  it("every history, Temporal's database, web and worker logs", { timeout: 300_000 }, async () => {
    const canaries = [...Object.values(canary), ...(await retailerCanaries())];
    expect(canaries.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    let histories = 0;
    for await (const wf of client.workflow.list()) {
      const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
      histories += 1;
      for (const c of found(historyText(history), canaries)) leaks.push(`${wf.workflowId}: ${c}`);
    }
    expect(histories).toBeGreaterThan(0); // the payout set-up above, at least; the whole suite's in a full run
    const db = engineDatabaseText();
    for (const c of found(db.text, canaries)) leaks.push(`Temporal's database: ${c}`);
    const logs = path.dirname(process.env.E2E_RESULTS_DIR ?? path.resolve("test-results", "e2e"));
    for (const name of ["e2e-app.log", "e2e-worker.log"]) {
      const file = path.join(logs, name);
      if (!fs.existsSync(file)) continue;
      for (const c of found(fs.readFileSync(file, "utf8"), canaries)) leaks.push(`${name}: ${c}`);
    }
    expect(leaks).toEqual([]);
  });
});
