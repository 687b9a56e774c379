/**
 * Stock file import and stock sync (docs/product/screens.md, "Stock file import"; ADR 0029): running a file's
 * cells for a retailer, the preview rows or (confirm) the import itself, one transaction per variation, and its
 * results. The one entry point of the page (/stock-import), POST /api/stock-import (both through
 * app/utils/stock-import.server.ts, which reads the file and gives the marketplace's day) and the demo year
 * (workers/demo-year, ADR 0063).
 */
import type { Db } from "../client";
import type { StockImportRowJson } from "../schema";
import {
  applyVariationPlan,
  guessCandidates,
  liveListings,
  sizeRuns,
  variationsByCodes,
  type CatalogueHit,
  type LiveListing,
} from "./stock-import";
import { authorizedBrandsForRetailer } from "./catalogue";
import { setMarkdown } from "./markdowns";
import {
  checkLine,
  linesFromRows,
  planVariation,
  planWithdrawal,
  priceProblem,
  rankGuesses,
  WITHDRAWAL_CALLED_OFF,
  type CheckedLine,
  type PlanAction,
  type StockMapping,
} from "../../domain/stock-import";
import { termsProblems, type MarkdownTerms } from "../../domain/markdown";

export interface StockImportInput {
  retailerId: number;
  /** The file's cells, header first (readStockFile). */
  cells: string[][];
  mapping: StockMapping;
  wholeSurplus: boolean;
  /** The marketplace's local date (a markdown schedule's first day). */
  today: string;
  /** Confirmed guesses: code (upper-case) → variation id. */
  choices?: Record<string, number>;
  /** Set to run the import (the import's id, for the listings' history); absent for a preview. */
  confirm?: { importId: number };
}

interface Item {
  variationId: number;
  expectedListingId: number | null;
  action: PlanAction;
  row: StockImportRowJson;
  /** The first of its lines' markdown schedules (docs/product/markdowns.md), set once the listing is saved. */
  markdown: MarkdownTerms | null;
}

const label = (h: { sku: string; color: string }) => `${h.sku} · ${h.color}`;

/** The preview rows (no confirm) or the results (confirm): one row per variation, refused line or guess to confirm. */
export async function runStockImport(
  db: Db,
  input: StockImportInput,
): Promise<StockImportRowJson[]> {
  const { rows, items } = await plan(db, input);
  if (!input.confirm) return rows;
  const importId = input.confirm.importId;
  for (const item of items) {
    try {
      const out = await applyVariationPlan(
        db,
        input.retailerId,
        importId,
        item.variationId,
        item.expectedListingId,
        item.action,
      );
      if (!out.ok) Object.assign(item.row, { action: "refused", messages: [out.message] });
      else if (item.action.kind === "create")
        Object.assign(item.row, { listingId: out.listingId, messages: ["Listed."] });
      if (out.ok && item.markdown) {
        const listingId =
          item.action.kind === "create"
            ? out.listingId
            : "listingId" in item.action
              ? item.action.listingId
              : null;
        if (listingId !== null) {
          const md = await setMarkdown(db, {
            listingId,
            retailerId: input.retailerId,
            terms: item.markdown,
            today: input.today,
          });
          item.row.messages = [
            ...item.row.messages,
            md.ok ? "Markdown schedule set." : `Markdown schedule not set: ${md.message}`,
          ];
        }
      }
    } catch (err) {
      console.error(`[stock-import] import ${importId} variation ${item.variationId} failed`, err);
      Object.assign(item.row, {
        action: "refused",
        messages: ["The database refused this row; nothing of it was saved."],
      });
    }
  }
  return rows.map((r) =>
    r.action === "choose" ? { ...r, action: "skipped", messages: ["Not confirmed: skipped."] } : r,
  );
}

