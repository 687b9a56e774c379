/**
 * A variation's barcodes (docs/product/screens.md, "Staff: variation editor" and "Staff: collection uploads"):
 * UPC-A (12 digits), EAN-13 (13) or EAN-8 (8), each ending in its check digit. A stock file names a variation
 * by one of them (docs/guides/stock-import.md).
 *
 * The check digit (GS1's rule for every GTIN): the digits before it, weighted 3, 1, 3, ... from the right,
 * summed; the check digit takes the sum up to the next multiple of 10. A UPC-A is an EAN-13 with a leading 0,
 * so two codes are the same barcode when they are equal padded to 14 digits (`gtin14`).
 */

export type BarcodeKind = "UPC-A" | "EAN-13" | "EAN-8";

const KIND_BY_LENGTH: Record<number, BarcodeKind> = { 8: "EAN-8", 12: "UPC-A", 13: "EAN-13" };

/** Most barcodes one variation (or one upload line) holds. */
export const MAX_BARCODES = 10;

/** The check digit of the digits before it (`body`: 7, 11 or 12 digits). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const weight = (body.length - i) % 2 === 1 ? 3 : 1;
    sum += weight * Number(body[i]);
  }
  return (10 - (sum % 10)) % 10;
}

/** The code as 14 digits: what compares a UPC-A with the same EAN-13 (a leading 0). */
export const gtin14 = (code: string): string => code.padStart(14, "0");

export type BarcodeCheck =
  | { ok: true; code: string; kind: BarcodeKind }
  | { ok: false; message: string };

const shown = (raw: string) => (raw.length > 30 ? `${raw.slice(0, 30)}…` : raw);

/** One barcode checked: its length (the kind) and its check digit; the message names the code. */
export function checkBarcode(raw: string): BarcodeCheck {
  const code = raw.trim();
  const kind = KIND_BY_LENGTH[code.length];
  if (!/^\d+$/.test(code) || !kind)
    return {
      ok: false,
      message: `"${shown(code)}" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.`,
    };
  const expected = gtinCheckDigit(code.slice(0, -1));
  if (Number(code[code.length - 1]) !== expected)
    return {
      ok: false,
      message: `${code} is not a valid ${kind}: its last digit (the check digit) should be ${expected}.`,
    };
  return { ok: true, code, kind };
}

export type BarcodeList = { ok: true; codes: string[] } | { ok: false; messages: string[] };

/**
 * The barcodes written in one field or one spreadsheet cell, separated by spaces, commas, semicolons or
 * bars; each checked, the same barcode twice kept once. Empty text: no barcodes.
 */
export function parseBarcodes(text: string): BarcodeList {
  const parts = text.split(/[\s,;|]+/).filter(Boolean);
  const messages: string[] = [];
  const codes: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    const c = checkBarcode(part);
    if (!c.ok) messages.push(c.message);
    else if (!seen.has(gtin14(c.code))) {
      seen.add(gtin14(c.code));
      codes.push(c.code);
    }
  }
  if (codes.length > MAX_BARCODES) messages.push(`At most ${MAX_BARCODES} barcodes.`);
  return messages.length ? { ok: false, messages } : { ok: true, codes };
}

/** The refusal of a barcode another variation already has. */
export function barcodeTakenMessage(
  code: string,
  other: { variationId: number; sku: string; color: string },
): string {
  return `The barcode ${code} is already used by variation #${other.variationId} (${other.sku}, ${other.color}).`;
}
