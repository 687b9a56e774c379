/**
 * The Alerts link's count in the header, on every page (docs/product/screens.md, "Menus and banners"): the
 * orders waiting for this retailer's answer (the bell counters of /alerts, summed) and the conversations with
 * messages it has not read.
 */
import { unseenConversationCount } from "../../db/queries/order-messages";
import { alertCounters } from "../../db/queries/order-views/retailer-lists";
import { db } from "./db.server";

export async function headerAlerts(
  retailerId: number,
): Promise<{ orders: number; conversations: number }> {
  const [c, conversations] = await Promise.all([
    alertCounters(db, retailerId),
    unseenConversationCount(db, retailerId),
  ]);
  return { orders: c.sale_alerts + c.purchase_alerts + c.swap_alerts, conversations };
}