async function plan(
  db: Db,
  input: StockImportInput,
): Promise<{ rows: StockImportRowJson[]; items: Item[] }> {
  const lines = linesFromRows(input.cells, input.mapping);
  const rows: StockImportRowJson[] = [];
  const refuse = (
    l: { line: number; values?: { code?: string } },
    code: string,
    messages: string[],
  ) =>
    rows.push({
      lines: [l.line],
      code,
      variationId: null,
      label: "",
      action: "refused",
      sizes: null,
      listingId: null,
      messages,
    });
  const checked: CheckedLine[] = [];
  for (const l of lines) {
    const c = checkLine(l);
    if (c.ok) checked.push(c.value);
    else refuse(l, l.values.code ?? "", c.problems);
  }
  const authorized = await authorizedBrandsForRetailer(db, input.retailerId);
  const authorizedIds = new Set(authorized.map((b) => b.id));
  const codes = [...new Set(checked.map((l) => l.code.toUpperCase()))];
  const hits = await variationsByCodes(db, codes);
  const resolved = new Map<string, CatalogueHit | { refused: string } | Guesses>();
  for (const code of codes)
    resolved.set(
      code,
      await resolveCode(db, code, hits, authorizedIds, authorized, input.choices?.[code]),
    );
  const runs = await sizeRuns(
    db,
    [...resolved.values()].flatMap((r) => ("variationId" in r ? [r.productId] : [])),
  );
  const byVariation = new Map<number, { hit: CatalogueHit; lines: CheckedLine[] }>();
  const choose = new Map<string, number[]>();
  for (const l of checked) {
    const code = l.code.toUpperCase();
    const r = resolved.get(code)!;
    if ("refused" in r) {
      refuse(l, l.code, [r.refused]);
      continue;
    }
    if ("guesses" in r) {
      choose.set(code, [...(choose.get(code) ?? []), l.line]);
      continue;
    }
    const run = runs.get(r.productId) ?? [];
    const problems: string[] = [];
    if (!run.includes(l.size)) problems.push(`This product has no size ${l.size}.`);
    const price = priceProblem(l.priceCents, r.priceCents);
    if (price) problems.push(price);
    if (l.markdown)
      problems.push(
        ...Object.values(
          termsProblems(l.markdown, {
            catalogueCents: r.priceCents,
            currentCents: r.priceCents,
            today: input.today,
          }),
        ),
      );
    const group = byVariation.get(r.variationId) ?? { hit: r, lines: [] };
    const twice = group.lines.find((o) => o.size === l.size);
    if (twice) problems.push(`Size ${l.size} of ${label(r)} is already on line ${twice.line}.`);
    if (problems.length) refuse(l, l.code, problems);
    else byVariation.set(r.variationId, { hit: r, lines: [...group.lines, l] });
  }
  for (const [code, lineNos] of choose) {
    const r = resolved.get(code) as Guesses;
    rows.push({
      lines: lineNos,
      code,
      variationId: null,
      label: "",
      action: "choose",
      sizes: null,
      listingId: null,
      messages: [chooseMessage(code, r.why)],
      guesses: r.guesses.map((g) => ({
        variationId: g.variationId,
        code: g.sku,
        label: `${label(g)} (${g.productName}, ${g.brandName})`,
      })),
    });
  }
  const live = await liveListings(db, input.retailerId);
  const liveByVariation = new Map<number, LiveListing>();
  for (const l of live)
    if (!liveByVariation.has(l.variationId)) liveByVariation.set(l.variationId, l);
  const items: Item[] = [];
  for (const [variationId, g] of byVariation) {
    const existing = liveByVariation.get(variationId) ?? null;
    const action = planVariation(runs.get(g.hit.productId) ?? [], g.lines, existing);
    const row = rowOf(
      action,
      g.lines.map((l) => l.line),
      g.lines[0].code,
      variationId,
      label(g.hit),
      existing,
      false,
    );
    rows.push(row);
    items.push({
      variationId,
      expectedListingId: existing?.id ?? null,
      action,
      row,
      markdown: g.lines.find((l) => l.markdown)?.markdown ?? null,
    });
  }
  if (input.wholeSurplus) {
    const spared = new Set(
      [...resolved.values()].flatMap((r) =>
        "guesses" in r ? r.guesses.map((g) => g.variationId) : [],
      ),
    );
    for (const l of live) {
      if (
        byVariation.has(l.variationId) ||
        spared.has(l.variationId) ||
        liveByVariation.get(l.variationId) !== l
      )
        continue;
      const action = planWithdrawal(l);
      const row = rowOf(action, [], "", l.variationId, l.label, l, true);
      rows.push(row);
      items.push({
        variationId: l.variationId,
        expectedListingId: l.id,
        action,
        row,
        markdown: null,
      });
    }
  }
  rows.sort((a, b) => (a.lines[0] ?? Infinity) - (b.lines[0] ?? Infinity));
  return { rows, items };
}

