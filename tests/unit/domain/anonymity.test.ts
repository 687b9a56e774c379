import { describe, expect, it } from "vitest";
import {
  anonymousRetailerLabel,
  displayRetailer,
  listedByText,
  mentionsAnonymousLabel,
  requestedByText,
} from "../../../domain/anonymity";

describe("anonymous retailer label", () => {
  it.each([
    [1, "retailer-001"],
    [7, "retailer-007"],
    [10, "retailer-0010"],
    [123, "retailer-00123"],
    [98765, "retailer-0098765"],
  ])("%i -> %s (literally 'retailer-00' + id)", (id, label) => {
    expect(anonymousRetailerLabel(id)).toBe(label);
  });

  it.each([0, -1, 1.5, Number.NaN, "7" as unknown as number])("rejects %s", (bad) => {
    expect(() => anonymousRetailerLabel(bad)).toThrow(RangeError);
  });

  it("non-staff see the label, never the store name", () => {
    const r = { id: 7, storeName: "Shoe Palace" };
    expect(displayRetailer(r, false)).toBe("retailer-007");
    expect(displayRetailer(r, false, 9)).toBe("retailer-007");
    expect(listedByText(r)).toBe("Listed by retailer-007");
    expect(requestedByText(r)).toBe("Requested by retailer-007");
    expect(listedByText(r, false)).not.toContain("Shoe Palace");
  });

  it("staff see the store name (the label when there is none); a retailer sees its own name", () => {
    expect(displayRetailer({ id: 7, storeName: "Shoe Palace" }, true)).toBe("Shoe Palace");
    expect(displayRetailer({ id: 7, storeName: "  " }, true)).toBe("retailer-007");
    expect(displayRetailer({ id: 7, storeName: null }, true)).toBe("retailer-007");
    expect(displayRetailer({ id: 7, storeName: "Shoe Palace" }, false, 7)).toBe("Shoe Palace");
    expect(listedByText({ id: 123, storeName: "Boots & Co" }, true)).toBe("Listed by Boots & Co");
    expect(requestedByText({ id: 123, storeName: "Boots & Co" }, true)).toBe(
      "Requested by Boots & Co",
    );
  });

  it("mentionsAnonymousLabel does not confuse 7 with 71", () => {
    expect(mentionsAnonymousLabel("Listed by retailer-007.", 7)).toBe(true);
    expect(mentionsAnonymousLabel("Listed by retailer-0071", 7)).toBe(false);
  });
});
