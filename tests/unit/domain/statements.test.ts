import { describe, expect, it } from "vitest";
import {
  buildStatement,
  monthRange,
  movementAmounts,
  netOf,
  onStatement,
  parseStatementMonth,
  parseStatementOffset,
  statementKind,
  statementMonths,
  STATEMENT_PAGE_SIZE,
  type StatementMovement,
} from "../../../domain/statements";

const NY = "America/New_York";
let nextId = 1;
function mv(
  p: Partial<StatementMovement> & Pick<StatementMovement, "txtype" | "amountCents">,
): StatementMovement {
  return {
    id: nextId++,
    at: new Date("2026-11-10T15:00:00Z"),
    status: "succeeded",
    queued: false,
    name: "receiver payment",
    orderId: 1,
    externalId: "A1",
    transactionType: 1,
    role: "receiver",
    counterpartyId: 2,
    sideFeeCents: 0,
    sideShippingCents: 0,
    ...p,
  };
}

describe("movementAmounts: the columns of a movement, signed from the retailer's side", () => {
  it.each([
    // The worked example of docs/product/money.md: 2 units at 4250 captured (8500 + 850 fee + 2375 shipping).
    [
      "capture",
      11725,
      850,
      2375,
      { gross: -8500, fee: -850, shipping: -2375, penalty: 0, refund: 0, payout: 0, net: -11725 },
    ],
    // A swap payment without cash: fee and shipping only.
    [
      "capture",
      2275,
      300,
      1975,
      { gross: 0, fee: -300, shipping: -1975, penalty: 0, refund: 0, payout: 0, net: -2275 },
    ],
    // The order's columns larger than the amount: never more than was paid.
    [
      "capture",
      500,
      300,
      1975,
      { gross: 0, fee: -300, shipping: -200, penalty: 0, refund: 0, payout: 0, net: -500 },
    ],
    [
      "refund",
      11725,
      850,
      2375,
      { gross: 0, fee: 0, shipping: 0, penalty: 0, refund: 11725, payout: 0, net: 11725 },
    ],
    [
      "penalty",
      850,
      0,
      0,
      { gross: 0, fee: 0, shipping: 0, penalty: -850, refund: 0, payout: 0, net: -850 },
    ],
    [
      "transfer",
      8500,
      0,
      0,
      { gross: 0, fee: 0, shipping: 0, penalty: 0, refund: 0, payout: 8500, net: 8500 },
    ],
    [
      "authorization",
      16400,
      0,
      0,
      { gross: 0, fee: 0, shipping: 0, penalty: 0, refund: 0, payout: 0, net: 0 },
    ],
  ])(
    "%s of %i (fee %i, shipping %i)",
    (txtype, amountCents, sideFeeCents, sideShippingCents, expected) => {
      const a = movementAmounts({ txtype, amountCents, sideFeeCents, sideShippingCents });
      expect(a).toEqual(expected);
      expect(a.gross + a.fee + a.shipping + a.penalty + a.refund + a.payout).toBe(a.net);
    },
  );

  it("a sale's (or a swap's) payout: gross is what the buyer paid for the goods, the payout its own column", () => {
    const payout = { txtype: "transfer", amountCents: 8500, sideFeeCents: 0, sideShippingCents: 0 };
    for (const transactionType of [1, 2])
      expect(movementAmounts({ ...payout, transactionType })).toEqual({
        gross: 8500,
        fee: 0,
        shipping: 0,
        penalty: 0,
        refund: 0,
        payout: 8500,
        net: 8500,
      });
    // An RMA's payout (a swap's refund paid to the payout account) is no sale: payout only.
    expect(movementAmounts({ ...payout, transactionType: 3 })).toMatchObject({
      gross: 0,
      payout: 8500,
      net: 8500,
    });
  });
});

describe("onStatement", () => {
  it.each([
    ["capture", "succeeded", true],
    ["refund", "succeeded", true],
    ["transfer", "paid", true],
    ["transfer", "queued", true],
    ["penalty", "failed:card_declined", true],
    ["authorization", "requires_capture", false],
    ["release", "canceled", false],
    ["capture", "declined", false],
    ["refund", "pending", false],
  ])("%s %s -> %s", (txtype, status, expected) => {
    expect(onStatement({ txtype, status })).toBe(expected);
  });
});

describe("statementKind", () => {
  it.each([
    [1, "receiver", "Purchase"],
    [1, "provider", "Sale"],
    [2, "provider", "Swap"],
    [2, "receiver", "Swap"],
    [3, "receiver", "RMA"],
    [null, null, "Other"],
  ] as const)("type %s as %s -> %s", (t, role, kind) => {
    expect(statementKind(t, role)).toBe(kind);
  });
});

