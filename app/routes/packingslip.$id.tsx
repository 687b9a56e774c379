/**
 * /packingslip/{external_id or action id}/ (docs/product/screens.md, "Packing slip, checklist and label"): the order's packing slip as a PDF
 * (@react-pdf/renderer, app/utils/pdf.server.tsx), opened in a new tab: a resource route, so no menus or
 * page chrome. Anonymous whoever prints it (it goes inside the box): parties as `retailer-00{id}` only.
 * A party of the order (or staff) may open it; anyone else gets 404.
 * A swap has a parcel each way: a party gets the slip of the parcel it sends; staff choose with ?side=receiver.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderPackingSlip } from "~/utils/pdf.server";
import { orderPdfResponse } from "~/utils/slip-pdf.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return orderPdfResponse(request, params.id, renderPackingSlip, "packing-slip");
}
