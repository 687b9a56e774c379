/**
 * Store teams' rules (domain/teams.ts; docs/product/teams.md): what each role may do, which pages need what, and
 * the invitation form's refusals with their messages.
 */
import { describe, expect, test } from "vitest";
import {
  capabilityForPath,
  InviteMemberSchema,
  may,
  TEAM_MSG,
  type StoreCapability,
} from "../../../domain/teams";

describe("what each role may do", () => {
  const table: [string, Record<StoreCapability, boolean>][] = [
    ["owner", { list: true, buy: true, finance: true, team: true }],
    ["lister", { list: true, buy: false, finance: false, team: false }],
    ["buyer", { list: false, buy: true, finance: false, team: false }],
    ["finance", { list: false, buy: false, finance: true, team: false }],
  ];
  test.each(table)("%s", (role, can) => {
    for (const [what, allowed] of Object.entries(can))
      expect(may([role], what as StoreCapability), what).toBe(allowed);
  });
  test("roles add up; no role may nothing; an unknown role nothing", () => {
    expect(may(["lister", "buyer"], "list") && may(["lister", "buyer"], "buy")).toBe(true);
    expect(may(["lister", "buyer"], "team")).toBe(false);
    for (const what of ["list", "buy", "finance", "team"] as const) {
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
