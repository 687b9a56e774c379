/**
 * Staff's order lists (docs/product/screens.md, "Staff: transactions"): every order and
 * every parcel, with store names (staff see them). Reads only.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { actionLabel } from "../../../domain/action-codes";
import { displayRetailer } from "../../../domain/anonymity";
import { orderTypeLabel, ttypeOf } from "../../../domain/order-views";
import {
  isAdminStage,
  stagesOfAdminStage,
  type AdminStage,
  type TransactionKind,
} from "../../../domain/states";
import { brands, orderActions, orders, shipments } from "../../schema";
import { staleCartDraftSql } from "../checkout";
import { brandNameSql, orderListColumns, orderPage, pageArgs, type Page } from "./shared";
import type { DbOrTx } from "../../client";

export interface AdminOrderRow {
  id: number;
  externalId: string;
  ttype: TransactionKind;
  transactionType: number;
  typeLabel: string;
  brandName: string | null;
  providerId: number;
  receiverId: number;
  providerName: string;
  receiverName: string;
  statename: string;
  displayStatus: string;
  stage: string;
  actionNeeded: string | null;
  valueCents: number;
  receiverGrandTotalCents: number;
  lastActionCode: number | null;
  lastActionLabel: string | null;
  floorTime: string | null;
  modifiedAt: string;
}

export interface AdminOrderFilter {
  stage?: AdminStage;
  type?: number | null;
  action?: number | null;
  /** One brand's orders (the brand admin's Transactions tab). */
  brandId?: number | null;
  limit?: number;
  offset?: number;
}

/** The orders matching staff's filter: stage (a cart draft older than 24 hours is expired, not pending), type, brand, action code. */
function adminOrderFilter(filter: AdminOrderFilter) {
  const stage =
    filter.stage && isAdminStage(filter.stage) && filter.stage !== "all" ? filter.stage : null;
  return and(
    stage ? inArray(orders.stage, stagesOfAdminStage(stage)) : undefined,
    stage === "pre_shipping" ? sql`NOT ${staleCartDraftSql()}` : undefined,
    filter.type ? eq(orders.transactionType, filter.type) : undefined,
    filter.brandId ? eq(orders.brandId, filter.brandId) : undefined,
    filter.action
      ? sql`EXISTS (SELECT 1 FROM ${orderActions} WHERE ${orderActions.orderId} = ${orders.id} AND ${orderActions.code} = ${filter.action})`
      : undefined,
  );
}

/** /admin/active-transactions: every order, filtered by stage, transaction type and action code; names shown. */
export async function listAdminOrders(
  db: DbOrTx,
  filter: AdminOrderFilter = {},
): Promise<Page<AdminOrderRow>> {
  const columns = {
    ...orderListColumns,
    brandName: brandNameSql(),
    providerName: sql<string>`(SELECT p.store_name FROM retailers p WHERE p.id = ${orders.providerId})`,
    receiverName: sql<string>`(SELECT r.store_name FROM retailers r WHERE r.id = ${orders.receiverId})`,
    lastActionCode: sql<
      number | null
    >`(SELECT a.code FROM order_actions a WHERE a.order_id = ${orders.id} ORDER BY a.created_at DESC, a.id DESC LIMIT 1)`,
    floorTime: orders.floorTime,
  };
  const { rows, ...page } = await orderPage(
    db,
    db.select(columns).from(orders).leftJoin(brands, eq(brands.id, orders.brandId)).$dynamic(),
    adminOrderFilter(filter),
    filter,
    25,
  );
  const items = rows.map((row) => ({
    ...row,
    ttype: ttypeOf(row.transactionType),
    typeLabel: orderTypeLabel(row.transactionType, null),
    providerName: displayRetailer({ id: row.providerId, storeName: row.providerName }, true),
    receiverName: displayRetailer({ id: row.receiverId, storeName: row.receiverName }, true),
    lastActionLabel: row.lastActionCode === null ? null : actionLabel(row.lastActionCode),
    modifiedAt: row.modifiedAt.toISOString(),
  }));
  return { items, ...page };
}

export interface AdminShipmentRow {
  id: number;
  orderId: number;
  externalId: string;
  ttype: TransactionKind;
  senderName: string;
  receiverName: string;
  trackingNumber: string | null;
  callTag: string | null;
  status: string;
  pickupBy: string | null;
  orderState: string;
  modifiedAt: string;
}

/** /admin/active-shipments: shipments not yet delivered or cancelled (or every one with all=true). */
export async function listActiveShipments(
  db: DbOrTx,
  opts: { all?: boolean; limit?: number; offset?: number } = {},
): Promise<Page<AdminShipmentRow>> {
  const { limit, offset } = pageArgs(opts, 50);
  const where = opts.all ? undefined : inArray(shipments.status, ["pickup_scheduled", "in_route"]);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(shipments)
    .where(where);
  const rows = await db
    .select({
      id: shipments.id,
      orderId: shipments.orderId,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      senderId: shipments.senderId,
      receiverId: shipments.receiverId,
      senderName: sql<string>`(SELECT s.store_name FROM retailers s WHERE s.id = ${shipments.senderId})`,
      receiverName: sql<string>`(SELECT x.store_name FROM retailers x WHERE x.id = ${shipments.receiverId})`,
      trackingNumber: shipments.trackingNumber,
      callTag: shipments.callTag,
      status: shipments.status,
      pickupBy: shipments.pickupBy,
      orderState: orders.statename,
      modifiedAt: shipments.modifiedAt,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(where)
    .orderBy(desc(shipments.modifiedAt), desc(shipments.id))
    .limit(limit)
    .offset(offset);
  const items = rows.map((s) => ({
    id: s.id,
    orderId: s.orderId,
    externalId: s.externalId,
    ttype: ttypeOf(s.transactionType),
    senderName: displayRetailer({ id: s.senderId, storeName: s.senderName }, true),
    receiverName: displayRetailer({ id: s.receiverId, storeName: s.receiverName }, true),
    trackingNumber: s.trackingNumber,
    callTag: s.callTag,
    status: s.status,
    pickupBy: s.pickupBy?.toISOString() ?? null,
    orderState: s.orderState,
    modifiedAt: s.modifiedAt.toISOString(),
  }));
  return { items, total, limit, offset };
}
