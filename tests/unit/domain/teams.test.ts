/**
 * Store teams' rules (domain/teams.ts; docs/product/teams.md): what each role may do, which pages need what, and
 * the invitation form's refusals with their messages.
 */
import { describe, expect, test } from "vitest";
import {
  capabilityForPath,
  InviteMemberSchema,
  MemberLimitsSchema,
  may,
  monthStart,
  storeApprovalDeadline,
  storeApprovalNeed,
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
  test("roles add up; no role may nothing; an unknown role nothing", () => {
    expect(may(["lister", "buyer"], "list") && may(["lister", "buyer"], "buy")).toBe(true);
    expect(may(["lister", "buyer"], "team")).toBe(false);
    for (const what of ["list", "buy", "approve", "finance", "team"] as const) {
      expect(may([], what)).toBe(false);
      expect(may(["admin"], what)).toBe(false);
    }
  });
});

describe("which pages need what", () => {
  test.each<[string, StoreCapability | null]>([
    ["/addlisting", "list"],
    ["/updatelisting/12", "list"],
    ["/stock-import", "list"],
    ["/settings/api", "list"],
    ["/cart", "buy"],
    ["/checkout/pay", "buy"],
    ["/offers/new", "buy"],
    ["/requestlisting", "buy"],
    ["/statements/2026-10.csv", "finance"],
    ["/statements", "finance"],
    ["/settings/payout", "finance"],
    ["/settings/team", "team"],
    ["/getpaid", "finance"],
    ["/brands", "team"],
    ["/settings/store", "team"],
    // Open to every member.
    ["/", null],
    ["/buy", null],
    ["/orders/sales", null],
    ["/offers/12", null],
    ["/alerts", null],
    ["/settings/password", null],
    ["/carton", null],
    ["/statementsx", null],
  ])("%s", (path, need) => {
    expect(capabilityForPath(path)).toBe(need);
  });
});

describe("the invitation form", () => {
  const parse = (v: Record<string, unknown>) => InviteMemberSchema.safeParse(v);
  test("an address and roles, deduplicated", () => {
    expect(
      parse({ email: " Ann@Example.com ", roles: ["buyer", "buyer", "lister"] }),
    ).toMatchObject({
      success: true,
      data: { email: "Ann@Example.com", roles: ["buyer", "lister"] },
    });
  });
  test.each<[string, Record<string, unknown>, [string, unknown][]]>([
    ["no role", { email: "a@example.com", roles: [] }, [["roles", TEAM_MSG.roleRequired]]],
    ["no roles field", { email: "a@example.com" }, [["roles", TEAM_MSG.roleRequired]]],
    [
      "the owner role (not given by invitation)",
      { email: "a@example.com", roles: ["owner"] },
      [["roles.0", expect.any(String)]],
    ],
    [
      "a bad address",
      { email: "nobody", roles: ["lister"] },
      [["email", "A valid email address is required."]],
    ],
  ])("refuses %s", (_, input, expected) => {
    const r = parse(input);
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toEqual(
      expected,
    );
  });
});

describe("a buyer's limits", () => {
  const limits = { orderLimitCents: 50_000, monthLimitCents: 200_000 };
  test.each<[string, string[], number, number, ReturnType<typeof storeApprovalNeed>]>([
    ["within both", ["buyer"], 0, 50_000, null],
    [
      "one cent over the order limit",
      ["buyer"],
      0,
      50_001,
      { reason: "order_limit", limitCents: 50_000 },
    ],
    ["the month reaches its limit exactly", ["buyer"], 150_000, 50_000, null],
    [
      "the month goes one cent over",
      ["buyer"],
      150_001,
      50_000,
      { reason: "month_limit", limitCents: 200_000 },
    ],
    [
      "both: the order limit is named",
      ["buyer"],
      199_000,
      60_000,
      { reason: "order_limit", limitCents: 50_000 },
    ],
    ["an owner has none", ["owner", "buyer"], 900_000, 900_000, null],
  ])("%s", (_name, roles, spent, total, need) => {
    expect(storeApprovalNeed(roles, limits, spent, total)).toEqual(need);
  });
  test("no limits: never waits", () => {
    expect(
      storeApprovalNeed(
        ["buyer"],
        { orderLimitCents: null, monthLimitCents: null },
        10 ** 9,
        10 ** 9,
      ),
    ).toBeNull();
  });
  test("the month starts at midnight of its first day in the marketplace's zone", () => {
    const now = Date.parse("2026-03-01T03:00:00Z"); // still 28 February in New York
    expect(new Date(monthStart(now, "America/New_York")).toISOString()).toBe(
      "2026-02-01T05:00:00.000Z",
    );
    expect(
      new Date(monthStart(Date.parse("2026-07-15T12:00:00Z"), "America/New_York")).toISOString(),
    ).toBe("2026-07-01T04:00:00.000Z");
  });
  test.each<[Record<string, string>, unknown]>([
    [
      { userId: "7", orderLimit: "500", monthLimit: "" },
      { userId: 7, orderLimit: 50_000, monthLimit: null },
    ],
    [
      { userId: "7", orderLimit: " 12.50 ", monthLimit: "2000" },
      { userId: 7, orderLimit: 1250, monthLimit: 200_000 },
    ],
    [{ userId: "7" }, { userId: 7, orderLimit: null, monthLimit: null }],
  ])("limits typed %j", (form, value) => {
    expect(MemberLimitsSchema.parse(form)).toEqual(value);
  });
  test.each([["0"], ["-5"], ["ten"]])("refused: %s", (typed) => {
    const r = MemberLimitsSchema.safeParse({ userId: "7", orderLimit: typed, monthLimit: "" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(TEAM_MSG.limitPositive);
  });
});

describe("when a store's approval runs out", () => {
  const cal = { timeZone: "America/New_York", holidays: ["2026-09-07"] };
  test.each([
    ["Monday 10:00 → Wednesday 10:00", "2026-03-02T15:00:00Z", "2026-03-04T15:00:00Z"],
    [
      "Friday 10:00 before Labor Day → Wednesday 10:00",
      "2026-09-04T14:00:00Z",
      "2026-09-09T14:00:00Z",
    ],
    [
      "Saturday 10:00 → Wednesday 00:00 (counted from Monday's start)",
      "2026-03-07T15:00:00Z",
      "2026-03-11T04:00:00Z",
    ],
  ])("%s", (_name, at, by) => {
    expect(new Date(storeApprovalDeadline(Date.parse(at), cal)).toISOString()).toBe(
      new Date(by).toISOString(),
    );
  });
  test("never past the pre-authorisation's life (a long holiday calendar)", () => {
    const at = Date.parse("2026-03-02T15:00:00Z");
    const every = Array.from({ length: 10 }, (_, i) => `2026-03-${String(i + 3).padStart(2, "0")}`);
    expect(storeApprovalDeadline(at, { ...cal, holidays: every })).toBe(
      at + 7 * 24 * 3_600_000 - 3_600_000,
    );
  });
});
