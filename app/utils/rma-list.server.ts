/**
 * /rma's server half (docs/product/screens.md, "My returns"): the signed-in retailer's RMAs as victim and as
 * perpetrator, by status filter, 25 a page; and the perpetrator's returns on /alerts. The other party is only its
 * anonymous label.
 */
import {
  listRetailerRmas,
  RETAILER_RMA_FILTERS,
  type RetailerRmaFilter,
  type RetailerRmaRow,
} from "../../db/queries/rmas";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { TRANSACTION_TYPE } from "../../domain/states";

export const isRetailerRmaFilter = (v: string): v is RetailerRmaFilter =>
  Object.hasOwn(RETAILER_RMA_FILTERS, v);

/** The page of the list the URL asks for (?status=, ?offset=); a 400 for a filter or offset it does not know. */
export async function myRmasPage(
  db: Parameters<typeof listRetailerRmas>[0],
  retailerId: number,
  url: URL,
) {
  const statusRaw = url.searchParams.get("status") || "all";
  if (!isRetailerRmaFilter(statusRaw))
    throw new Response("Unknown status filter: choose one of the list.", { status: 400 });
  const offsetRaw = url.searchParams.get("offset") || "0";
  if (!/^\d{1,7}$/.test(offsetRaw))
    throw new Response("Bad page offset: it must be a whole number.", { status: 400 });
  const page = await listRetailerRmas(db, retailerId, {
    filter: statusRaw,
    offset: Number(offsetRaw),
    limit: 25,
  });
  return {
    status: statusRaw,
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    items: page.items.map(rmaListItem),
  };
}

/** One row of a retailer's RMA list as the pages show it: the other party only as its anonymous label. */
function rmaListItem(r: RetailerRmaRow) {
  return {
    id: r.id,
    externalId: r.externalId,
    displayStatus: r.displayStatus,
    stage: r.stage,
    role: r.role,
    other: anonymousRetailerLabel(r.otherId),
    orderLink: r.rmaForId
      ? `/transaction/${r.rmaForTransactionType === TRANSACTION_TYPE.SWAP ? "swap" : "buy"}/${r.rmaForId}`
      : null,
    orderExternalId: r.rmaForExternalId,
    amountCents: r.amountCents,
    createdAt: r.createdAt,
    modifiedAt: r.modifiedAt,
  };
}

export type RmaListItem = ReturnType<typeof rmaListItem>;

/**
 * The bell's returns (docs/product/screens.md, "Alerts"): the RMAs filed against the retailer with a step it has
 * not seen yet (filed, decided, shipped back, settled), newest change first, at most 20; opening one clears it.
 */
export async function rmaAlerts(db: Parameters<typeof listRetailerRmas>[0], retailerId: number) {
  const page = await listRetailerRmas(db, retailerId, { alerts: true, limit: 20 });
  return { total: page.total, items: page.items.map(rmaListItem) };
}
