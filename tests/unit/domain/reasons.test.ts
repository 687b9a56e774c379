import { describe, expect, it } from "vitest";
import {
  ALL_NUMERIC_REASONS,
  BUYER_DECLINE_DEFAULT_REASON,
  BUYER_DECLINE_REASONS,
  CANCEL_SHIPMENT_REASONS,
  choiceSchema,
  DECLINE_OTHERS_REASON,
  FLOOR_TIMES,
  isChoice,
  isUnitUnavailableReason,
  labelFor,
  LISTING_REASONS,
  MODIFIED_REASON_NONE,
  MODIFIED_REASONS,
  MODIFIED_REASONS_FOR_EDIT,
  reasonLabel,
  REQUEST_REASONS,
  RMA_REASON_OTHER,
  RMA_REASONS,
  rmaReasonCountsForShipping,
  rmaReasonNeedsPictures,
  SELLER_DECLINE_REASONS,
  SWAP_DECLINE_REASONS,
  SYSTEM_REASONS,
  UNIT_UNAVAILABLE_REASONS,
  valuesOf,
  type Choice,
} from "../../../domain/reasons";

const LISTS: Record<string, readonly Choice[]> = {
  LISTING_REASONS,
  REQUEST_REASONS,
  MODIFIED_REASONS,
  FLOOR_TIMES,
  SELLER_DECLINE_REASONS,
  BUYER_DECLINE_REASONS,
  SYSTEM_REASONS,
  CANCEL_SHIPMENT_REASONS,
  SWAP_DECLINE_REASONS,
  RMA_REASONS,
};

describe("reason lists", () => {
  it.each(Object.entries(LISTS))(
    "%s: unique values and labels, non-empty labels, one value type",
    (_name, list) => {
      expect(list.length).toBeGreaterThan(0);
      expect(new Set(list.map((c) => c.value)).size).toBe(list.length);
      expect(new Set(list.map((c) => c.label)).size).toBe(list.length);
      for (const c of list) expect(c.label.trim()).not.toBe("");
      expect(new Set(list.map((c) => typeof c.value)).size).toBe(1);
      expect(Object.isFrozen(list)).toBe(true);
    },
  );

  it("numeric reason codes do not collide across lists (one label per code)", () => {
    const codes = ALL_NUMERIC_REASONS.map((c) => c.value);
    expect(new Set(codes).size).toBe(codes.length);
    expect(reasonLabel(15)).toBe("The units were sold to another retailer");
    expect(reasonLabel(999)).toBe("Reason 999");
  });

  it("seller decline reasons 14, 15, 16 and 18 mean units unavailable", () => {
    expect([...UNIT_UNAVAILABLE_REASONS]).toEqual([14, 15, 16, 18]);
    for (const c of UNIT_UNAVAILABLE_REASONS)
      expect(isChoice(SELLER_DECLINE_REASONS, c)).toBe(true);
    expect(isUnitUnavailableReason(15)).toBe(true);
    expect(isUnitUnavailableReason(10)).toBe(false);
    expect(isUnitUnavailableReason(17)).toBe(false);
    expect(isUnitUnavailableReason(DECLINE_OTHERS_REASON)).toBe(true);
  });

  it("buyer decline reasons are the specification's, default 30", () => {
    expect(labelFor(BUYER_DECLINE_REASONS, 0)).toBe("No longer need it");
    expect(labelFor(BUYER_DECLINE_REASONS, 1)).toBe("Purchased it from the brand");
    expect(labelFor(BUYER_DECLINE_REASONS, 2)).toBe("Selling retailer has a bad rating");
    expect(BUYER_DECLINE_DEFAULT_REASON).toBe(30);
    expect(isChoice(BUYER_DECLINE_REASONS, 30)).toBe(true);
  });

  it("modified_reason has 'none', which is not a reason for an edit", () => {
    expect(MODIFIED_REASONS[0].value).toBe(MODIFIED_REASON_NONE);
    expect(valuesOf(MODIFIED_REASONS_FOR_EDIT)).not.toContain("none");
    expect(MODIFIED_REASONS_FOR_EDIT).toHaveLength(MODIFIED_REASONS.length - 1);
  });

  it("floor times are a short list of day ranges", () => {
    expect(FLOOR_TIMES.length).toBeGreaterThanOrEqual(3);
    expect(FLOOR_TIMES.length).toBeLessThanOrEqual(8);
    expect(labelFor(FLOOR_TIMES, "0-30")).toBe("0-30 days");
  });

  it("RMA reasons: 0, 1 and 3 need pictures; 4 is other; shipping rule", () => {
    expect(valuesOf(RMA_REASONS)).toEqual([0, 1, 2, 3, 4]);
    expect(RMA_REASONS[RMA_REASONS.length - 1].value).toBe(RMA_REASON_OTHER);
    expect([0, 1, 2, 3, 4].map(rmaReasonNeedsPictures)).toEqual([true, true, false, true, false]);
    expect(rmaReasonCountsForShipping(0)).toBe(true);
    expect(rmaReasonCountsForShipping(2)).toBe(false);
    expect(rmaReasonCountsForShipping(4, "box arrived late, Shipping damage")).toBe(true);
    expect(rmaReasonCountsForShipping(4, "wrong colour")).toBe(false);
    expect(rmaReasonCountsForShipping(4)).toBe(false);
  });
});

describe("choiceSchema", () => {
  it("accepts values of the list, coercing numeric strings", () => {
    const s = choiceSchema(SELLER_DECLINE_REASONS, "Pick a reason");
    expect(s.parse(14)).toBe(14);
    expect(s.parse("14")).toBe(14);
    expect(s.parse(" 18 ")).toBe(18);
    for (const bad of ["17", 17, "", "abc", null, undefined, 14.5, "1e1"]) {
      const r = s.safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      if (!r.success) expect(r.error.issues[0].message).toBe("Pick a reason");
    }
  });

  it("string lists stay strings", () => {
    const s = choiceSchema(FLOOR_TIMES, "Pick one");
    expect(s.parse("31-60")).toBe("31-60");
    expect(s.safeParse("31 - 60").success).toBe(false);
    expect(s.safeParse(0).success).toBe(false);
  });
});
