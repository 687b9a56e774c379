/**
 * Server half of the statements pages (docs/product/screens.md, "Statements"; ADR 0026): whose statements a
 * request reads, the month of the URL, and the loaders of the list, the month's page, its CSV and its PDF.
 *
 * A retailer (or staff acting as one) reads its own; staff holding the "retailer" permission read any
 * retailer's with ?retailer={id} (the manage-retailer screens link there). A retailer naming another retailer
 * gets 404, as does a retailer that does not exist. Another retailer appears only as `retailer-00{id}`.
 */
import { redirect } from "@remix-run/node";
import { getRetailer } from "../../db/queries/retailers";
import { monthReconciliationFacts } from "../../db/queries/reconciliation";
import { listStatementMonths, monthStatement } from "../../db/queries/statements";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { formatDate, formatMonth, formatSortableDate } from "../../domain/date-format";
import { RowId } from "../../domain/ids";
import { centsToDecimalString, formatCents } from "../../domain/money";
import { ttypeOf } from "../../domain/order-views";
import { monthReconciledAt, reconciledLine, utcDaysOf } from "../../domain/reconciliation";
import {
  AMOUNT_COLUMNS,
  monthLabel,
  monthRange,
  parseStatementMonth,
  parseStatementOffset,
  STATEMENT_MONTH_MESSAGES,
  STATEMENT_PAGE_SIZE,
  type Statement,
  type StatementLine,
} from "../../domain/statements";
import { TRANSACTION_TYPE } from "../../domain/states";
import { requireRetailer, requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { requirePermission } from "~/utils/permissions.server";

export interface StatementOwner {
  retailerId: number;
  storeName: string;
  /** "?retailer={id}" when staff read another retailer's statements, else "". */
  query: string;
  staff: boolean;
}

function plain(text: string, status: number): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** Whose statements this request reads (see the module comment), else a 404 / 403 / redirect. */
export async function statementOwner(request: Request): Promise<StatementOwner> {
  const raw = new URL(request.url).searchParams.get("retailer");
  const auth = await requireUser(request);
  if (raw === null) {
    if (auth.user.isStaff && !auth.retailer) throw redirect("/manage-retailer");
    const r = await requireRetailer(request);
    return {
      retailerId: r.retailer.id,
      storeName: r.retailer.storeName,
      query: "",
      staff: r.user.isStaff,
    };
  }
  const id = RowId.safeParse(raw);
  if (!auth.user.isStaff) {
    // A retailer may name itself; any other retailer is not found.
    if (!id.success || id.data !== auth.retailer?.id) throw plain("Not found", 404);
    const r = await requireRetailer(request);
    return { retailerId: r.retailer.id, storeName: r.retailer.storeName, query: "", staff: false };
  }
  await requirePermission(request, "retailer");
  const retailer = id.success ? await getRetailer(db, id.data) : null;
  if (!retailer) throw plain("Not found", 404);
  return {
    retailerId: retailer.id,
    storeName: retailer.storeName,
    query: `?retailer=${retailer.id}`,
    staff: true,
  };
}

/** The month of the URL, or a 400 (not YYYY-MM) / 404 (a month not started yet) with the message. */
export function statementMonth(
  raw: string | undefined,
  zone: string,
): { year: number; month: number } {
  const m = parseStatementMonth(raw);
  if (!m) throw plain(STATEMENT_MONTH_MESSAGES.badMonth, 400);
  if (raw! > formatMonth(new Date(), zone)) throw plain(STATEMENT_MONTH_MESSAGES.futureMonth, 404);
  return m;
}

/** /statements/: the months, newest first. */
export async function statementListData(request: Request) {
  const owner = await statementOwner(request);
  const zone = getEnv().MARKETPLACE_TZ;
  const months = await listStatementMonths(
    db,
    owner.retailerId,
    formatMonth(new Date(), zone),
    zone,
  );
  return {
    owner,
    months: months.map((m) => ({
      ...m,
      openingText: formatCents(m.opening),
      netText: formatCents(m.net),
      closingText: formatCents(m.closing),
    })),
  };
}

/**
 * The month's statement of the request's owner (shared by the page, the CSV and the PDF), with its line saying
 * whether the month is reconciled with the payment provider (docs/product/money.md, "Statements").
 */
export async function loadStatement(request: Request, rawMonth: string | undefined) {
  const zone = getEnv().MARKETPLACE_TZ;
  const owner = await statementOwner(request);
  const month = statementMonth(rawMonth, zone);
  const range = monthRange(month, zone);
  const days = utcDaysOf(range);
  const [statement, facts] = await Promise.all([
    monthStatement(db, owner.retailerId, month, zone),
    monthReconciliationFacts(db, owner.retailerId, range, days),
  ]);
  const reconciled = reconciledLine(monthReconciledAt(days, facts), zone);
  return { owner, zone, statement, reconciled, label: monthLabel(month) };
}

/** A line as the page and the PDF show it: dates in the marketplace zone, dollars, the counterparty anonymous. */
export function lineView(l: StatementLine, zone: string) {
  const amounts = Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c, formatCents(l[c])])) as Record<
    (typeof AMOUNT_COLUMNS)[number],
    string
  >;
  return {
    id: l.id,
    date: formatDate(l.at, zone),
    order: l.externalId ?? "(order removed)",
    orderHref: orderHref(l),
    kind: l.kind,
    counterparty: l.counterpartyId ? anonymousRetailerLabel(l.counterpartyId) : "",
    description: l.queued ? `${l.description} (queued)` : l.description,
    amounts,
    balance: formatCents(l.balance),
  };
}

