/**
 * /shipperchecklist/{external_id or action id}/ (docs/product/screens.md, "Packing slip, checklist and label"): the seller's
 * printable checklist for an order, as a PDF (app/utils/pdf.server.tsx): pickup readiness, the contents and
 * the printed RMA texts. Anonymous; parties of the order and staff only (404 otherwise).
 * A swap has a parcel each way: a party gets the slip of the parcel it sends; staff choose with ?side=receiver.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { findOrderId, getPackingSlipData } from "../../db/queries/order-views/order-detail";
import { db } from "~/utils/db.server";
import { pdfResponse, renderShipperChecklist } from "~/utils/pdf.server";
import { orderViewer } from "~/utils/orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await orderViewer(request);
  const orderId = await findOrderId(db, params.id ?? "");
  const side = new URL(request.url).searchParams.get("side") === "receiver" ? "receiver" : "provider";
  const slip = orderId ? await getPackingSlipData(db, orderId, viewer, side) : null;
  if (!slip) throw new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return pdfResponse(await renderShipperChecklist(slip), `shipper-checklist-${slip.externalId}.pdf`);
}
