/**
 * A retailer's monthly statements (docs/product/money.md, "Statements"; ADR 0026), read from the payments
 * ledger (db/queries/payments.ts): the same rows the order pages and staff's payment tabs show. Months are
 * calendar months in the marketplace time zone; a movement belongs to the month it was recorded in
 * (payments.created_at). The arithmetic (columns, balances, totals) is domain/statements.ts.
 */
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
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
import type { DbOrTx } from "./listings";

const onStatementTypes = () => inArray(payments.txtype, [...STATEMENT_TXTYPES]);

/** The retailer's movements recorded in [from, to), with their order's kind, side and counterparty. */
export async function statementMovements(db: DbOrTx, retailerId: number, range: { from: Date; to: Date }): Promise<StatementMovement[]> {
  const rows = await db
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
      and(eq(payments.retailerId, retailerId), onStatementTypes(), gte(payments.createdAt, range.from), lt(payments.createdAt, range.to)),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id));
  return rows.map((r) => {
    const role = r.providerId === retailerId ? "provider" : r.receiverId === retailerId ? "receiver" : null;
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
      counterpartyId: role === "provider" ? r.receiverId : role === "receiver" ? r.providerId : null,
      sideFeeCents: (role === "provider" ? r.providerFee : r.receiverFee) ?? 0,
      sideShippingCents: (role === "provider" ? r.providerShipping : r.receiverShipping) ?? 0,
    };
  });
}

/** The retailer's movements before `before`, summed by type and status (a statement's opening balance). */
async function netBefore(db: DbOrTx, retailerId: number, before: Date): Promise<number> {
  const rows = await db
    .select({ txtype: payments.txtype, status: payments.status, amountCents: sql<string>`sum(${payments.amountCents})` })
    .from(payments)
    .where(and(eq(payments.retailerId, retailerId), onStatementTypes(), lt(payments.createdAt, before)))
    .groupBy(payments.txtype, payments.status);
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
  const [opening, movements] = await Promise.all([netBefore(db, retailerId, range.from), statementMovements(db, retailerId, range)]);
  return buildStatement(monthKey(month), opening, movements);
}

/** The retailer's months, newest first, up to `current` (YYYY-MM in `zone`), with their balances. */
export async function listStatementMonths(db: DbOrTx, retailerId: number, current: string, zone: string): Promise<MonthSummary[]> {
  const month = sql<string>`to_char(${payments.createdAt} AT TIME ZONE ${zone}, 'YYYY-MM')`;
  const rows = await db
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
  const sums: MonthSum[] = rows.map((r) => ({ ...r, amountCents: Number(r.amountCents) }));
  return statementMonths(sums, current);
}
