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
