import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  BrandsStepSchema,
  ContactStepSchema,
  MSG,
  RegisterSchema,
  ResetConfirmSchema,
  ResetRequestSchema,
  RetailerStepSchema,
  SignInSchema,
  dollarsToCents,
  normalizeResaleNumber,
  normalizeUsPhone,
  requiredActionPath,
  retailerMayTrade,
  safeNextPath,
  setupStepFor,
  storeInfoColumns,
  storeInfoFormValues,
} from "../../domain/accounts";
import {
  generateResetToken,
  hashPassword,
  hashResetToken,
  looksLikeResetToken,
  sameDigest,
  verifyPassword,
} from "../../app/utils/password.server";

function form(entries: Record<string, string | string[]>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries))
    for (const x of Array.isArray(v) ? v : [v]) fd.append(k, x);
  return fd;
}
function errors(
  schema: Parameters<typeof parseWithZod>[1]["schema"],
  entries: Record<string, string | string[]>,
) {
  const s = parseWithZod(form(entries), { schema });
  return s.status === "success" ? null : (s.reply().error ?? {});
}

describe("registration schema", () => {
  it("accepts a valid e-mail, a decent password and a matching confirmation", () => {
    const s = parseWithZod(
      form({ email: " Jane@Store.test ", password: "longenough", confirm: "longenough" }),
      { schema: RegisterSchema },
    );
    expect(s.status).toBe("success");
    if (s.status === "success") expect(s.value.email).toBe("Jane@Store.test");
  });

  it("uses the specification's messages verbatim", () => {
    expect(
      errors(RegisterSchema, { email: "nope", password: "longenough", confirm: "longenough" }),
    ).toEqual({
      email: ["A valid email address is required."],
    });
    expect(errors(RegisterSchema, { email: "", password: "", confirm: "" })).toMatchObject({
      email: ["A valid email address is required."],
      password: ["Please enter a decent password."],
    });
    expect(
      errors(RegisterSchema, { email: "a@b.test", password: "longenough", confirm: "different1" }),
    ).toEqual({
      confirm: ["Passwords must match"],
    });
  });

  it("requires 8 to 128 characters, not only spaces", () => {
    expect(
      errors(RegisterSchema, { email: "a@b.test", password: "short7c", confirm: "short7c" }),
    ).toHaveProperty("password");
    expect(
      errors(RegisterSchema, { email: "a@b.test", password: "        ", confirm: "        " }),
    ).toHaveProperty("password");
    const long = "x".repeat(129);
    expect(
      errors(RegisterSchema, { email: "a@b.test", password: long, confirm: long }),
    ).toHaveProperty("password");
    expect(
      errors(RegisterSchema, { email: "a@b.test", password: "12345678", confirm: "12345678" }),
    ).toBeNull();
  });
});

describe("sign-in and reset schemas", () => {
  it("sign-in needs an e-mail and a password", () => {
    expect(errors(SignInSchema, { email: "", password: "" })).toMatchObject({
      email: [MSG.emailInvalid],
      password: [MSG.passwordIndecent],
    });
  });

  it("reset start: 'Email field is mandatory'", () => {
    expect(errors(ResetRequestSchema, { email: "" })).toEqual({
      email: ["Email field is mandatory"],
    });
    expect(errors(ResetRequestSchema, { email: "x" })).toEqual({ email: [MSG.resetEmailInvalid] });
  });

  it("new password: 'Please enter a decent password.' and 'passwords must match'", () => {
    expect(errors(ResetConfirmSchema, { new_password: "", confirm: "" })).toMatchObject({
      new_password: ["Please enter a decent password."],
    });
    expect(
      errors(ResetConfirmSchema, { new_password: "longenough", confirm: "longenougH" }),
    ).toEqual({
      confirm: ["passwords must match"],
    });
  });

  it("the reset confirmation and invalid-token texts are the specification's", () => {
    expect(MSG.resetSent.startsWith("Thanks. Please check your email")).toBe(true);
    expect(MSG.resetTokenInvalid).toBe(
      "This code is no longer valid, please reset your password again.",
    );
    expect(MSG.loginFailed).toBe("That password is incorrect; please try again");
  });
});

