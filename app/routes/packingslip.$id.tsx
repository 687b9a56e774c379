/**
 * /packingslip/{external_id or action id}/ (docs/product/screens.md, "Packing slip, checklist and label"): the order's packing slip as a PDF
 * (@react-pdf/renderer, app/utils/pdf.server.tsx), opened in a new tab: a resource route, so no menus or
 * page chrome. Anonymous whoever prints it (it goes inside the box): parties as `retailer-00{id}` only.
 * A party of the order (or staff) may open it; anyone else gets 404.
 * A swap has a parcel each way: a party gets the slip of the parcel it sends; staff choose with ?side=receiver.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findOrderId, getPackingSlipData } from "../../db/queries/order-views/order-detail";
import { db } from "~/utils/db.server";
import { orderViewer } from "~/utils/orders.server";
import { pdfResponse, renderPackingSlip } from "~/utils/pdf.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await orderViewer(request);
  const orderId = await findOrderId(db, params.id ?? "");
  const side = new URL(request.url).searchParams.get("side") === "receiver" ? "receiver" : "provider";
  const slip = orderId ? await getPackingSlipData(db, orderId, viewer, side) : null;
  if (!slip) throw new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return pdfResponse(await renderPackingSlip(slip), `packing-slip-${slip.externalId}.pdf`);
}
