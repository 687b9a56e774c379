import { describe, expect, it } from "vitest";
import {
  ACTION,
  ACTION_CODES,
  actionCodeInfo,
  actionLabel,
  ADMIN_ACTION_FILTER_OPTIONS,
  isActionCode,
} from "../../../domain/action-codes";

const SPEC_CODES: Record<number, string> = {
  910: "Call Tag Scheduled (ship swap)",
  911: "Call Tag Rescheduled (ship swap try2)",
  920: "Call Tag Scheduled (ship order)",
  921: "Call Tag Rescheduled (ship order try2)",
  119: "Delivered (shipment delivered)",
  222: "Delivered (receiver confirm order)",
  110: "In-Route (shipment picked up)",
  212: "provider approve swap",
  213: "receiver approve swap",
  220: "receiver approve purchase",
  221: "provider approve sale",
  810: "payment",
  214: "confirm swap items",
  223: "order created for request",
  210: "swap requested",
  115: "provider swap non-shipment (unfulfilled)",
  116: "receiver swap non-shipment",
  211: "provider chooses swap items",
};

describe("action codes", () => {
  it("codes are unique", () => {
    const codes = ACTION_CODES.map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(Object.values(ACTION)).size).toBe(Object.values(ACTION).length);
  });

  it("keys and labels are unique and non-empty", () => {
    expect(new Set(ACTION_CODES.map((a) => a.key)).size).toBe(ACTION_CODES.length);
    expect(new Set(ACTION_CODES.map((a) => a.label)).size).toBe(ACTION_CODES.length);
    for (const a of ACTION_CODES) expect(a.label.trim().length).toBeGreaterThan(0);
  });

  it("every code the product names is present with its text", () => {
    for (const [code, label] of Object.entries(SPEC_CODES)) {
      const info = actionCodeInfo(Number(code));
      expect(info, `code ${code}`).toBeDefined();
      expect(info!.label).toBe(label);
      expect(info!.origin).toBe("spec");
    }
    expect(ACTION_CODES.filter((a) => a.origin === "spec")).toHaveLength(
      Object.keys(SPEC_CODES).length,
    );
  });

  it("our codes are three-digit integers that the specification does not use", () => {
    for (const a of ACTION_CODES.filter((x) => x.origin === "ours")) {
      expect(Number.isInteger(a.code)).toBe(true);
      expect(a.code).toBeGreaterThanOrEqual(100);
      expect(a.code).toBeLessThanOrEqual(999);
      expect(SPEC_CODES[a.code]).toBeUndefined();
    }
  });

  it("covers the steps the specifications leave without a code", () => {
    for (const key of [
      "CHECKOUT_COMPLETED",
      "PROVIDER_DECLINE_SALE",
      "RECEIVER_DECLINE_CHECKOUT",
      "PROVIDER_MODIFY_SALE",
      "RECEIVER_DECLINE_MODIFIED_PURCHASE",
      "CHECKOUT_EXPIRED",
      "SELLER_RESPONSE_EXPIRED",
      "MODIFIED_PURCHASE_EXPIRED",
      "REQUEST_CHECKOUT_EXPIRED",
      "SHIPMENT_CANCELLED",
      "PROVIDER_ORDER_NON_SHIPMENT",
      "REFUND_ISSUED",
      "PENALTY_CHARGED",
      "PAYOUT_RELEASED",
      "RECEIVER_RATED",
      "ORDER_COMPLETED",
      "PAYOUT_ACCOUNT_SET_UP",
    ] as const) {
      expect(isActionCode(ACTION[key])).toBe(true);
    }
  });

  it("lookups", () => {
    expect(actionLabel(921)).toBe("Call Tag Rescheduled (ship order try2)");
    expect(actionLabel(12345)).toBe("action 12345");
    expect(isActionCode(110)).toBe(true);
    expect(isActionCode(111)).toBe(false);
    expect(isActionCode("110")).toBe(false);
  });

  it("admin filter options list every code, sorted", () => {
    expect(ADMIN_ACTION_FILTER_OPTIONS).toHaveLength(ACTION_CODES.length);
    const values = ADMIN_ACTION_FILTER_OPTIONS.map((o) => o.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(ADMIN_ACTION_FILTER_OPTIONS.find((o) => o.value === 910)?.label).toBe(
      "910 Call Tag Scheduled (ship swap)",
    );
  });

  it("every code is documented in docs/guides/action-codes-and-reasons.md (ADR 0002)", async () => {
    // Vitest runs under Node, so the test (not the domain) may read the docs.
    const { readFileSync } = await import("node:fs");
    const adr = readFileSync(
      new URL("../../../docs/guides/action-codes-and-reasons.md", import.meta.url),
      "utf8",
    );
    for (const a of ACTION_CODES) {
      expect(adr, `code ${a.code}`).toContain(`| ${a.code} |`);
    }
  });
});
