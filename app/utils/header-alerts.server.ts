/**
 * The Alerts link's count in the header, on every page (docs/product/screens.md, "Menus and banners"): the
 * orders waiting for this retailer's answer (the bell counters of /alerts, summed).
 */
import { alertCounters } from "../../db/queries/order-views/retailer-lists";
import { db } from "./db.server";

export async function headerAlerts(retailerId: number): Promise<{ orders: number }> {
  const c = await alertCounters(db, retailerId);
  return { orders: c.sale_alerts + c.purchase_alerts + c.swap_alerts };
}
