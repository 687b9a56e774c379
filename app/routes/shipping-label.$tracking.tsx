/**
 * /shipping-label/{tracking number}: the carrier's label PDF, rendered now from the data the carrier recorded
 * when the pickup was booked (a label rendered at booking by an earlier version is served as stored). Only
 * the sender of the parcel (a purchase's seller; either side of a swap, for its own parcel) and staff may print it; anyone else, and an unknown tracking number, gets 404.
 * The label names the recipient as `retailer-00{id}`.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getCarrierLabel } from "../../db/queries/shipments";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { renderLabelPdf } from "./shipping-label.$tracking.server";
import { orderViewer } from "~/utils/orders.server";
import { pdfResponse } from "~/utils/pdf.server";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await orderViewer(request);
  const tracking = params.tracking ?? "";
  if (!/^[A-Za-z0-9]{1,40}$/.test(tracking)) throw notFound();
  const label = await getCarrierLabel(db, tracking);
  if (!label) throw notFound();
  if (!viewer.isStaff && viewer.retailerId !== label.senderId) throw notFound();
  const pdf = label.data ? await renderLabelPdf(label.data, getEnv().MARKETPLACE_TZ) : label.pdf;
  if (!pdf) throw notFound();
  return pdfResponse(pdf, `label-${tracking}.pdf`);
}
