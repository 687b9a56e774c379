/**
 * A retailer's monthly statements (docs/product/money.md, "Statements"; ADR 0026), read from the payments
 * ledger (db/queries/payments.ts): the same rows the order pages and staff's payment tabs show. Months are
 * calendar months in the marketplace time zone; a movement belongs to the month it was recorded in
 * (payments.created_at). The arithmetic (columns, balances, totals) is domain/statements.ts.
 */
import { and, asc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { orders, payments } from "../schema";
import {
  buildStatement,
  monthKey,
  monthRange,
  netOf,
  statementMonths,
  STATEMENT_TXTYPES,
  type MonthSum,
  type MonthSummary,
  type Statement,
  type StatementMovement,
} from "../../domain/statements";
import type { PlanNode } from "./marketplace";
import { monthDifferencesQuery } from "./reconciliation";
import type { DbOrTx } from "../client";

const onStatementTypes = () => inArray(payments.txtype, [...STATEMENT_TXTYPES]);

function movementsQuery(db: DbOrTx, retailerId: number, range: { from: Date; to: Date }) {
  return db
    .select({
      id: payments.id,
      at: payments.createdAt,
      txtype: payments.txtype,
      status: payments.status,
      queued: payments.queued,
      name: payments.name,
      amountCents: payments.amountCents,
      orderId: payments.orderId,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      providerId: orders.providerId,
      receiverId: orders.receiverId,
      providerFee: orders.providerFeeCents,
      providerShipping: orders.providerShippingCents,
      receiverFee: orders.receiverFeeCents,
      receiverShipping: orders.receiverShippingCents,
    })
    .from(payments)
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.retailerId, retailerId),
        onStatementTypes(),
        gte(payments.createdAt, range.from),
        lt(payments.createdAt, range.to),
      ),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/** The retailer's movements recorded in [from, to), with their order's kind, side and counterparty. */
export async function statementMovements(
  db: DbOrTx,
  retailerId: number,
  range: { from: Date; to: Date },
): Promise<StatementMovement[]> {
  const rows = await movementsQuery(db, retailerId, range);
  return rows.map((r) => {
    const role =
      r.providerId === retailerId ? "provider" : r.receiverId === retailerId ? "receiver" : null;
    return {
      id: r.id,
      at: r.at,
      txtype: r.txtype,
      status: r.status,
      queued: r.queued,
      name: r.name,
      amountCents: r.amountCents,
      orderId: r.orderId,
      externalId: r.externalId,
      transactionType: r.transactionType,
      role,
      counterpartyId:
        role === "provider" ? r.receiverId : role === "receiver" ? r.providerId : null,
      sideFeeCents: (role === "provider" ? r.providerFee : r.receiverFee) ?? 0,
      sideShippingCents: (role === "provider" ? r.providerShipping : r.receiverShipping) ?? 0,
    };
  });
}

function sumsBeforeQuery(db: DbOrTx, retailerId: number, before: Date) {
  return db
    .select({
      txtype: payments.txtype,
      status: payments.status,
      amountCents: sql<string>`sum(${payments.amountCents})`,
    })
    .from(payments)
    .where(
      and(eq(payments.retailerId, retailerId), onStatementTypes(), lt(payments.createdAt, before)),
    )
    .groupBy(payments.txtype, payments.status);
}

/** The retailer's movements before `before`, summed by type and status (a statement's opening balance). */
async function netBefore(db: DbOrTx, retailerId: number, before: Date): Promise<number> {
  const rows = await sumsBeforeQuery(db, retailerId, before);
  return netOf(rows.map((r) => ({ ...r, amountCents: Number(r.amountCents) })));
}

/** One month's statement of the retailer (month: { year, month } in `zone`). */
export async function monthStatement(
  db: DbOrTx,
  retailerId: number,
  month: { year: number; month: number },
  zone: string,
): Promise<Statement> {
  const range = monthRange(month, zone);
  const [opening, movements] = await Promise.all([
    netBefore(db, retailerId, range.from),
    statementMovements(db, retailerId, range),
  ]);
  return buildStatement(monthKey(month), opening, movements);
}

function monthSumsQuery(db: DbOrTx, retailerId: number, zone: string) {
  const month = sql<string>`to_char(${payments.createdAt} AT TIME ZONE ${zone}, 'YYYY-MM')`;
  return db
    .select({
      month,
      txtype: payments.txtype,
      status: payments.status,
      amountCents: sql<string>`sum(${payments.amountCents})`,
      count: sql<number>`count(*)::int`,
    })
    .from(payments)
    .where(and(eq(payments.retailerId, retailerId), onStatementTypes()))
    .groupBy(sql`1`, sql`2`, sql`3`);
}

/** The retailer's months, newest first, up to `current` (YYYY-MM in `zone`), with their balances. */
export async function listStatementMonths(
  db: DbOrTx,
  retailerId: number,
  current: string,
  zone: string,
): Promise<MonthSummary[]> {
  const rows = await monthSumsQuery(db, retailerId, zone);
  const sums: MonthSum[] = rows.map((r) => ({ ...r, amountCents: Number(r.amountCents) }));
  return statementMonths(sums, current);
}

/**
 * The plans of the statement queries (the months, a month's lines, the sum before it, the differences on its
 * movements that say whether it is reconciled) for one retailer and month: what the plan test checks for
 * sequential scans of payments or orders.
 */
export async function explainStatementQueries(
  db: DbOrTx,
  retailerId: number,
  month: { year: number; month: number },
  zone: string,
): Promise<Record<"months" | "lines" | "opening" | "reconciled", PlanNode>> {
  const range = monthRange(month, zone);
  const explain = async (q: { getSQL(): SQL }) => {
    const rows = (await db.execute(sql`explain (format json) ${q.getSQL()}`)) as unknown as {
      "QUERY PLAN": [{ Plan: PlanNode }];
    }[];
    return rows[0]["QUERY PLAN"][0].Plan;
  };
  return {
    months: await explain(monthSumsQuery(db, retailerId, zone)),
    lines: await explain(movementsQuery(db, retailerId, range)),
    opening: await explain(sumsBeforeQuery(db, retailerId, range.from)),
    reconciled: await explain(monthDifferencesQuery(db, retailerId, range)),
  };
}