function orderHref(l: StatementLine): string | null {
  if (!l.orderId || !l.transactionType) return null;
  if (l.transactionType === TRANSACTION_TYPE.RMA) return `/rma/${l.orderId}`;
  return `/transaction/${ttypeOf(l.transactionType)}/${l.orderId}`;
}

export function totalsView(s: Statement) {
  const money = (a: Record<(typeof AMOUNT_COLUMNS)[number], number>) =>
    Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c, formatCents(a[c])])) as Record<
      (typeof AMOUNT_COLUMNS)[number],
      string
    >;
  return {
    opening: formatCents(s.opening),
    closing: formatCents(s.closing),
    totals: money(s.totals),
    byKind: s.byKind.map((k) => ({ kind: k.kind, count: k.count, amounts: money(k) })),
  };
}

/** The month's page: the totals, and one page of lines (?offset=, a 400 with the message when out of range). */
export async function statementPageData(request: Request, rawMonth: string | undefined) {
  const { owner, zone, statement, reconciled, label } = await loadStatement(request, rawMonth);
  const offset = parseStatementOffset(
    new URL(request.url).searchParams.get("offset"),
    statement.lines.length,
  );
  if (offset === null) throw plain(STATEMENT_MONTH_MESSAGES.badOffset, 400);
  const slice = statement.lines.slice(offset, offset + STATEMENT_PAGE_SIZE);
  const base = `/statements/${statement.month}`;
  const withOffset = (o: number) =>
    `${base}${owner.query}${o === 0 ? "" : `${owner.query ? "&" : "?"}offset=${o}`}`;
  return {
    owner,
    month: statement.month,
    label,
    reconciled,
    lineCount: statement.lines.length,
    lines: slice.map((l) => lineView(l, zone)),
    ...totalsView(statement),
    csvHref: `${base}/csv${owner.query}`,
    pdfHref: `${base}/pdf${owner.query}`,
    listHref: `/statements${owner.query}`,
    previous: offset > 0 ? withOffset(offset - STATEMENT_PAGE_SIZE) : null,
    next:
      offset + STATEMENT_PAGE_SIZE < statement.lines.length
        ? withOffset(offset + STATEMENT_PAGE_SIZE)
        : null,
  };
}

export const CSV_COLUMNS = [
  "date",
  "order",
  "kind",
  "counterparty",
  "description",
  ...AMOUNT_COLUMNS,
  "balance",
];

/**
 * The CSV rows: the opening balance, every line, the totals by kind and in all, the closing balance, and the
 * line saying whether the month is reconciled (its description).
 */
export function statementCsvRows(
  s: Statement,
  zone: string,
  reconciled: string,
): Record<string, string>[] {
  const money = (a: Partial<Record<(typeof AMOUNT_COLUMNS)[number], number>>) =>
    Object.fromEntries(
      AMOUNT_COLUMNS.map((c) => [c, a[c] === undefined ? "" : centsToDecimalString(a[c])]),
    );
  const summary = (
    kind: string,
    a: Partial<Record<(typeof AMOUNT_COLUMNS)[number], number>>,
    balance: number | null,
  ) => ({
    date: "",
    order: "",
    kind,
    counterparty: "",
    description: "",
    ...money(a),
    balance: balance === null ? "" : centsToDecimalString(balance),
  });
  return [
    summary("Opening balance", {}, s.opening),
    ...s.lines.map((l) => ({
      date: formatSortableDate(l.at, zone),
      order: l.externalId ?? "",
      kind: l.kind,
      counterparty: l.counterpartyId ? anonymousRetailerLabel(l.counterpartyId) : "",
      description: l.queued ? `${l.description} (queued)` : l.description,
      ...money(l),
      balance: centsToDecimalString(l.balance),
    })),
    ...s.byKind.map((k) => summary(`Total ${k.kind}`, k, null)),
    summary("Total", s.totals, null),
    summary("Closing balance", {}, s.closing),
    { ...summary("Reconciliation", {}, null), description: reconciled },
  ];
}
