/**
 * Staff's payments (the order card's and the RMA card's payments tabs) link each payment to its record in the
 * provider's dashboard (docs/product/screens.md, "Staff order and RMA cards"); the sandbox's records page in the
 * app has the same paths.
 */
import { describe, expect, it } from "vitest";
import { providerRecordUrl } from "../../app/components/orders/OrderParts";

const base = "https://dashboard.stripe.com/test";

describe("providerRecordUrl", () => {
  it.each([
    ["pi_3Abc", `${base}/payments/pi_3Abc`],
    ["ch_3Abc", `${base}/payments/ch_3Abc`],
    ["re_3Abc", `${base}/refunds/re_3Abc`],
    ["tr_1Abc", `${base}/connect/transfers/tr_1Abc`],
    ["other ref", `${base}/search?query=other%20ref`],
  ])("%s -> %s", (ref, url) => {
    expect(providerRecordUrl(base, ref)).toBe(url);
  });

  it.each([
    ["pi_sandbox_x1", "/sandbox/dashboard/payments/pi_sandbox_x1"],
    ["tr_sandbox_x1", "/sandbox/dashboard/connect/transfers/tr_sandbox_x1"],
  ])("the sandbox: %s -> %s", (ref, url) => {
    expect(providerRecordUrl("/sandbox/dashboard", ref)).toBe(url);
  });

  it("no dashboard or no provider record: no link", () => {
    expect(providerRecordUrl(null, "pi_3Abc")).toBeNull();
    expect(providerRecordUrl(base, null)).toBeNull();
  });
});
