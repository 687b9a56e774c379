/**
 * The rendering rules of docs/product/screens.md ("Staff: generic lists and forms"), one test each, driven from the resource definitions of
 * domain/resources (the same FieldDefs the generic form renders), plus the schemas built from them and the
 * CSV neutralising of exports.
 */
import { describe, expect, it } from "vitest";
import {
  AddVariationSchema,
  applyMask,
  checkboxLabel,
  neutraliseCsvCell,
  RESOURCE_NAMES,
  RESOURCES,
  schemaFor,
  widgetFor,
  type FieldDef,
} from "../../domain/resources";

const field = (resource: keyof typeof RESOURCES, name: string): FieldDef => {
  const f = RESOURCES[resource].fields.find((x) => x.name === name);
  if (!f) throw new Error(`${resource}.${name} is not defined`);
  return f;
};
const every = () => RESOURCE_NAMES.flatMap((r) => RESOURCES[r].fields.map((f) => ({ r, f })));

describe("§5 generic form field rendering, from the resource definitions", () => {
  it("strings are text inputs", () => {
    expect(widgetFor(field("brand", "name"))).toEqual({ kind: "text", inputType: "text" });
    expect(widgetFor(field("collection", "subbrand")).kind).toBe("text");
  });
  it("a field whose name contains comments is a textarea of 3 to 6 rows", () => {
    expect(widgetFor(field("brand", "staff_comments"))).toEqual({
      kind: "textarea",
      minRows: 3,
      maxRows: 6,
    });
  });
  it("phone fields get the US mask +1-###-###-####", () => {
    for (const [r, n] of [
      ["company", "phone"],
      ["company", "celphone"],
      ["retailer", "store_phone"],
      ["retailercontact", "celphone"],
    ] as const) {
      expect(widgetFor(field(r, n))).toMatchObject({
        kind: "masked",
        mask: "+1-###-###-####",
        inputType: "tel",
      });
    }
    expect(applyMask("+1-###-###-####", "9285550102")).toBe("+1-928-555-0102");
    expect(applyMask("+1-###-###-####", "1 (928) 555-0102")).toBe("+1-928-555-0102");
  });
  it("resale_number gets the mask ##-##########-#", () => {
    expect(widgetFor(field("retailer", "resale_number"))).toMatchObject({
      kind: "masked",
      mask: "##-##########-#",
    });
    expect(applyMask("##-##########-#", "1234567890123")).toBe("12-3456789012-3");
  });
  it("postal fields get the mask ##### or #####-####", () => {
    expect(widgetFor(field("retailer", "postal_code"))).toMatchObject({
      kind: "masked",
      mask: "##### or #####-####",
    });
    expect(applyMask("##### or #####-####", "12345")).toBe("12345");
    expect(applyMask("##### or #####-####", "123456789")).toBe("12345-6789");
  });
  it("email fields are email inputs", () => {
    expect(widgetFor(field("company", "email"))).toEqual({ kind: "email", inputType: "email" });
  });
  it("integers are number inputs, except fields named rating (stars)", () => {
    expect(widgetFor(field("collection", "year"))).toMatchObject({
      kind: "number",
      step: "1",
      min: 1990,
      max: 2100,
    });
    expect(widgetFor({ name: "rating", type: "integer", label: "Rating" })).toEqual({
      kind: "stars",
      max: 5,
      step: 1,
    });
  });
  it("decimals are number inputs with step .01", () => {
    for (const [r, n] of [
      ["product", "price"],
      ["productvariation", "price"],
      ["brandrequest", "brand_purchase_amount"],
    ] as const) {
      expect(widgetFor(field(r, n))).toMatchObject({ kind: "number", step: "0.01" });
    }
  });
  it("choices are dropdowns; a choice named rating is 5 whole stars", () => {
    expect(widgetFor(field("brand", "price_tier"))).toEqual({ kind: "select" });
    expect(widgetFor({ name: "rating", type: "choice", label: "Rating", choices: [] })).toEqual({
      kind: "stars",
      max: 5,
      step: 1,
    });
  });
  it("lists and multiple choices are checkbox groups", () => {
    expect(widgetFor(field("brand", "segments"))).toEqual({ kind: "checkboxes" });
    expect(widgetFor(field("brandrequest", "your_interest_in_this_brand"))).toEqual({
      kind: "checkboxes",
    });
  });
  it("images are thumbnail previews", () => {
    expect(widgetFor(field("productvariation", "images"))).toEqual({ kind: "image" });
  });
  it("booleans are checkboxes; the label sameas reads 'same as'", () => {
    expect(widgetFor(field("brand", "is_valid"))).toEqual({ kind: "checkbox", label: "Valid" });
    expect(widgetFor({ name: "billing_same", type: "boolean", label: "sameas" })).toEqual({
      kind: "checkbox",
      label: "same as",
    });
    expect(checkboxLabel("Same As")).toBe("same as");
  });
  it("datetimes are date pickers; expiry_date disables dates up to today", () => {
    expect(widgetFor(field("retailer", "created"))).toEqual({ kind: "date", inputType: "date" });
    expect(
      widgetFor(
        { name: "expiry_date", type: "datetime", label: "Expires" },
        { today: "2026-12-31" },
      ),
    ).toEqual({
      kind: "date",
      inputType: "date",
      min: "2027-01-01",
    });
  });
  it("relationships are choosers of their resource; brand choosers offer only valid brands; filtered ones name their parent", () => {
    expect(widgetFor(field("collection", "brand"))).toEqual({ kind: "chooser", resource: "brand" });
    for (const { f } of every())
      if (f.relationship_resource === "brand" && !f.read_only)
        expect(f.extra_filters).toEqual({ is_valid: "true" });
    expect(field("product", "collection").filter).toEqual({ field: "brand", param: "brand" });
  });
  it("every relationship names a defined resource and every field renders", () => {
    for (const { r, f } of every()) {
      if (f.type === "field")
        expect(RESOURCE_NAMES, `${r}.${f.name}`).toContain(f.relationship_resource);
      expect(() => widgetFor(f)).not.toThrow();
    }
  });
});

