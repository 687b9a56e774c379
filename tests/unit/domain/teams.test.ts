/**
 * Store teams' rules (domain/teams.ts; docs/product/teams.md): what each role may do, the invitation form's
 * refusals with their messages, and a buyer's limits.
 */
import { describe, expect, test } from "vitest";
import {
  InviteMemberSchema,
  limitsText,
  may,
  overLimit,
  STORE_ROLES,
  TEAM_MSG,
  type StoreCapability,
} from "../../../domain/teams";

describe("what each role may do", () => {
  const table: [string, Record<StoreCapability, boolean>][] = [
    ["owner", { list: true, buy: true, approve: true, finance: true, team: true }],
    ["lister", { list: true, buy: false, approve: false, finance: false, team: false }],
    ["buyer", { list: false, buy: true, approve: false, finance: false, team: false }],
    ["approver", { list: false, buy: false, approve: true, finance: false, team: false }],
    ["finance", { list: false, buy: false, approve: false, finance: true, team: false }],
  ];
  test.each(table)("%s", (role, can) => {
    for (const [what, allowed] of Object.entries(can))
      expect(may([role], what as StoreCapability), what).toBe(allowed);
  });
  test("roles add up; no role may nothing", () => {
    expect(may(["lister", "buyer"], "list") && may(["lister", "buyer"], "buy")).toBe(true);
    expect(may(["lister", "buyer"], "team")).toBe(false);
    expect(STORE_ROLES.some((r) => may([], r === "owner" ? "team" : "list"))).toBe(false);
  });
});

describe("the invitation form", () => {
  const parse = (v: Record<string, unknown>) => InviteMemberSchema.safeParse(v);
  const messages = (v: Record<string, unknown>) => {
    const r = parse(v);
    return r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message]);
  };
  test("a buyer with both limits, in cents; roles deduplicated", () => {
    expect(
      parse({
        email: " Ann@Example.com ",
        roles: ["buyer", "buyer", "lister"],
        order_limit: "500",
        monthly_limit: "2,000.50",
      }),
    ).toMatchObject({
      success: true,
      data: {
        email: "Ann@Example.com",
        roles: ["buyer", "lister"],
        order_limit: 50000,
        monthly_limit: 200050,
      },
    });
  });
  test("a lister needs no limit (empty fields are no limit)", () => {
    expect(
      parse({ email: "l@example.com", roles: ["lister"], order_limit: "", monthly_limit: " " }),
    ).toMatchObject({ success: true, data: { order_limit: undefined, monthly_limit: undefined } });
  });
  test.each<[string, Record<string, unknown>, [string, string][]]>([
    ["no role", { email: "a@example.com", roles: [] }, [["roles", TEAM_MSG.roleRequired]]],
    [
      "the owner role (not given by invitation)",
      { email: "a@example.com", roles: ["owner"] },
      [["roles.0", expect.any(String)]],
    ],
    [
      "a buyer without limits",
      { email: "a@example.com", roles: ["buyer"] },
      [
        ["order_limit", TEAM_MSG.limitRequired],
        ["monthly_limit", TEAM_MSG.limitRequired],
      ],
    ],
    [
      "limits for a finance person",
      { email: "a@example.com", roles: ["finance"], order_limit: "10" },
      [["order_limit", TEAM_MSG.limitsForBuyers]],
    ],
    [
      "a month below the order",
      { email: "a@example.com", roles: ["buyer"], order_limit: "100", monthly_limit: "50" },
      [["monthly_limit", TEAM_MSG.monthBelowOrder]],
    ],
    [
      "a bad address",
      { email: "nobody", roles: ["lister"] },
      [["email", "A valid email address is required."]],
    ],
  ])("refuses %s", (_, input, expected) => {
    expect(messages(input)).toEqual(expected);
  });
});

describe("a buyer's limits", () => {
  const limits = { orderLimitCents: 50_000, monthlyLimitCents: 120_000 };
  test.each<[string, number, number, ReturnType<typeof overLimit>]>([
    ["within both", 50_000, 70_000, null],
    ["over the order limit by a cent", 50_001, 0, { limit: "order", overCents: 1 }],
    ["the month's total would pass it", 40_000, 90_000, { limit: "month", overCents: 10_000 }],
    ["exactly at the month's limit", 20_000, 100_000, null],
  ])("%s", (_, total, month, expected) => {
    expect(overLimit(limits, total, month)).toEqual(expected);
  });
  test("no limits (an owner) is never over", () => {
    expect(overLimit({ orderLimitCents: null, monthlyLimitCents: null }, 10 ** 9, 10 ** 9)).toBe(
      null,
    );
  });
  test("as the team page shows them", () => {
    expect(limitsText(limits)).toBe("$500.00 an order, $1,200.00 a month");
    expect(limitsText({ orderLimitCents: null, monthlyLimitCents: null })).toBe("No limit");
  });
});