async function resolveCode(
  db: Db,
  code: string,
  hits: CatalogueHit[],
  authorizedIds: Set<number>,
  authorized: { id: number }[],
  choice: number | undefined,
): Promise<CatalogueHit | { refused: string } | Guesses> {
  const tiers = [
    hits.filter((h) => h.sku.toUpperCase() === code),
    hits.filter((h) => h.barcodes.includes(code)),
    hits.filter((h) => h.productSku.toUpperCase() === code),
  ];
  const tier = tiers.find((t) => t.length > 0);
  let guesses: CatalogueHit[];
  let why: Guesses["why"] = "like";
  if (tier) {
    const mine = tier.filter((h) => authorizedIds.has(h.brandId));
    if (mine.length === 0)
      return {
        refused: `You are not authorized for the brand ${tier[0].brandName}, so you cannot list ${code}.`,
      };
    if (mine.length === 1) return mine[0];
    guesses = mine;
    why = tier === tiers[2] ? "colours" : "several";
  } else {
    const candidates = await guessCandidates(
      db,
      code,
      authorized.map((b) => b.id),
    );
    const ranked = new Set(rankGuesses(code, candidates).map((c) => c.variationId));
    guesses = candidates.filter((c) => ranked.has(c.variationId));
    if (guesses.length === 0)
      return { refused: `No product of the brands you are authorized for has the code ${code}.` };
  }
  const chosen = choice === undefined ? undefined : guesses.find((g) => g.variationId === choice);
  return chosen ?? { guesses, why };
}

/** A code that names no one variation: what it may mean, and why it is asked (chooseMessage). */
type Guesses = { guesses: CatalogueHit[]; why: "colours" | "several" | "like" };

/** docs/product/screens.md, "Stock import": the choice's message says why the line needs one. */
function chooseMessage(code: string, why: Guesses["why"]): string {
  const then = "Choose the one you mean, or none to skip these lines.";
  if (why === "colours")
    return `The product ${code} has several colours; choose one, or none to skip these lines.`;
  if (why === "several") return `Several products have the code ${code}. ${then}`;
  return `No product has exactly the code ${code}. ${then}`;
}

function rowOf(
  action: PlanAction,
  lines: number[],
  code: string,
  variationId: number,
  text: string,
  existing: LiveListing | null,
  absent: boolean,
): StockImportRowJson {
  const base = { lines, code, variationId, label: text, listingId: existing?.id ?? null };
  // In the size run's order (the plan's sizes have it; the database's jsonb keeps its own order).
  const units = (s: Record<string, number>, order: string[] = Object.keys(s)) =>
    [...new Set([...order, ...Object.keys(s)])]
      .filter((k) => (s[k] ?? 0) > 0)
      .map((k) => `${k}: ${s[k]}`)
      .join(", ");
  const calledOff = existing?.withdrawPending ? [WITHDRAWAL_CALLED_OFF] : [];
  switch (action.kind) {
    case "create":
      return {
        ...base,
        action: "create",
        sizes: action.sizes,
        messages: [`New listing: ${units(action.sizes)}.`],
      };
    case "update":
      return {
        ...base,
        action: "update",
        sizes: action.sizes,
        messages: [
          `Units set to ${units(action.sizes) || "0"} (were ${units(existing!.sizes, Object.keys(action.sizes)) || "0"}).`,
          ...calledOff,
        ],
      };
    case "unchanged":
      return {
        ...base,
        action: "unchanged",
        sizes: existing!.sizes,
        messages: ["Already as in the file: nothing changes.", ...calledOff],
      };
    case "withdraw":
      return {
        ...base,
        action: "withdraw",
        sizes: null,
        messages: [
          absent
            ? "Not in your whole-surplus file: it will be withdrawn."
            : "0 units in the file: it will be withdrawn.",
        ],
      };
    case "kept":
      return { ...base, action: "kept", sizes: existing!.sizes, messages: [action.message] };
    case "nothing":
      return {
        ...base,
        action: "nothing",
        sizes: null,
        messages: ["0 units and no listing: nothing to do."],
      };
  }
}
