/** The rules of held money movements (domain/held-payments.ts; docs/decisions/0044-payments-needing-attention.md). */
import { describe, expect, test } from "vitest";
import {
  heldActionSchema,
  heldAge,
  heldDigestMail,
  heldNeed,
  heldNotice,
  heldReasonText,
  retailerTodo,
} from "../../domain/held-payments";

describe("held payments", () => {
  test.each([
    ["penalty", "card"],
    ["transfer", "payout"],
    ["refund", "staff"],
    ["release", "staff"],
  ] as const)("a held %s waits for %s", (kind, need) => {
    expect(heldNeed(kind)).toBe(need);
  });

  test.each([
    ["no_card", "No card on file"],
    ["no_payout_account", "No payout account"],
    ["card_declined", "Card declined"],
    ["amount_too_large", "Refused by the provider (amount_too_large)"],
  ])("reason %s reads %s", (code, text) => {
    expect(heldReasonText(code)).toBe(text);
  });

  test.each([
    [0, "0 min"],
    [59, "59 min"],
    [60, "1 h"],
    [47 * 60 + 59, "47 h"],
    [48 * 60, "2 d"],
  ])("held %i minutes ago reads %s", (minutes, text) => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(heldAge(new Date(now.getTime() - minutes * 60_000), now)).toBe(text);
  });

  test("the retailer's e-mail says what is held and what to do (nothing for staff's kinds)", () => {
    const m = heldNotice({
      kind: "penalty",
      amountCents: 2500,
      orderExternalId: "100042",
      need: "card",
    });
    expect(m.subject).toBe("Action needed: a penalty is on hold");
    expect(m.text).toBe(
      "A penalty of $25.00 for order 100042 is on hold.\nAdd a card on file (Settings, Card on file). It is tried again on its own as soon as you do.",
    );
    expect(retailerTodo("payout")?.to).toBe("/settings/payout");
    expect(retailerTodo("staff")).toBeNull();
    expect(
      heldNotice({ kind: "refund", amountCents: 100, orderExternalId: null, need: "staff" }).text,
    ).toContain("you do not need to do anything");
  });

  test("staff's daily list: count, total and one line each", () => {
    const now = new Date("2026-03-10T12:00:00Z");
    const mail = heldDigestMail(
      [
        {
          paymentId: 1,
          orderExternalId: "100001",
          storeName: "North Shop",
          kind: "transfer",
          amountCents: 10_000,
          reason: "no_payout_account",
          heldAt: new Date("2026-03-07T12:00:00Z"),
          attempts: 1,
        },
        {
          paymentId: 2,
          orderExternalId: null,
          storeName: "South Shop",
          kind: "penalty",
          amountCents: 550,
          reason: "card_declined",
          heldAt: new Date("2026-03-10T09:00:00Z"),
          attempts: 3,
        },
      ],
      now,
    );
    expect(mail.subject).toBe("Payments needing attention: 2 open");
    expect(mail.text.split("\n")).toEqual([
      "2 held payments, $105.50 in all:",
      "- Payout $100.00, North Shop, order 100001: No payout account (held 3 d, 1 attempt)",
      "- Penalty $5.50, South Shop: Card declined (held 3 h, 3 attempts)",
      "",
      "Retry, settle or write them off at /admin/payments-attention.",
    ]);
  });

  test("staff's actions: a settlement needs a note; ids are positive integers; unknown intents are refused", () => {
    expect(heldActionSchema.safeParse({ intent: "retry", paymentId: "7" }).success).toBe(true);
    expect(
      heldActionSchema.safeParse({ intent: "settle", paymentId: "7", note: " " }).success,
    ).toBe(false);
    expect(
      heldActionSchema.safeParse({ intent: "settle", paymentId: "7", note: "cheque" }).success,
    ).toBe(true);
    expect(heldActionSchema.safeParse({ intent: "writeOff", paymentId: "7" }).success).toBe(true);
    expect(heldActionSchema.safeParse({ intent: "retry", paymentId: "-1" }).success).toBe(false);
    expect(heldActionSchema.safeParse({ intent: "refund", paymentId: "7" }).success).toBe(false);
  });
});
