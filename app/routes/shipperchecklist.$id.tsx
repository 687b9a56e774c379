/**
 * /shipperchecklist/{external_id or action id}/ (docs/product/screens.md, "Packing slip, checklist and label"): the seller's
 * printable checklist for an order, as a PDF (app/utils/pdf.server.tsx): pickup readiness, the contents and
 * the printed RMA texts. Anonymous; parties of the order and staff only (404 otherwise).
 * A swap has a parcel each way: a party gets the slip of the parcel it sends; staff choose with ?side=receiver.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderShipperChecklist } from "~/utils/pdf.server";
import { orderPdfResponse } from "~/utils/slip-pdf.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return orderPdfResponse(request, params.id, renderShipperChecklist, "shipper-checklist");
}
