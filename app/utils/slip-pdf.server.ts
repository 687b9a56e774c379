/**
 * The loader of the two order PDFs, /packingslip/{id}/ and /shipperchecklist/{id}/ (docs/product/screens.md,
 * "Packing slip, checklist and label"): the order named by external id or action id, the parcel the viewer
 * sends (staff choose with ?side=receiver), 404 for anyone not a party of the order nor staff.
 */
import {
  findOrderId,
  getPackingSlipData,
  type PackingSlipData,
} from "../../db/queries/order-views/order-detail";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { orderViewer } from "~/utils/orders.server";
import { pdfResponse } from "~/utils/pdf.server";

export async function orderPdfResponse(
  request: Request,
  id: string | undefined,
  render: (d: PackingSlipData, timeZone: string) => Promise<Buffer>,
  filePrefix: string,
): Promise<Response> {
  const viewer = await orderViewer(request);
  const orderId = await findOrderId(db, id ?? "");
  const side =
    new URL(request.url).searchParams.get("side") === "receiver" ? "receiver" : "provider";
  const slip = orderId ? await getPackingSlipData(db, orderId, viewer, side) : null;
  if (!slip)
    throw new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return pdfResponse(
    await render(slip, getEnv().MARKETPLACE_TZ),
    `${filePrefix}-${slip.externalId}.pdf`,
  );
}