describe("retailer setup schemas", () => {
  const retailer = {
    store_name: "Blue Ridge Outpost",
    store_email: "store@blueridge.test",
    store_phone: "(828) 555-0100",
    business_name: "Blue Ridge Outpost LLC",
    address1: "12 Main St",
    city: "Asheville",
    state: "nc",
    postal_code: "28801-1234",
    resale_number: "12-3456789012-3",
  };

  it("normalises phone, state and resale number", () => {
    const s = parseWithZod(form(retailer), { schema: RetailerStepSchema });
    expect(s.status).toBe("success");
    if (s.status === "success") {
      expect(s.value.store_phone).toBe("+1-828-555-0100");
      expect(s.value.state).toBe("NC");
      expect(s.value.resale_number).toBe("12-3456789012-3");
    }
  });

  it("the parsed store fields map to the retailer row's columns (storeInfoColumns, shared by the wizard, Settings and staff)", () => {
    const s = parseWithZod(form(retailer), { schema: RetailerStepSchema });
    if (s.status !== "success") throw new Error("expected a valid store form");
    expect(storeInfoColumns(s.value)).toEqual({
      storeName: "Blue Ridge Outpost",
      storeEmail: "store@blueridge.test",
      storePhone: "+1-828-555-0100",
      businessName: "Blue Ridge Outpost LLC",
      address1: "12 Main St",
      city: "Asheville",
      state: "NC",
      postalCode: "28801-1234",
      resaleNumber: "12-3456789012-3",
    });
    // And back: the row's columns as the form's values, which parse to the same store.
    const again = parseWithZod(form(storeInfoFormValues(storeInfoColumns(s.value))), {
      schema: RetailerStepSchema,
    });
    expect(again.status === "success" && again.value).toEqual(s.value);
  });

  it("rejects bad state, ZIP and resale number with clear messages", () => {
    expect(
      errors(RetailerStepSchema, {
        ...retailer,
        state: "N",
        postal_code: "2880",
        resale_number: "12",
      }),
    ).toEqual({
      state: [MSG.stateInvalid],
      postal_code: [MSG.postalInvalid],
      resale_number: [MSG.resaleInvalid],
    });
    expect(errors(RetailerStepSchema, { ...retailer, store_name: "" })).toEqual({
      store_name: [MSG.required],
    });
  });

  it("contact: the cell phone is required; 'Other' needs job_title_other", () => {
    const contact = {
      first_name: "Ann",
      last_name: "Lee",
      job_title: "Buyer",
      phone: "8285550100",
      celphone: "",
    };
    expect(errors(ContactStepSchema, contact)).toEqual({ celphone: [MSG.celphoneRequired] });
    expect(
      errors(ContactStepSchema, { ...contact, celphone: "828 555 0101", job_title: "Other" }),
    ).toEqual({
      job_title_other: [MSG.jobTitleOtherRequired],
    });
    expect(
      errors(ContactStepSchema, {
        ...contact,
        celphone: "828 555 0101",
        job_title: "Other",
        job_title_other: "Owner's kid",
      }),
    ).toBeNull();
  });

  it("brands: at least one chosen or requested; a request needs a name", () => {
    expect(errors(BrandsStepSchema, {})).toEqual({ brand_ids: [MSG.brandsRequired] });
    expect(errors(BrandsStepSchema, { brand_ids: ["3"] })).toBeNull();
    expect(
      errors(BrandsStepSchema, {
        "requests[0].brand_name": "Acme Boots",
        "requests[0].brand_purchase_amount": "$25,000",
      }),
    ).toBeNull();
    expect(errors(BrandsStepSchema, { "requests[0].brand_contact_name": "Bob" })).toMatchObject({
      "requests[0].brand_name": [MSG.brandNameRequired],
    });
    expect(
      errors(BrandsStepSchema, {
        "requests[0].brand_name": "X",
        "requests[0].brand_purchase_amount": "lots",
      }),
    ).toMatchObject({
      "requests[0].brand_purchase_amount": [MSG.amountInvalid],
    });
    const s = parseWithZod(
      form({
        "requests[0].brand_name": "Acme",
        "requests[0].your_interest_in_this_brand": ["buy", "swap"],
        "requests[0].brand_purchase_amount": "1,200.5",
      }),
      { schema: BrandsStepSchema },
    );
    expect(s.status === "success" && s.value.requests?.[0]).toMatchObject({
      your_interest_in_this_brand: ["buy", "swap"],
      brand_purchase_amount: 120050,
    });
  });

  it("helpers", () => {
    expect(normalizeUsPhone("+1 (212) 555-0199")).toBe("+1-212-555-0199");
    expect(normalizeUsPhone("555-0199")).toBeNull();
    expect(normalizeResaleNumber("1234567890123")).toBe("12-3456789012-3");
    expect(dollarsToCents("$25,000")).toBe(2_500_000);
    expect(dollarsToCents("-5")).toBeNull();
    expect(setupStepFor({ hasRetailer: false, hasContact: false, setupComplete: false })).toBe(
      "retailer",
    );
    expect(setupStepFor({ hasRetailer: true, hasContact: false, setupComplete: false })).toBe(
      "contact",
    );
    expect(setupStepFor({ hasRetailer: true, hasContact: true, setupComplete: false })).toBe(
      "brands",
    );
    expect(setupStepFor({ hasRetailer: true, hasContact: true, setupComplete: true })).toBe("done");
  });
});

describe("who may trade (retailerMayTrade)", () => {
  it.each([
    ["active", true],
    ["pending", false],
    ["inactive", false],
    ["denied", false],
  ] as const)("a retailer %s may trade: %s", (status, may) => {
    expect(retailerMayTrade(status)).toBe(may);
  });
});

