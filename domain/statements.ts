/**
 * Monthly statements (docs/product/money.md, "Statements"; ADR 0026): a retailer's money movements of a
 * calendar month in the marketplace time zone, each split into the columns a bookkeeper reads (gross, fee,
 * shipping, penalty, refund, payout) and signed from the retailer's side (money it paid is negative, money it
 * received positive), with the opening and closing balances and the totals by kind. Pure arithmetic: the
 * movements come from the payments ledger (db/queries/statements.ts), the same rows the order pages show.
 */
import { zonedToEpochMs } from "./business-days";
import { paymentBooked } from "./money";
import { TRANSACTION_TYPE } from "./states";

/** What a line is to the retailer: its side of the order the movement belongs to. */
export const STATEMENT_KINDS = Object.freeze(["Purchase", "Sale", "Swap", "RMA", "Other"] as const);
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** Payment types that move money (an authorisation and its release only hold a card: not on a statement). */
export const STATEMENT_TXTYPES = Object.freeze([
  "capture",
  "refund",
  "penalty",
  "transfer",
] as const);

/** The amount columns of a line, in the order the page, CSV and PDF show them. */
export const AMOUNT_COLUMNS = Object.freeze([
  "gross",
  "fee",
  "shipping",
  "penalty",
  "refund",
  "payout",
  "net",
] as const);
export type AmountColumn = (typeof AMOUNT_COLUMNS)[number];
export type Amounts = Record<AmountColumn, number>;

/** One payments row of the retailer, with what its order says about the retailer's side. */
export interface StatementMovement {
  id: number;
  at: Date;
  txtype: string;
  status: string;
  queued: boolean;
  name: string;
  amountCents: number;
  orderId: number | null;
  externalId: string | null;
  transactionType: number | null;
  /** The retailer's side of the order (null when the order row is gone). */
  role: "provider" | "receiver" | null;
  counterpartyId: number | null;
  /** The fee and shipping of the retailer's side of the order: what a payment of that side includes. */
  sideFeeCents: number;
  sideShippingCents: number;
}

export interface StatementLine extends Amounts {
  id: number;
  at: string;
  orderId: number | null;
  externalId: string | null;
  transactionType: number | null;
  kind: StatementKind;
  counterpartyId: number | null;
  description: string;
  queued: boolean;
  /** The balance after this line. */
  balance: number;
}

export interface KindTotal extends Amounts {
  kind: StatementKind;
  count: number;
}

export interface Statement {
  month: string;
  opening: number;
  closing: number;
  lines: StatementLine[];
  totals: Amounts;
  byKind: KindTotal[];
}

const ZERO: Amounts = Object.freeze({
  gross: 0,
  fee: 0,
  shipping: 0,
  penalty: 0,
  refund: 0,
  payout: 0,
  net: 0,
});

/** -n without a negative zero (a zero column is 0 in every format). */
const neg = (n: number): number => (n === 0 ? 0 : -n);

/** Whether a payments row belongs on a statement: a movement of money that was made or is owed. */
export function onStatement(m: Pick<StatementMovement, "txtype" | "status">): boolean {
  return (STATEMENT_TXTYPES as readonly string[]).includes(m.txtype) && paymentBooked(m.status);
}

export function statementKind(
  transactionType: number | null,
  role: "provider" | "receiver" | null,
): StatementKind {
  if (transactionType === TRANSACTION_TYPE.SALE)
    return role === "provider" ? "Sale" : role === "receiver" ? "Purchase" : "Other";
  if (transactionType === TRANSACTION_TYPE.SWAP) return "Swap";
  if (transactionType === TRANSACTION_TYPE.RMA) return "RMA";
  return "Other";
}

/**
 * A movement's columns, signed from the retailer's side. A payment (capture) is split into the side's fee,
 * then its shipping, the rest being the goods (or a swap's cash), never more than the amount; a refund, a
 * penalty (or an RMA charge) and a payout are one column each, and a sale's (or a swap's) payout also shows
 * what the buyer paid for the goods as its gross. net is the money that moved: the sum of the columns, but
 * for that gross, which the payout pays.
 */
export function movementAmounts(
  m: Pick<StatementMovement, "txtype" | "amountCents" | "sideFeeCents" | "sideShippingCents"> & {
    transactionType?: number | null;
  },
): Amounts {
  const a = m.amountCents;
  switch (m.txtype) {
    case "capture": {
      const fee = Math.min(Math.max(0, m.sideFeeCents), a);
      const shipping = Math.min(Math.max(0, m.sideShippingCents), a - fee);
      return {
        ...ZERO,
        gross: neg(a - fee - shipping),
        fee: neg(fee),
        shipping: neg(shipping),
        net: neg(a),
      };
    }
    case "refund":
      return { ...ZERO, refund: a, net: a };
    case "penalty":
      return { ...ZERO, penalty: neg(a), net: neg(a) };
    case "transfer": {
      // The seller is paid the full goods value (docs/product/money.md): the goods' gross is the payout.
      const goods =
        m.transactionType === TRANSACTION_TYPE.SALE || m.transactionType === TRANSACTION_TYPE.SWAP;
      return { ...ZERO, gross: goods ? a : 0, payout: a, net: a };
    }
    default:
      return { ...ZERO };
  }
}

export function addAmounts(x: Amounts, y: Amounts): Amounts {
  const out = { ...ZERO };
  for (const c of AMOUNT_COLUMNS) out[c] = x[c] + y[c];
  return out;
}

