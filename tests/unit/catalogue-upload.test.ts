/** Collection upload rows (domain/catalogue-upload.ts): what a row at fault is, and how rows group into products. */
import { describe, expect, it } from "vitest";
import { groupUploadRows, readUploadRows, type SourceFolder } from "../../domain/catalogue-upload";

const isImage = (_n: string, b: Uint8Array) => b[0] === 0x89;
const png = new Uint8Array([0x89, 0x50]);
const folder = (sheet: string[][], images: Record<string, Uint8Array> = {}): SourceFolder => ({
  sheet,
  images: new Map(Object.entries(images)),
});
const HEAD = [
  "SKU",
  "Name",
  "color",
  "price",
  "sizes",
  "image1",
  "image2",
  "image3",
  "image4",
  "image5",
];

describe("readUploadRows", () => {
  it("reads good rows (header any case, name for display_name, sizes split, up to four images)", () => {
    const { rows, problems } = readUploadRows(
      folder(
        [
          HEAD,
          ["A1", "Tee", "Red", "$12.50", "S|M, L", "a.png", "a.png", "a.png", "a.png", "a.png"],
        ],
        { "a.png": png },
      ),
      isImage,
    );
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({
      line: 2,
      sku: "A1",
      displayName: "Tee",
      priceCents: 1250,
      sizes: ["S", "M", "L"],
      problems: [],
    });
    expect(rows[0].images).toHaveLength(4);
  });
  it("lists each problem of a row at fault", () => {
    const { rows } = readUploadRows(
      folder(
        [
          HEAD,
          ["", "=cmd()", "", "abc", "", "x.jpg", "gone.png"],
          ["B", "B", "Blue", "1", "", "", ""],
          ["B", "B", "blue", "1"],
        ],
        {
          "x.jpg": new Uint8Array([1, 2]),
        },
      ),
      isImage,
    );
    expect(rows[0].problems).toEqual([
      "sku is missing.",
      "display_name may not start with = + - or @.",
      "color is missing.",
      'price "abc" is not an amount in dollars.',
      'image1 "x.jpg" is not a .jpg or .png picture.',
      'image2 "gone.png" is not in the folder.',
    ]);
    expect(rows[2].problems).toEqual(["the same sku and color as line 3."]);
  });
  it("refuses a sheet without the required columns or rows", () => {
    expect(readUploadRows(folder([["sku", "name"]]), isImage).problems[0]).toMatch(
      /no column color, price/,
    );
    expect(readUploadRows(folder([HEAD]), isImage).problems[0]).toMatch(/no product rows/);
    expect(readUploadRows(folder([]), isImage).problems[0]).toMatch(/empty/);
  });
  it("groups rows into one product per sku with one variation per colour", () => {
    const { rows } = readUploadRows(
      folder([
        HEAD,
        ["A", "Tee", "Red", "10", "S"],
        ["a", "Tee", "Blue", "11", "M"],
        ["C", "Cap", "Red", "5", ""],
      ]),
      isImage,
    );
    const groups = groupUploadRows(rows);
    expect(groups.map((g) => [g.sku, g.sizes, g.variations.map((v) => v.color)])).toEqual([
      ["A", ["S", "M"], ["Red", "Blue"]],
      ["C", [], ["Red"]],
    ]);
  });
});

describe("barcodes in a collection upload", () => {
  it("upc and ean columns are kept when their check digit is right, and refused on the row when not", () => {
    const { rows } = readUploadRows(
      folder([
        ["sku", "name", "color", "price", "upc", "ean"],
        ["B1", "Tee", "Red", "10", "0360-0029-1452", "4006381333931"],
        ["B1", "Tee", "Blue", "10", "036000291453", ""],
        ["B1", "Tee", "Green", "10", "", "12345"],
      ]),
      isImage,
    );
    expect(rows[0]).toMatchObject({ upc: "036000291452", ean: "4006381333931", problems: [] });
    expect(rows[1].problems).toEqual([
      "upc: 036000291453 is not a valid barcode: its last digit (the check digit) should be 2.",
    ]);
    expect(rows[2].problems).toEqual([
      "ean: A barcode is 8, 12, 13 or 14 digits (UPC-A, EAN-8, EAN-13 or GTIN-14).",
    ]);
  });
});
