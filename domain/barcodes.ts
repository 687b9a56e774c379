/**
 * A variation's barcodes (docs/product/screens.md, "Staff: variation editor"): a UPC (UPC-A, 12 digits) and an
 * EAN (EAN-8, EAN-13 or GTIN-14), each with the GS1 check digit its last digit must be. What the stock import
 * matches a line's code against (kept in the variation's options as `upc` and `ean`).
 */
import { z } from "zod";

export const BARCODE_MESSAGES = {
  digits: "A barcode is 8, 12, 13 or 14 digits (UPC-A, EAN-8, EAN-13 or GTIN-14).",
  checkDigit: (code: string, digit: number) =>
    `${code} is not a valid barcode: its last digit (the check digit) should be ${digit}.`,
} as const;

/** The GS1 check digit of the digits before it (weights 3 and 1 from the right). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Why a barcode is refused, or null when it is a valid one. */
export function barcodeProblem(code: string): string | null {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return BARCODE_MESSAGES.digits;
  const expected = gs1CheckDigit(code.slice(0, -1));
  return Number(code.at(-1)) === expected ? null : BARCODE_MESSAGES.checkDigit(code, expected);
}

/** A form's barcode field: blank is none (null); spaces and dashes people type are dropped. */
export const barcodeField = z
  .string()
  .optional()
  .transform((v) => (v ?? "").replace(/[\s-]/g, ""))
  .superRefine((v, ctx) => {
    const problem = v === "" ? null : barcodeProblem(v);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .transform((v) => (v === "" ? null : v));