type NetSource = Pick<StatementMovement, "txtype" | "status" | "amountCents">;

/** The net effect of movements (or of sums of movements by type and status) on the balance. */
export function netOf(movements: readonly NetSource[]): number {
  return movements
    .filter(onStatement)
    .reduce(
      (sum, m) => sum + movementAmounts({ ...m, sideFeeCents: 0, sideShippingCents: 0 }).net,
      0,
    );
}

/** The sum of a retailer's movements of one type and status in a month (what the list of months is read from). */
export interface MonthSum extends NetSource {
  month: string;
  count: number;
}

export interface MonthSummary {
  month: string;
  label: string;
  lines: number;
  opening: number;
  net: number;
  closing: number;
}

/**
 * The list of a retailer's statements, newest first: every month from its first movement's to `current`
 * (a month without movements is listed too: its opening is its closing), or `current` alone.
 */
export function statementMonths(sums: readonly MonthSum[], current: string): MonthSummary[] {
  const cur = parseStatementMonth(current);
  if (!cur) throw new RangeError(`not a month: ${current}`);
  const kept = sums.filter((s) => onStatement(s) && s.month <= current);
  const first = kept.reduce((m, s) => (s.month < m ? s.month : m), current);
  const out: MonthSummary[] = [];
  let balance = 0;
  for (let m = parseStatementMonth(first)!; monthKey(m) <= current; m = nextMonth(m)) {
    const key = monthKey(m);
    const of = kept.filter((s) => s.month === key);
    const net = netOf(of);
    out.push({
      month: key,
      label: monthLabel(m),
      lines: of.reduce((n, s) => n + s.count, 0),
      opening: balance,
      net,
      closing: balance + net,
    });
    balance += net;
  }
  return out.reverse();
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "November 2026". */
export function monthLabel(m: { year: number; month: number }): string {
  return `${MONTH_NAMES[m.month - 1]} ${m.year}`;
}

/** A month's statement: its lines oldest first with the running balance, totals, and totals by kind. */
export function buildStatement(
  month: string,
  opening: number,
  movements: readonly StatementMovement[],
): Statement {
  let balance = opening;
  const sorted = movements
    .filter(onStatement)
    .sort((x, y) => x.at.getTime() - y.at.getTime() || x.id - y.id);
  const lines: StatementLine[] = sorted.map((m) => {
    const amounts = movementAmounts(m);
    balance += amounts.net;
    return {
      id: m.id,
      at: m.at.toISOString(),
      orderId: m.orderId,
      externalId: m.externalId,
      transactionType: m.transactionType,
      kind: statementKind(m.transactionType, m.role),
      counterpartyId: m.counterpartyId,
      description: m.name,
      queued: m.queued,
      ...amounts,
      balance,
    };
  });
  const totals = lines.reduce<Amounts>((t, l) => addAmounts(t, l), { ...ZERO });
  const byKind = STATEMENT_KINDS.map((kind) => {
    const of = lines.filter((l) => l.kind === kind);
    return {
      kind,
      count: of.length,
      ...of.reduce<Amounts>((t, l) => addAmounts(t, l), { ...ZERO }),
    };
  }).filter((k) => k.count > 0);
  return { month, opening, closing: opening + totals.net, lines, totals, byKind };
}

// --- months ---------------------------------------------------------------------------------------------

export const STATEMENT_MONTH_MESSAGES = Object.freeze({
  badMonth: "A statement month is written YYYY-MM, like 2026-11.",
  futureMonth: "There is no statement for a month that has not started yet.",
  badOffset: "That page of the statement does not exist.",
});

const MONTH_RE = /^(\d{4})-(\d{2})$/;

/** "2026-11" -> { year, month }, or null for anything else (months of the years 2000 to 2999 only). */
export function parseStatementMonth(
  raw: string | undefined | null,
): { year: number; month: number } | null {
  const m = MONTH_RE.exec(raw ?? "");
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (year < 2000 || month < 1 || month > 12) return null;
  return { year, month };
}

export function monthKey(m: { year: number; month: number }): string {
  return `${m.year}-${String(m.month).padStart(2, "0")}`;
}

export function nextMonth(m: { year: number; month: number }): { year: number; month: number } {
  return m.month === 12 ? { year: m.year + 1, month: 1 } : { year: m.year, month: m.month + 1 };
}

export function previousMonth(m: { year: number; month: number }): { year: number; month: number } {
  return m.month === 1 ? { year: m.year - 1, month: 12 } : { year: m.year, month: m.month - 1 };
}

/** The instants a month starts and ends (exclusive) in the zone: midnight of its first day to the next month's. */
export function monthRange(
  m: { year: number; month: number },
  zone: string,
): { from: Date; to: Date } {
  const start = (y: number, mo: number) =>
    new Date(
      zonedToEpochMs(
        { year: y, month: mo, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
        zone,
      ),
    );
  const n = nextMonth(m);
  return { from: start(m.year, m.month), to: start(n.year, n.month) };
}

/** How many lines a page of the statement shows; ?offset= pages through the rest. */
export const STATEMENT_PAGE_SIZE = 100;

/** ?offset= of a statement page: a multiple of the page size below the number of lines (0 always), else null. */
export function parseStatementOffset(raw: string | null, lineCount: number): number | null {
  if (raw === null || raw === "") return 0;
  if (!/^\d{1,7}$/.test(raw)) return null;
  const n = Number(raw);
  if (n === 0) return 0;
  return n % STATEMENT_PAGE_SIZE === 0 && n < lineCount ? n : null;
}