describe("navigation guard (requiredActionPath)", () => {
  const retailer = (
    retailerStatus: "none" | "pending" | "active" | "inactive" | "denied",
    setupComplete = true,
  ) => ({ signedIn: true, isStaff: false, retailerStatus, setupComplete }) as const;
  const staff = {
    signedIn: true,
    isStaff: true,
    retailerStatus: "none",
    setupComplete: false,
  } as const;
  const anon = { signedIn: false } as const;

  it("any path containing 'admin' is for staff only: others go to /error/", () => {
    for (const p of ["/admin", "/admin/retailers", "/x/administrator", "/ADMIN/outbox"]) {
      expect(requiredActionPath(anon, p)).toBe("/error/");
      expect(requiredActionPath(retailer("active"), p)).toBe("/error/");
      expect(requiredActionPath(retailer("pending", false), p)).toBe("/error/");
      expect(requiredActionPath(staff, p)).toBeNull();
    }
  });

  it("staff in production without two-factor are sent to its set-up first (ADR 0041)", () => {
    const staffNo2fa = { ...staff, mustSetUpTwoFactor: true } as const;
    for (const p of ["/admin", "/admin/retailers", "/", "/orders", "/settings/password"]) {
      expect(requiredActionPath(staffNo2fa, p)).toBe("/settings/two-factor");
    }
    for (const p of ["/settings/two-factor", "/signin", "/error/"])
      expect(requiredActionPath(staffNo2fa, p)).toBeNull();
    expect(requiredActionPath({ ...staff, mustSetUpTwoFactor: false }, "/admin")).toBeNull();
    // Non-staff on an admin path still go to /error/ first.
    expect(requiredActionPath({ ...retailer("active"), mustSetUpTwoFactor: true }, "/admin")).toBe(
      "/error/",
    );
  });

  it("signed-out users reach public pages only", () => {
    expect(requiredActionPath(anon, "/")).toBe("/signin");
    expect(requiredActionPath(anon, "/buy", "?brand=2")).toBe("/signin?next=%2Fbuy%3Fbrand%3D2");
    for (const p of [
      "/signin",
      "/signin/register",
      "/register",
      "/password-reset/3/abc",
      "/error/",
      "/pricing",
      "/onboarding",
    ]) {
      expect(requiredActionPath(anon, p)).toBeNull();
    }
  });

  it("holds a retailer in the required-action state until activation", () => {
    expect(requiredActionPath(retailer("none", false), "/")).toBe("/retailer-setup/");
    expect(requiredActionPath(retailer("pending", false), "/buy")).toBe("/retailer-setup/");
    expect(requiredActionPath(retailer("pending", false), "/retailer-setup/")).toBeNull();
    expect(requiredActionPath(retailer("pending", true), "/")).toBe("/wait-for-activation/");
    expect(requiredActionPath(retailer("pending", true), "/retailer-setup")).toBe(
      "/wait-for-activation/",
    );
    expect(requiredActionPath(retailer("pending", true), "/wait-for-activation/")).toBeNull();
    expect(requiredActionPath(retailer("denied"), "/orders")).toBe("/retailer-denied/");
    expect(requiredActionPath(retailer("denied"), "/retailer-denied/")).toBeNull();
    expect(requiredActionPath(retailer("pending", true), "/pricing")).toBeNull();
  });

  it("active and inactive retailers browse; status pages send them home", () => {
    expect(requiredActionPath(retailer("active"), "/buy")).toBeNull();
    expect(requiredActionPath(retailer("inactive"), "/buy")).toBeNull();
    expect(requiredActionPath(retailer("active"), "/wait-for-activation/")).toBe("/");
    expect(requiredActionPath(retailer("active"), "/retailer-setup/")).toBe("/");
  });

  it("safeNextPath keeps same-origin paths only", () => {
    expect(safeNextPath("/buy?brand=2")).toBe("/buy?brand=2");
    expect(safeNextPath("//evil.test/x")).toBeNull();
    expect(safeNextPath("/\\evil.test")).toBeNull();
    expect(safeNextPath("https://evil.test")).toBeNull();
    expect(safeNextPath("javascript:alert(1)")).toBeNull();
    expect(safeNextPath("/signin")).toBeNull();
    expect(safeNextPath("")).toBeNull();
    expect(safeNextPath(null)).toBeNull();
  });
});

describe("passwords and reset tokens", () => {
  it("hashes with argon2id and verifies", async () => {
    const h = await hashPassword("correct horse");
    expect(h.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(h, "correct horse")).toBe(true);
    expect(await verifyPassword(h, "wrong horse")).toBe(false);
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });

  it("tokens are 32 random bytes in base64url; only their SHA-256 is stored", () => {
    const a = generateResetToken();
    const b = generateResetToken();
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(looksLikeResetToken(a)).toBe(true);
    expect(looksLikeResetToken("short")).toBe(false);
    expect(looksLikeResetToken(a.slice(0, 42) + "=")).toBe(false);
    const h = hashResetToken(a);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(a);
    expect(hashResetToken(a)).toBe(h);
    expect(sameDigest(h, hashResetToken(a))).toBe(true);
    expect(sameDigest(h, hashResetToken(b))).toBe(false);
    // Known vector: SHA-256("abc").
    expect(hashResetToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