describe("schemas built from the same fields", () => {
  it("required fields, formula-looking names, masks and cents", () => {
    const s = schemaFor(RESOURCES.brand);
    const bad = s.safeParse({ name: '=HYPERLINK("http://x")', display_name: "" });
    expect(bad.success).toBe(false);
    const issues = bad.success ? [] : bad.error.issues.map((i) => i.path.join("."));
    expect(issues).toEqual(expect.arrayContaining(["name", "display_name"]));
    const good = s.parse({
      name: "Acme",
      display_name: "Acme",
      segments: ["outdoor"],
      is_valid: "on",
    });
    expect(good).toMatchObject({
      name: "Acme",
      segments: ["outdoor"],
      is_valid: true,
      is_active: false,
      company: null,
    });
    const p = schemaFor(RESOURCES.product).safeParse({
      brand: "1",
      collection: "2",
      sku: "X1",
      display_name: "X",
      price: "12.5",
    });
    expect(p.success && p.data.price).toBe(1250);
    expect(
      schemaFor(RESOURCES.product).safeParse({
        brand: "x",
        collection: "2",
        sku: "X1",
        display_name: "X",
        price: "abc",
      }).success,
    ).toBe(false);
    const c = schemaFor(RESOURCES.company).parse({
      name: "Co",
      phone: "928 555 0102",
      postal_code: "",
    });
    expect(c.phone).toBe("+1-928-555-0102");
    expect(schemaFor(RESOURCES.company).safeParse({ name: "Co", postal_code: "12" }).success).toBe(
      false,
    );
  });
  it("the add-variation modal requires option, value and price", () => {
    const r = AddVariationSchema.safeParse({ product_id: "3", option: "", value: "", price: "" });
    expect(r.success).toBe(false);
    expect(r.success ? [] : r.error.issues.map((i) => i.path[0])).toEqual(
      expect.arrayContaining(["option", "value", "price"]),
    );
    expect(
      AddVariationSchema.parse({ product_id: "3", option: "color", value: "Red", price: "9.99" }),
    ).toMatchObject({ price: 999 });
  });
});

describe("CSV cells", () => {
  it("neutralises = + - @ at the start, keeps numbers", () => {
    expect(neutraliseCsvCell('=HYPERLINK("http://evil","x")')).toBe(
      '\'=HYPERLINK("http://evil","x")',
    );
    expect(neutraliseCsvCell("+1-928-555-0102")).toBe("'+1-928-555-0102");
    expect(neutraliseCsvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(neutraliseCsvCell("-cmd")).toBe("'-cmd");
    expect(neutraliseCsvCell("-12.50")).toBe("-12.50");
    expect(neutraliseCsvCell('a, "b" #c')).toBe('a, "b" #c');
  });
});

describe("masks while typing", () => {
  it("re-masking what the mask already wrote keeps the digits", () => {
    let v = "";
    for (const ch of "9285550102") v = applyMask("+1-###-###-####", v + ch);
    expect(v).toBe("+1-928-555-0102");
    let z = "";
    for (const ch of "123456789") z = applyMask("##### or #####-####", z + ch);
    expect(z).toBe("12345-6789");
  });
});
