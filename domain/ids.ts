import { z } from "zod";

/** Largest id a Postgres integer column holds: a larger number is not an id (and would make a query fail, not miss). */
export const MAX_ROW_ID = 2_147_483_647;

/** A row id as a form or URL sends it: a positive Postgres integer. */
export const RowId = z.coerce.number().int().positive().max(MAX_ROW_ID);

/** Whether a number may be a row id: a positive whole number a Postgres integer column holds. */
export const isRowId = (n: number): boolean => Number.isSafeInteger(n) && n > 0 && n <= MAX_ROW_ID;

/** A row id written in digits only ("12"; not "1e1", "0x0c", " 12" or "12.0"): the number, or null. */
export function rowIdOf(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return isRowId(n) ? n : null;
}

/** A row id a form sends in digits only (rowIdOf, after trimming), with `message` for anything else. */
export const rowIdDigits = (message?: string) =>
  z
    .string()
    .trim()
    .refine((t) => rowIdOf(t) !== null, message)
    .transform(Number);
