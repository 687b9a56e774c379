/**
 * Settings queries (db/queries/settings.ts) and the sandbox payment adapter's card methods: test cards
 * only, nothing of the number kept, idempotency, card_declined at attach, one customer per retailer.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IdempotencyConflictError, PaymentRejectedError } from "../../activities/payments/port";
import { createSandboxPayments } from "../../activities/payments/sandbox";
import {
  createBrandRequestForRetailer,
  getCardOnFile,
  getPaymentCustomerId,
  listOwnBrandRequests,
  recordPaymentMethod,
  updateContactInfo,
  updateStoreInfo,
} from "../../db/queries/settings";
import { paymentMethods, retailerContacts, sandboxPaymentObjects } from "../../db/schema";
import { createRetailer, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(5);

describe("sandbox payments: cards", () => {
  const sandbox = createSandboxPayments(db);

  it("a test card becomes a PaymentMethod with brand and last four, attached to a new customer, then reused", async () => {
    const { retailer } = await createRetailer(db, { user: false });
    const key = `t-${uniqueToken()}`;
    const pm = await sandbox.createPaymentMethodFromTestCard({
      idempotencyKey: `${key}:pm`,
      testToken: "tok_visa",
    });
    expect(pm).toMatchObject({ brand: "visa", last4: "4242" });
    expect(pm.id).toMatch(/^pm_sandbox_/);
    // Same key, same parameters: the same object.
    expect(
      await sandbox.createPaymentMethodFromTestCard({
        idempotencyKey: `${key}:pm`,
        testToken: "tok_visa",
      }),
    ).toEqual(pm);
    await expect(
      sandbox.createPaymentMethodFromTestCard({
        idempotencyKey: `${key}:pm`,
        testToken: "tok_mastercard",
      }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);

    const attached = await sandbox.attachPaymentMethod({
      idempotencyKey: `${key}:attach`,
      retailerId: retailer.id,
      paymentMethodId: pm.id,
      customerId: null,
      email: "x@example.test",
    });
    expect(attached).toMatchObject({ paymentMethodId: pm.id, brand: "visa", last4: "4242" });
    expect(attached.customerId).toMatch(/^cus_sandbox_/);
    const stored = JSON.stringify(
      (await db.select().from(sandboxPaymentObjects).where(eq(sandboxPaymentObjects.id, pm.id)))[0]
        .data,
    );
    expect(stored).not.toContain("4242424242424242");

    const pm2 = await sandbox.createPaymentMethodFromTestCard({
      idempotencyKey: `${key}:pm2`,
      testToken: "tok_mastercard",
    });
    const again = await sandbox.attachPaymentMethod({
      idempotencyKey: `${key}:attach2`,
      retailerId: retailer.id,
      paymentMethodId: pm2.id,
      customerId: attached.customerId,
    });
    expect(again).toMatchObject({
      customerId: attached.customerId,
      brand: "mastercard",
      last4: "4444",
    });
  });

  it("the declined test card fails at attach with card_declined (and keeps failing for the same key); unknown tokens are refused", async () => {
    const { retailer } = await createRetailer(db, { user: false });
    const key = `t-${uniqueToken()}`;
    const pm = await sandbox.createPaymentMethodFromTestCard({
      idempotencyKey: `${key}:pm`,
      testToken: "tok_chargeDeclined",
    });
    expect(pm.last4).toBe("0002");
    const attach = () =>
      sandbox.attachPaymentMethod({
        idempotencyKey: `${key}:attach`,
        retailerId: retailer.id,
        paymentMethodId: pm.id,
        customerId: null,
      });
    await expect(attach()).rejects.toMatchObject({ code: "card_declined" });
    await expect(attach()).rejects.toBeInstanceOf(PaymentRejectedError);
    await expect(
      sandbox.createPaymentMethodFromTestCard({
        idempotencyKey: `${key}:bad`,
        testToken: "4111111111111111",
      }),
    ).rejects.toMatchObject({ code: "incorrect_number" });
  });
});

describe("settings queries", () => {
  it("records a card once, as the default; keeps the customer", async () => {
    const { retailer } = await createRetailer(db, { user: false });
    expect(await getCardOnFile(db, retailer.id)).toBeNull();
    const first = {
      retailerId: retailer.id,
      providerPaymentMethodId: "pm_a",
      providerCustomerId: "cus_a",
      description: "Visa",
      lastFour: "4242",
    };
    expect(await recordPaymentMethod(db, first)).toEqual({ recorded: true });
    expect(await recordPaymentMethod(db, first)).toEqual({ recorded: false });
    await recordPaymentMethod(db, {
      ...first,
      providerPaymentMethodId: "pm_b",
      description: "Mastercard",
      lastFour: "4444",
    });
    expect(await getCardOnFile(db, retailer.id)).toMatchObject({
      description: "Mastercard",
      lastFour: "4444",
      providerCustomerId: "cus_a",
    });
    expect(await getPaymentCustomerId(db, retailer.id)).toBe("cus_a");
    const rows = await db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.retailerId, retailer.id));
    expect(rows.filter((r) => r.isDefault)).toHaveLength(1);
  });

  it("store info, contact info and brand requests change only this retailer's rows", async () => {
    const { retailer, contact, user } = await createRetailer(db, { contact: { celphone: "" } });
    const { retailer: other, contact: otherContact } = await createRetailer(db);
    const info = {
      storeName: "Renamed Store",
      storeEmail: "new@example.test",
      storePhone: "+1-217-555-0199",
      businessName: "Renamed LLC",
      address1: "2 Main St",
      city: "Peoria",
      state: "IL",
      postalCode: "61602",
      resaleNumber: "12-1234567890-1",
    };
    expect(await updateStoreInfo(db, retailer.id, info)).toMatchObject(info);
    const saved = await updateContactInfo(
      db,
      retailer.id,
      { userId: user!.id, email: user!.email },
      {
        firstName: "Ann",
        lastName: "Lee",
        jobTitle: "Buyer",
        jobTitleOther: "",
        phone: "+1-217-555-0111",
        celphone: "+1-217-555-0112",
      },
    );
    expect(saved.id).toBe(contact.id);
    expect(saved.celphone).toBe("+1-217-555-0112");
    const [untouched] = await db
      .select()
      .from(retailerContacts)
      .where(eq(retailerContacts.id, otherContact.id));
    expect(untouched.firstName).toBe(otherContact.firstName);

    await createBrandRequestForRetailer(db, retailer.id, {
      brandName: "Northwind",
      brandPurchaseAmountCents: 2_500_000,
      yourInterestInThisBrand: ["buy", "swap"],
      brandContactEmail: "rep@northwind.test",
      brandContactName: "Rep",
    });
    expect(
      (await listOwnBrandRequests(db, retailer.id)).map((r) => [
        r.brandName,
        r.brandPurchaseAmountCents,
        r.yourInterestInThisBrand,
      ]),
    ).toEqual([["Northwind", 2_500_000, ["buy", "swap"]]]);
    expect(await listOwnBrandRequests(db, other.id)).toEqual([]);
  });
});