describe("buildStatement", () => {
  it("sorts the lines, keeps a running balance, totals by kind, closing = opening + net", () => {
    const later = new Date("2026-11-20T12:00:00Z");
    const earlier = new Date("2026-11-02T12:00:00Z");
    const s = buildStatement("2026-11", 1000, [
      mv({
        txtype: "transfer",
        amountCents: 8500,
        at: later,
        transactionType: 1,
        role: "provider",
        name: "provider payout",
      }),
      mv({
        txtype: "capture",
        amountCents: 11725,
        at: earlier,
        sideFeeCents: 850,
        sideShippingCents: 2375,
      }),
      mv({
        txtype: "refund",
        amountCents: 4675,
        at: later,
        transactionType: 3,
        role: "receiver",
        name: "receiver refund",
      }),
      mv({ txtype: "authorization", amountCents: 16400, at: earlier }),
    ]);
    expect(s.lines.map((l) => [l.kind, l.net, l.balance])).toEqual([
      ["Purchase", -11725, -10725],
      ["Sale", 8500, -2225],
      ["RMA", 4675, 2450],
    ]);
    expect(s.totals).toEqual({
      // The purchase's goods (−8500) and the sale's (+8500, what its buyer paid for them).
      gross: 0,
      fee: -850,
      shipping: -2375,
      penalty: 0,
      refund: 4675,
      payout: 8500,
      net: 1450,
    });
    expect(s.opening).toBe(1000);
    expect(s.closing).toBe(2450);
    expect(s.byKind.map((k) => [k.kind, k.count, k.net])).toEqual([
      ["Purchase", 1, -11725],
      ["Sale", 1, 8500],
      ["RMA", 1, 4675],
    ]);
    // Totals by kind add up to the totals.
    expect(s.byKind.reduce((t, k) => t + k.net, 0)).toBe(s.totals.net);
  });

  it("an empty month: opening = closing, no lines, no kinds", () => {
    const s = buildStatement("2026-10", -500, []);
    expect(s).toMatchObject({ opening: -500, closing: -500, lines: [], byKind: [] });
  });

  it("the opening of a month is the net of everything before it", () => {
    const before = [
      mv({ txtype: "capture", amountCents: 1000 }),
      mv({ txtype: "transfer", amountCents: 300 }),
    ];
    expect(netOf(before)).toBe(-700);
    const oct = buildStatement("2026-10", 0, before);
    const nov = buildStatement("2026-11", netOf(before), [
      mv({ txtype: "refund", amountCents: 200 }),
    ]);
    expect(nov.opening).toBe(oct.closing);
    expect(nov.closing).toBe(-500);
  });
});

describe("parseStatementMonth", () => {
  it.each([
    ["2026-11", { year: 2026, month: 11 }],
    ["2026-01", { year: 2026, month: 1 }],
    ["2026-13", null],
    ["2026-00", null],
    ["1999-12", null],
    ["2026-1", null],
    ["26-11", null],
    ["2026-11-01", null],
    ["abc", null],
    ["", null],
  ])("%j -> %j", (raw, expected) => {
    expect(parseStatementMonth(raw)).toEqual(expected);
  });
});

describe("monthRange: midnight to midnight in the marketplace zone", () => {
  it.each([
    [{ year: 2026, month: 11 }, "2026-11-01T04:00:00.000Z", "2026-12-01T05:00:00.000Z"],
    [{ year: 2026, month: 12 }, "2026-12-01T05:00:00.000Z", "2027-01-01T05:00:00.000Z"],
    [{ year: 2026, month: 3 }, "2026-03-01T05:00:00.000Z", "2026-04-01T04:00:00.000Z"],
  ])("%j", (m, from, to) => {
    const r = monthRange(m, NY);
    expect([r.from.toISOString(), r.to.toISOString()]).toEqual([from, to]);
  });
});

describe("parseStatementOffset", () => {
  it.each([
    [null, 5, 0],
    ["", 5, 0],
    ["0", 0, 0],
    [String(STATEMENT_PAGE_SIZE), STATEMENT_PAGE_SIZE + 1, STATEMENT_PAGE_SIZE],
    [String(STATEMENT_PAGE_SIZE), STATEMENT_PAGE_SIZE, null],
    ["7", 500, null],
    ["-100", 500, null],
    ["abc", 500, null],
    ["1e3", 5000, null],
  ])("%j of %i lines -> %j", (raw, count, expected) => {
    expect(parseStatementOffset(raw, count)).toBe(expected);
  });
});

describe("statementMonths: every month from the first movement's to the current one, newest first", () => {
  it("balances chain: each month opens with the closing of the month before", () => {
    const list = statementMonths(
      [
        { month: "2026-08", txtype: "capture", status: "succeeded", amountCents: 1000, count: 2 },
        {
          month: "2026-08",
          txtype: "authorization",
          status: "requires_capture",
          amountCents: 9999,
          count: 1,
        },
        { month: "2026-10", txtype: "transfer", status: "paid", amountCents: 400, count: 1 },
        { month: "2026-10", txtype: "refund", status: "declined", amountCents: 50, count: 1 },
        { month: "2027-01", txtype: "transfer", status: "paid", amountCents: 5, count: 1 },
      ],
      "2026-11",
    );
    expect(list.map((m) => [m.month, m.label, m.lines, m.opening, m.net, m.closing])).toEqual([
      ["2026-11", "November 2026", 0, -600, 0, -600],
      ["2026-10", "October 2026", 1, -1000, 400, -600],
      ["2026-09", "September 2026", 0, -1000, 0, -1000],
      ["2026-08", "August 2026", 2, 0, -1000, -1000],
    ]);
  });

  it("no movements: the current month alone", () => {
    expect(statementMonths([], "2026-11").map((m) => m.month)).toEqual(["2026-11"]);
  });

  it("a new year", () => {
    expect(
      statementMonths(
        [{ month: "2025-12", txtype: "transfer", status: "paid", amountCents: 1, count: 1 }],
        "2026-01",
      ).map((m) => m.month),
    ).toEqual(["2026-01", "2025-12"]);
  });
});
