/**
 * A stock file's guesses confirmed (docs/product/screens.md, "Stock file import"; ADR 0029): a line whose code
 * matched no product exactly waits in the preview as a row "choose" with up to three ranked guesses, and the
 * retailer confirms one of them (or none, and the row is skipped). The page sends its choice as code[i] with
 * pick[i]; POST /api/stock-import as `choose` fields "CODE:variationId". Both become the same choices, checked
 * against the preview's rows by the same function: a choice is one of that row's guesses, nothing else.
 */

/** Confirmed guesses: a line's code (upper-case) → the variation chosen among its row's guesses. */
export type StockChoices = Record<string, number>;

/** What of a preview row a choice is checked against (db/schema StockImportRowJson). */
export interface ChoiceRow {
  lines: number[];
  code: string;
  action: string;
  guesses?: { variationId: number }[];
}

/** At most this many `choose` fields in one API request (a file has at most 10,000 lines). */
export const MAX_STOCK_CHOICES = 2000;

const VARIATION_ID = /^[1-9]\d{0,8}$/;

export const CHOICE_MSG = Object.freeze({
  malformed: (v: string) =>
    `"${v.slice(0, 80)}" is not a choice: send choose as the row's code, a colon and a variation id, like ABC123:4567.`,
  tooMany: `At most ${MAX_STOCK_CHOICES.toLocaleString("en-US")} choices can be sent at once.`,
  twice: (code: string) => `${code} is chosen twice: choose one variation for it.`,
  noRow: (code: string) =>
    `No row of this file waits for a choice of ${code}: only rows the preview shows as "choose" take one.`,
  notOffered: (row: ChoiceRow, id: number) =>
    `${row.lines.length > 1 ? "Lines" : "Line"} ${row.lines.join(", ")} (${row.code}): ${id} is not one of the guesses offered. ` +
    `Choose ${(row.guesses ?? []).map((g) => g.variationId).join(" or ")}, or send no choice to skip ${row.lines.length > 1 ? "these lines" : "this line"}.`,
});

/** The page's form: code[i] with pick[i] (a variation id, or "" for none). */
export function choicesFromPicks(
  codes: readonly string[],
  picks: readonly (string | undefined)[],
): StockChoices {
  const choices: StockChoices = {};
  codes.forEach((code, i) => {
    const v = picks[i] ?? "";
    if (VARIATION_ID.test(v)) choices[code.toUpperCase()] = Number(v);
  });
  return choices;
}

/** The API's `choose` values, "CODE:variationId" each (the code may itself hold a colon: the last one splits). */
export function choicesFromPairs(
  values: readonly string[],
): { ok: true; choices: StockChoices } | { ok: false; problems: string[] } {
  if (values.length > MAX_STOCK_CHOICES) return { ok: false, problems: [CHOICE_MSG.tooMany] };
  const codes: string[] = [];
  const picks: string[] = [];
  const problems: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    const at = v.lastIndexOf(":");
    const code = v.slice(0, Math.max(at, 0)).trim().toUpperCase();
    const id = v.slice(at + 1).trim();
    if (at <= 0 || !code || !VARIATION_ID.test(id)) problems.push(CHOICE_MSG.malformed(v));
    else if (codes.includes(code) && picks[codes.indexOf(code)] !== id)
      problems.push(CHOICE_MSG.twice(code));
    else {
      codes.push(code);
      picks.push(id);
    }
  }
  return problems.length
    ? { ok: false, problems: [...new Set(problems)] }
    : { ok: true, choices: choicesFromPicks(codes, picks) };
}

/** Each choice against the preview: its code is a row waiting for a choice, its variation one of that row's guesses. */
export function choiceProblems(rows: readonly ChoiceRow[], choices: StockChoices): string[] {
  const problems: string[] = [];
  for (const [code, id] of Object.entries(choices)) {
    const row = rows.find((r) => r.action === "choose" && r.code.toUpperCase() === code);
    if (!row) problems.push(CHOICE_MSG.noRow(code));
    else if (!(row.guesses ?? []).some((g) => g.variationId === id))
      problems.push(CHOICE_MSG.notOffered(row, id));
  }
  return problems;
}
