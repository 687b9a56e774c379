import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  checkPhoto,
  LISTING_TYPES,
  MAX_PHOTO_BYTES,
  nextStage,
  parseStage,
  parseWizardState,
  photoTypeFromBytes,
  productNotFoundText,
  shouldSearch,
  sizeCountsSchema,
  sizesMapFrom,
  styleSchema,
  termsSchema,
  WIZARD_MESSAGES,
  wizardQuery,
  type WizardState,
} from "../../domain/listing-forms";
import { ACCEPT_TERMS, ADD_AT_LEAST_ONE_SIZE, SELECT_COLOR_OPTION } from "../../domain/messages";

function fd(entries: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries))
    for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
  return f;
}

function errorsOf(result: {
  reply(): { error?: Record<string, string[] | null> | null };
}): Record<string, string[] | null> {
  const reply = result.reply();
  return (reply.error ?? {}) as Record<string, string[] | null>;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const TEXT = new TextEncoder().encode("hello, I am not a picture");

describe("stages", () => {
  it("listing has photos, request does not; unknown stages are null", () => {
    expect(parseStage("listing", null)).toBe(0);
    expect(parseStage("listing", "2")).toBe(2);
    expect(parseStage("request", "2")).toBeNull();
    expect(parseStage("listing", "5")).toBeNull();
    expect(parseStage("listing", "1.0")).toBeNull();
    expect(parseStage("listing", "abc")).toBeNull();
    expect(nextStage("listing", 1)).toBe(2);
    expect(nextStage("request", 1)).toBe(3);
    expect(nextStage("listing", 3)).toBe(4);
  });

  it("search runs after more than 2 characters, or on submit", () => {
    expect(shouldSearch("ab", false)).toBe(false);
    expect(shouldSearch("  ab ", false)).toBe(false);
    expect(shouldSearch("abc", false)).toBe(true);
    expect(shouldSearch("", true)).toBe(true);
  });
});

describe("style step schema", () => {
  it("a missing colour gives the spec's message verbatim", () => {
    const e = errorsOf(
      parseWithZod(fd({ listingType: "sell", reason: "overstock" }), {
        schema: styleSchema("listing", false),
      }),
    );
    expect(e.variation).toEqual([SELECT_COLOR_OPTION]);
    expect(SELECT_COLOR_OPTION).toBe("You must select a color option to continue");
  });

  it("listing type and reason are required; staff must choose the provider", () => {
    const e = errorsOf(
      parseWithZod(fd({ variation: "12" }), { schema: styleSchema("listing", true) }),
    );
    expect(e.listingType).toEqual([WIZARD_MESSAGES.chooseListingType]);
    expect(e.reason).toEqual([WIZARD_MESSAGES.chooseReason]);
    expect(e.provider).toEqual([WIZARD_MESSAGES.chooseProvider]);
  });

  it("a retailer's submission ignores a provider field", () => {
    const r = parseWithZod(
      fd({ variation: "12", listingType: "swap", reason: "overstock", provider: "99" }),
      {
        schema: styleSchema("listing", false),
      },
    );
    expect(r.status).toBe("success");
    expect(r.status === "success" && r.value).toEqual({
      variation: 12,
      listingType: "swap",
      reason: "overstock",
      provider: undefined,
    });
  });

  it("rejects unknown types, reasons of the other list and bad ids", () => {
    const e = errorsOf(
      parseWithZod(fd({ variation: "-3", listingType: "rent", reason: "sold_out" }), {
        schema: styleSchema("listing", false),
      }),
    );
    expect(e.variation).toEqual([SELECT_COLOR_OPTION]);
    expect(e.listingType).toEqual([WIZARD_MESSAGES.chooseListingType]);
    expect(e.reason).toEqual([WIZARD_MESSAGES.chooseReason]);
    expect(LISTING_TYPES.map((t) => t.value)).toEqual(["sell", "swap"]);
  });

  it("request: variation, reason (requestor for staff)", () => {
    const e = errorsOf(parseWithZod(fd({}), { schema: styleSchema("request", true) }));
    expect(e.variation).toEqual([SELECT_COLOR_OPTION]);
    expect(e.reason).toEqual([WIZARD_MESSAGES.chooseReason]);
    expect(e.requestor).toEqual([WIZARD_MESSAGES.chooseRequestor]);
    const ok = parseWithZod(fd({ variation: "4", reason: "sold_out" }), {
      schema: styleSchema("request", false),
    });
    expect(ok.status).toBe("success");
  });
});

describe("sizes schema", () => {
  const schema = sizeCountsSchema(3);
  it("integer counters, empty is 0, total must exceed 0", () => {
    const ok = parseWithZod(fd({ "sizes[0]": "2", "sizes[1]": "", "sizes[2]": "5" }), { schema });
    expect(ok.status === "success" && ok.value.sizes).toEqual([2, 0, 5]);
    const none = parseWithZod(fd({ "sizes[0]": "0", "sizes[1]": "0", "sizes[2]": "" }), { schema });
    expect(errorsOf(none)[""]).toEqual([ADD_AT_LEAST_ONE_SIZE]);
    const missing = parseWithZod(fd({}), { schema });
    expect(errorsOf(missing)[""]).toEqual([ADD_AT_LEAST_ONE_SIZE]);
  });

  it("negative, fractional, non-numeric and huge counts are refused per field", () => {
    const e = errorsOf(
      parseWithZod(fd({ "sizes[0]": "-1", "sizes[1]": "1.5", "sizes[2]": "abc" }), { schema }),
    );
    expect(e["sizes[0]"]).toEqual([WIZARD_MESSAGES.sizeWholeNumber]);
    expect(e["sizes[1]"]).toEqual([WIZARD_MESSAGES.sizeWholeNumber]);
    expect(e["sizes[2]"]).toEqual([WIZARD_MESSAGES.sizeWholeNumber]);
    const big = errorsOf(parseWithZod(fd({ "sizes[0]": "100001" }), { schema }));
    expect(big["sizes[0]"]).toEqual([WIZARD_MESSAGES.sizeTooLarge]);
  });

  it("more counters than sizes are refused; an edit may total 0", () => {
    expect(parseWithZod(fd({ "sizes[0]": "1", "sizes[3]": "1" }), { schema }).status).toBe("error");
    const del = parseWithZod(fd({ "sizes[0]": "0" }), {
      schema: sizeCountsSchema(2, { requirePositiveTotal: false }),
    });
    expect(del.status === "success" && del.value.sizes).toEqual([0, 0]);
  });

  it("sizesMapFrom pairs labels (dots included) with counts", () => {
    expect(sizesMapFrom(["6", "6.5", "7"], [1, 0, 2])).toEqual({ "6": 1, "6.5": 0, "7": 2 });
  });
});

describe("terms schema", () => {
  it("must be ticked", () => {
    expect(errorsOf(parseWithZod(fd({}), { schema: termsSchema })).terms).toEqual([ACCEPT_TERMS]);
    expect(parseWithZod(fd({ terms: "on" }), { schema: termsSchema }).status).toBe("success");
  });
});

describe("state in the URL", () => {
  it("round-trips through wizardQuery", () => {
    const state: WizardState = {
      brand: 3,
      q: "RDG-1",
      product: 8,
      variation: 21,
      listingType: "swap",
      reason: "overstock",
      retailer: 5,
      sizes: { S: 1, "6.5": 2 },
      images: ["0f8fad5b-d9cb-469f-a165-70867728950e.png"],
    };
    const q = new URLSearchParams(wizardQuery("listing", 3, state));
    expect(q.get("stage")).toBe("3");
    expect(q.get("provider")).toBe("5");
    expect(parseWizardState("listing", q)).toEqual({ ok: true, state });
    const rq = new URLSearchParams(
      wizardQuery("request", 1, {
        ...state,
        listingType: undefined,
        images: undefined,
        reason: "sold_out",
      }),
    );
    expect(rq.get("requestor")).toBe("5");
    expect(rq.has("type")).toBe(false);
  });

  it("malformed values make the state invalid", () => {
    const bad = [
      "brand=abc",
      "product=0",
      "variation=99999999999",
      "type=rent",
      "reason=nope",
      "sizes={",
      'sizes={"S":-1}',
      "images=../../etc/passwd",
      "provider=1e3",
    ];
    for (const b of bad)
      expect(parseWizardState("listing", new URLSearchParams(b)).ok, b).toBe(false);
    expect(parseWizardState("request", new URLSearchParams("reason=overstock")).ok).toBe(false);
    expect(parseWizardState("listing", new URLSearchParams("")).ok).toBe(true);
  });
});

describe("photos", () => {
  it("accepts real png and jpeg files named .png/.jpg/.jpeg", () => {
    expect(checkPhoto("a.png", PNG)).toEqual({ ok: true, type: "png" });
    expect(checkPhoto("a.JPG", JPG)).toEqual({ ok: true, type: "jpg" });
    expect(checkPhoto("a.jpeg", JPG)).toEqual({ ok: true, type: "jpg" });
    expect(photoTypeFromBytes(PNG)).toBe("png");
  });

  it("refuses a text file renamed .png, other extensions, empty and too-large files", () => {
    expect(checkPhoto("notes.png", TEXT)).toEqual({
      ok: false,
      message: WIZARD_MESSAGES.photoType,
    });
    expect(checkPhoto("a.gif", PNG)).toEqual({ ok: false, message: WIZARD_MESSAGES.photoType });
    expect(checkPhoto("a.png", new Uint8Array())).toEqual({
      ok: false,
      message: WIZARD_MESSAGES.photoEmpty,
    });
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set(PNG);
    expect(checkPhoto("a.png", big)).toEqual({ ok: false, message: WIZARD_MESSAGES.photoTooLarge });
    const exact = new Uint8Array(MAX_PHOTO_BYTES);
    exact.set(PNG);
    expect(checkPhoto("a.png", exact).ok).toBe(true);
  });
});

describe("product not found", () => {
  it("names every detail support needs, with the support e-mail and phone", () => {
    const t = productNotFoundText("listing", { email: "help@x.test", phone: "1-800-555-0199" });
    for (const w of [
      "help@x.test",
      "1-800-555-0199",
      "brand",
      "season",
      "product code",
      "colour",
      "wholesale cost",
      "sizes",
      "reason",
      "phone number",
    ]) {
      expect(t).toContain(w);
    }
  });
});
