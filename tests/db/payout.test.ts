/**
 * Payout setup against real Postgres: the sandbox payments adapter's idempotency semantics and the
 * read-model activity recordPayoutAccount (one transaction, idempotent).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createOutboxMailer } from "../../activities/mail";
import {
  IdempotencyConflictError,
  PaymentRejectedError,
  type CreateConnectedAccountInput,
} from "../../activities/payments/port";
import { createPayments } from "../../activities/payments";
import { putObject, SandboxPayments } from "../../activities/payments/sandbox";
import {
  accountTokenData,
  bankAccountTokenData,
  personTokenData,
  sandboxToken,
  type PayoutTokenKind,
} from "../../domain/payout-tokens";
import { createActivities } from "../../activities";
import {
  getPayoutProfile,
  getPayoutSetup,
  markPayoutSetupFailed,
  markPayoutSetupStarted,
} from "../../db/queries/payout";
import {
  listings,
  outboxEmails,
  payoutProfiles,
  retailers,
  sandboxIdempotencyKeys,
  sandboxPaymentObjects,
} from "../../db/schema";
import {
  payoutDetailsSchema,
  payoutProfileFromDetails,
  type PayoutDetailsInput,
} from "../../domain/payout";
import { createListing, createRetailer, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";
import { validPayoutForm } from "../factories/payout";

const db = useTestDb(8);
const sandbox = new SandboxPayments(db);
const activities = createActivities({
  db,
  payments: sandbox,
  mail: createOutboxMailer(db),
  env: { APP_ORIGIN: "http://localhost:3000" },
});
let variationId: number;

const form: PayoutDetailsInput = {
  ...validPayoutForm,
  last_name: "Doe",
  email: "jane@example.test",
};
const details = payoutDetailsSchema.parse(form);

function input(overrides: Partial<CreateConnectedAccountInput> = {}): CreateConnectedAccountInput {
  return {
    idempotencyKey: `test-${uniqueToken()}:create-account:1`,
    retailerId: 1,
    details,
    tosAcceptance: { date: 1_700_000_000, ip: "127.0.0.1" },
    ...overrides,
  };
}

beforeAll(async () => {
  const { products } = await createWorld(db, {
    products: [{ sizes: SIZE_RUNS.apparel, colors: 1 }],
  });
  const { variations } = products[0];
  variationId = variations[0].id;
});

describe("sandbox payments: connected accounts", () => {
  it("is the adapter chosen without a Stripe key", () => {
    expect(createPayments({}, db).provider).toBe("sandbox");
  });

  it("creates an acct_sandbox_ account with Stripe's test bank numbers and keeps only the last four", async () => {
    const acc = await sandbox.createConnectedAccount(input());
    expect(acc.id).toMatch(/^acct_sandbox_[A-Za-z0-9]+$/);
    expect(acc.bankAccountLast4).toBe("6789");
    const [row] = await db
      .select()
      .from(sandboxPaymentObjects)
      .where(eq(sandboxPaymentObjects.id, acc.id));
    expect(row.kind).toBe("account");
    expect(JSON.stringify(row.data)).not.toContain("000123456789");
    expect(JSON.stringify(row.data)).not.toContain("3456789");
  });

  it("same key + same parameters = the same account, created once", async () => {
    const req = input();
    const a = await sandbox.createConnectedAccount(req);
    const b = await sandbox.createConnectedAccount({ ...req, details: { ...req.details } });
    expect(b.id).toBe(a.id);
    const keys = await db
      .select()
      .from(sandboxIdempotencyKeys)
      .where(eq(sandboxIdempotencyKeys.key, req.idempotencyKey));
    expect(keys).toHaveLength(1);
    expect(keys[0].responseObjectId).toBe(a.id);
  });

  it("concurrent requests with one key create one account", async () => {
    const req = input();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sandbox.createConnectedAccount(req)),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
  });

  it("same key + other parameters = an idempotency error", async () => {
    const req = input();
    await sandbox.createConnectedAccount(req);
    await expect(
      sandbox.createConnectedAccount({
        ...req,
        details: { ...details, account_number: "000999999999" },
      }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it("refuses a routing number that fails the ABA checksum, and replays the refusal for the same key", async () => {
    const req = input({ details: { ...details, routing_number: "123456789" } });
    const first = await sandbox.createConnectedAccount(req).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PaymentRejectedError);
    expect((first as PaymentRejectedError).field).toBe("routing_number");
    expect((first as PaymentRejectedError).code).toBe("routing_number_invalid");
    const again = await sandbox.createConnectedAccount(req).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PaymentRejectedError);
    const [key] = await db
      .select()
      .from(sandboxIdempotencyKeys)
      .where(eq(sandboxIdempotencyKeys.key, req.idempotencyKey));
    expect(key.responseObjectId).toBeNull();
    expect(key.responseError).toMatchObject({ code: "routing_number_invalid" });
  });
});

describe("payout activities: the read model", () => {
  async function retailerWithListings() {
    const { retailer } = await createRetailer(db, { payout: false, user: false });
    const l1 = await createListing(db, { variationId, providerId: retailer.id, sizes: { S: 1 } });
    const l2 = await createListing(db, { variationId, providerId: retailer.id, sizes: { M: 2 } });
    expect(l1.status).toBe("payoutneeded");
    return { retailer, listingIds: [l1.id, l2.id] };
  }

  it("recordPayoutAccount sets bt_merchant_id, saves the profile (last four only), activates listings and marks the setup done", async () => {
    const { retailer, listingIds } = await retailerWithListings();
    const workflowId = `payout-setup:retailer-${retailer.id}:${uniqueToken()}`;
    await activities.payoutSetupStarted({ retailerId: retailer.id, workflowId });
    expect((await getPayoutSetup(db, workflowId))?.status).toBe("started");

    const account = await activities.createConnectedAccount({
      ...input({ retailerId: retailer.id }),
      idempotencyKey: `${workflowId}:create-account:1`,
    });
    const profile = payoutProfileFromDetails(details, "2024-05-01T12:00:00.000Z");
    const res = await activities.recordPayoutAccount({
      retailerId: retailer.id,
      workflowId,
      accountId: account.accountId,
      profile,
    });
    expect(res).toEqual({ recorded: true, listingsActivated: 2 });

    const [r] = await db.select().from(retailers).where(eq(retailers.id, retailer.id));
    expect(r.btMerchantId).toBe(account.accountId);
    const saved = await getPayoutProfile(db, retailer.id);
    expect(saved).toMatchObject({
      accountLast4: "6789",
      bustaxIdLast4: "6789",
      routingNumber: "110000000",
      firstName: "Jane",
    });
    const [rawProfile] = await db
      .select()
      .from(payoutProfiles)
      .where(eq(payoutProfiles.retailerId, retailer.id));
    expect(JSON.stringify(rawProfile)).not.toContain("000123456789");
    const statuses = await db
      .select({ id: listings.id, status: listings.status })
      .from(listings)
      .where(eq(listings.providerId, retailer.id));
    expect(statuses.map((s) => s.status)).toEqual(listingIds.map(() => "active"));
    expect(await getPayoutSetup(db, workflowId)).toMatchObject({
      status: "done",
      accountId: account.accountId,
    });

    // Running it again changes nothing more.
    const before = await getPayoutProfile(db, retailer.id);
    const again = await activities.recordPayoutAccount({
      retailerId: retailer.id,
      workflowId,
      accountId: account.accountId,
      profile,
    });
    expect(again).toEqual({ recorded: false, listingsActivated: 0 });
    expect((await getPayoutProfile(db, retailer.id))?.updatedAt).toEqual(before?.updatedAt);
  });

  it("an update (a second setup) replaces the account and the profile", async () => {
    const { retailer } = await retailerWithListings();
    const profile = payoutProfileFromDetails(details, "2024-05-01T12:00:00.000Z");
    await activities.recordPayoutAccount({
      retailerId: retailer.id,
      workflowId: `wf-a-${uniqueToken()}`,
      accountId: "acct_sandbox_a",
      profile,
    });
    await activities.recordPayoutAccount({
      retailerId: retailer.id,
      workflowId: `wf-b-${uniqueToken()}`,
      accountId: "acct_sandbox_b",
      profile: { ...profile, accountLast4: "4321" },
    });
    const [r] = await db.select().from(retailers).where(eq(retailers.id, retailer.id));
    expect(r.btMerchantId).toBe("acct_sandbox_b");
    expect((await getPayoutProfile(db, retailer.id))?.accountLast4).toBe("4321");
  });

  it("a failure is recorded with its reason, and never overwrites a finished setup", async () => {
    const { retailer } = await retailerWithListings();
    const wf = `wf-f-${uniqueToken()}`;
    await markPayoutSetupStarted(db, { retailerId: retailer.id, workflowId: wf });
    await activities.payoutSetupFailed({
      retailerId: retailer.id,
      workflowId: wf,
      error: "The routing number is not valid.",
    });
    expect(await getPayoutSetup(db, wf)).toMatchObject({
      status: "failed",
      error: "The routing number is not valid.",
    });

    const done = `wf-d-${uniqueToken()}`;
    await activities.recordPayoutAccount({
      retailerId: retailer.id,
      workflowId: done,
      accountId: "acct_sandbox_c",
      profile: payoutProfileFromDetails(details, "2024-05-01T12:00:00.000Z"),
    });
    await markPayoutSetupFailed(db, { retailerId: retailer.id, workflowId: done, error: "late" });
    expect((await getPayoutSetup(db, done))?.status).toBe("done");
  });

  it("the confirmation e-mail is written to the outbox once per dedupe key", async () => {
    const key = `wf-mail-${uniqueToken()}:confirmation-email:1`;
    const to = `payout-${uniqueToken()}@example.test`;
    await activities.sendPayoutConfirmation({
      to,
      dedupeKey: key,
      accountLast4: "6789",
      businessName: "Harborline Shoes LLC",
    });
    await activities.sendPayoutConfirmation({
      to,
      dedupeKey: key,
      accountLast4: "6789",
      businessName: "Harborline Shoes LLC",
    });
    const rows = await db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, key));
    expect(rows).toHaveLength(1);
    expect(rows[0].bodyText).toContain("ending in 6789");
    expect(rows[0].toEmail).toBe(to);
  });
});

describe("sandbox: a connected account from the browser's tokens (ADR 0050)", () => {
  /** One token of each kind, as the sandbox's token endpoint stores them. */
  async function tokens(d = details) {
    const make = async (kind: PayoutTokenKind, data: unknown, prefix: string) => {
      const id = `${prefix}_sandbox_${uniqueToken()}`;
      const made = sandboxToken(kind, data, { id, created: 1 });
      if (!("token" in made)) throw new Error(made.error.message);
      await putObject(db, "token", { ...made.token, id, object: "token" });
      return id;
    };
    return {
      accountToken: await make("account", accountTokenData(d), "ct"),
      personToken: await make("person", personTokenData(d), "cpt"),
      bankAccountToken: await make("bank_account", bankAccountTokenData(d), "btok"),
    };
  }
  const tokenInput = async (key = `test-${uniqueToken()}:create-account:1`) => ({
    idempotencyKey: key,
    retailerId: 1,
    tokens: await tokens(),
    email: "jane@example.test",
    businessName: details.buslegal_name,
  });

  it("makes the account from the tokens (last four only) and uses them up; a retry with the key returns the same account", async () => {
    const req = await tokenInput();
    const first = await sandbox.createConnectedAccountFromTokens(req);
    expect(first).toMatchObject({
      id: expect.stringMatching(/^acct_sandbox_/),
      bankAccountLast4: "6789",
    });
    expect(await sandbox.createConnectedAccountFromTokens(req)).toEqual(first);
    const [row] = await db
      .select()
      .from(sandboxPaymentObjects)
      .where(eq(sandboxPaymentObjects.id, first.id));
    const stored = JSON.stringify(row.data);
    for (const secret of ["000123456789", "123456789", "1980"])
      expect(stored).not.toContain(secret);
    const [bank] = await db
      .select()
      .from(sandboxPaymentObjects)
      .where(eq(sandboxPaymentObjects.id, req.tokens.bankAccountToken));
    expect((bank.data as { used: boolean }).used).toBe(true);
  });

  it("used or unknown tokens are refused (a new key), and nothing is made", async () => {
    const req = await tokenInput();
    await sandbox.createConnectedAccountFromTokens(req);
    const again = await sandbox
      .createConnectedAccountFromTokens({ ...req, idempotencyKey: `test-${uniqueToken()}:x:1` })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PaymentRejectedError);
    expect((again as PaymentRejectedError).code).toBe("token_already_used");
    const unknown = await sandbox
      .createConnectedAccountFromTokens({
        ...(await tokenInput()),
        tokens: { ...(await tokens()), bankAccountToken: "btok_sandbox_nosuchtoken" },
      })
      .catch((e: unknown) => e);
    expect((unknown as PaymentRejectedError).code).toBe("resource_missing");
  });

  it("a refused request uses none of its tokens", async () => {
    const req = await tokenInput();
    const refused = await sandbox
      .createConnectedAccountFromTokens({
        ...req,
        tokens: { ...req.tokens, bankAccountToken: "btok_sandbox_nosuchtoken" },
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentRejectedError);
    const [account] = await db
      .select()
      .from(sandboxPaymentObjects)
      .where(eq(sandboxPaymentObjects.id, req.tokens.accountToken));
    expect((account.data as { used: boolean }).used).toBe(false);
  });
});
