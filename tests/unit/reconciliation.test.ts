/**
 * The nightly reconciliation's rule (domain/reconciliation.ts; docs/decisions/0045-nightly-reconciliation.md), the
 * form that resolves a difference and when a statement's month is reconciled
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
import { describe, expect, test } from "vitest";
import { monthRange } from "../../domain/statements";
import {
  compareMovement,
  missingWithUs,
  monthReconciledAt,
  reconciledDay,
  reconciledLine,
  resolveDifferenceSchema,
  utcDaysOf,
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

describe("resolving a difference", () => {
  test.each([
    [{ intent: "resolveDifference", differenceId: "4", note: "Refunded by hand" }, true],
    [{ intent: "resolveDifference", differenceId: "4", note: "   " }, false],
    [{ intent: "resolveDifference", differenceId: "4" }, false],
    [{ intent: "resolveDifference", differenceId: "0", note: "x" }, false],
    [{ intent: "resolveDifference", differenceId: "abc", note: "x" }, false],
    [{ intent: "resolveDifference", differenceId: "4", note: "x".repeat(501) }, false],
  ])("%o valid: %s", (input, valid) => {
    expect(resolveDifferenceSchema.safeParse(input).success).toBe(valid);
  });

  test("the note is required with a message, and trimmed", () => {
    const r = resolveDifferenceSchema.safeParse({ intent: "resolveDifference", differenceId: "4" });
    expect(r.success ? null : r.error.issues[0].message).toBe(
      "Say why the difference is resolved.",
    );
    expect(
      resolveDifferenceSchema.parse({ intent: "resolveDifference", differenceId: "4", note: " a " })
        .note,
    ).toBe("a");
  });
});

describe("a statement's month reconciled", () => {
  const zone = "America/Los_Angeles";

  test("the UTC days a month in the marketplace zone falls on: its last evening is the next UTC day", () => {
    const days = utcDaysOf(monthRange({ year: 2024, month: 2 }, zone));
    expect(days[0]).toBe("2024-02-01");
    expect(days.at(-1)).toBe("2024-03-01");
    expect(days).toHaveLength(30);
    expect(utcDaysOf(monthRange({ year: 2024, month: 2 }, "UTC")).at(-1)).toBe("2024-02-29");
  });

  const days = ["2024-02-27", "2024-02-28", "2024-02-29"];
  const ran = (day: string, at: string) => ({ day, finishedAt: new Date(at) });
  const allRan = days.map((d, i) => ran(d, `2024-03-0${i + 1}T10:00:00Z`));

  test.each([
    ["every day ran, nothing open", allRan, 0, null, "2024-03-03T10:00:00Z"],
    ["a day without a run", allRan.slice(1), 0, null, null],
    ["an open difference", allRan, 1, null, null],
    [
      "a difference resolved after the last run",
      allRan,
      0,
      "2024-03-05T09:00:00Z",
      "2024-03-05T09:00:00Z",
    ],
    [
      "a difference resolved before the last run",
      allRan,
      0,
      "2024-03-02T09:00:00Z",
      "2024-03-03T10:00:00Z",
    ],
    ["runs of other days only", [ran("2024-03-01", "2024-03-02T10:00:00Z")], 0, null, null],
  ] as const)("%s", (_, runs, openDifferences, resolved, expected) => {
    const at = monthReconciledAt(days, {
      runs,
      openDifferences,
      lastResolvedAt: resolved ? new Date(resolved) : null,
    });
    expect(at?.toISOString() ?? null).toBe(expected ? new Date(expected).toISOString() : null);
  });

  test("runs before 1970 (a negative epoch) date the month too", () => {
    const at = monthReconciledAt(["1950-01-01"], {
      runs: [ran("1950-01-01", "1950-01-02T10:00:00Z")],
      openDifferences: 0,
      lastResolvedAt: null,
    });
    expect(at?.toISOString()).toBe("1950-01-02T10:00:00.000Z");
  });

  test("no days: not reconciled", () => {
    expect(monthReconciledAt([], { runs: [], openDifferences: 0, lastResolvedAt: null })).toBe(
      null,
    );
  });

  test("the statement's line, dated in the marketplace zone", () => {
    expect(reconciledLine(new Date("2024-03-03T05:00:00Z"), zone)).toBe(
      "Reconciled with the payment provider on 03/02/2024.",
    );
    expect(reconciledLine(null, zone)).toBe("Not yet reconciled with the payment provider.");
  });
});
