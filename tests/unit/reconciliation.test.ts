/** The nightly reconciliation's rule (domain/reconciliation.ts; docs/decisions/0045-nightly-reconciliation.md). */
import { describe, expect, test } from "vitest";
import {
  compareMovement,
  missingWithUs,
  reconciledDay,
  type ProviderMovement,
} from "../../domain/reconciliation";

const found = (amountCents: number, status = "succeeded"): ProviderMovement => ({
  id: "pi_1",
  amountCents,
  status,
});

describe("reconciliation", () => {
  test.each([
    ["authorization", 2500, found(2500, "requires_capture"), null],
    ["capture", 2500, found(2500), null],
    ["refund", 1000, found(1000), null],
    ["transfer", 2200, found(2200, "paid"), null],
    ["penalty", 500, found(500), null],
    ["transfer", 2200, null, "missing_at_provider"],
    ["penalty", 500, found(500, "requires_payment_method"), "missing_at_provider"],
    ["capture", 2500, found(2000), "amount_differs"],
    ["refund", 1000, found(1200), "amount_differs"],
    ["release", 1500, found(2500, "canceled"), null],
    ["release", 1500, null, "missing_at_provider"],
  ] as const)("%s of %i against %o: %s", (kind, amountCents, provider, expected) => {
    const d = compareMovement({ paymentId: 1, idempotencyKey: "k", kind, amountCents }, provider);
    expect(d?.kind ?? null).toBe(expected);
  });

  test("an amount that differs names both amounts and the provider's object", () => {
    expect(
      compareMovement(
        { paymentId: 7, idempotencyKey: "k7", kind: "capture", amountCents: 2500 },
        found(2000),
      ),
    ).toEqual({
      kind: "amount_differs",
      idempotencyKey: "k7",
      paymentId: 7,
      ledgerCents: 2500,
      providerCents: 2000,
      providerRef: "pi_1",
    });
  });

  test("a provider object whose key no ledger row holds is missing with us", () => {
    const d = missingWithUs(
      ["a", "b"],
      [
        { idempotencyKey: "a", id: "pi_a", amountCents: 1 },
        { idempotencyKey: "c", id: "tr_c", amountCents: 3 },
      ],
    );
    expect(d).toEqual([
      {
        kind: "missing_with_us",
        idempotencyKey: "c",
        paymentId: null,
        ledgerCents: null,
        providerCents: 3,
        providerRef: "tr_c",
      },
    ]);
  });

  test("a run covers the UTC day before it fired", () => {
    expect(reconciledDay(new Date("2026-03-02T07:00:00Z"))).toBe("2026-03-01");
  });
});
