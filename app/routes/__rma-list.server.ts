/**
 * /rma's server half (docs/product/screens.md, "My returns"): the signed-in retailer's RMAs as victim and as
 * perpetrator, by status filter, 25 a page. The other party is only its anonymous label.
 */
import { listRetailerRmas, RETAILER_RMA_FILTERS, type RetailerRmaFilter } from "../../db/queries/rmas";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { TRANSACTION_TYPE } from "../../domain/states";

export const isRetailerRmaFilter = (v: string): v is RetailerRmaFilter => Object.hasOwn(RETAILER_RMA_FILTERS, v);

/** The page of the list the URL asks for (?status=, ?offset=); a 400 for a filter or offset it does not know. */
export async function myRmasPage(db: Parameters<typeof listRetailerRmas>[0], retailerId: number, url: URL) {
  const statusRaw = url.searchParams.get("status") || "all";
  if (!isRetailerRmaFilter(statusRaw)) throw new Response("Unknown status filter: choose one of the list.", { status: 400 });
  const offsetRaw = url.searchParams.get("offset") || "0";
  if (!/^\d{1,7}$/.test(offsetRaw)) throw new Response("Bad page offset: it must be a whole number.", { status: 400 });
  const page = await listRetailerRmas(db, retailerId, { filter: statusRaw, offset: Number(offsetRaw), limit: 25 });
  return {
    status: statusRaw,
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    items: page.items.map((r) => ({
      id: r.id,
      externalId: r.externalId,
      displayStatus: r.displayStatus,
      role: r.role,
      other: anonymousRetailerLabel(r.otherId),
      orderLink: r.rmaForId ? `/transaction/${r.rmaForTransactionType === TRANSACTION_TYPE.SWAP ? "swap" : "buy"}/${r.rmaForId}` : null,
      orderExternalId: r.rmaForExternalId,
      amountCents: r.amountCents,
      createdAt: r.createdAt,
      modifiedAt: r.modifiedAt,
    })),
  };
}
