/**
 * Server half of /tracking/:tracking (docs/product/screens.md, "Parcel tracking"): a parcel's carrier events,
 * for the parcel's sender, its receiver and staff. Anyone else, a malformed or an unknown tracking number, 404.
 */
import { getParcelTracking } from "../../db/queries/shipments";
import { db } from "~/utils/db.server";
import { orderViewer } from "~/utils/orders.server";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

export async function parcelTrackingPage(request: Request, trackingRaw: string | undefined) {
  const viewer = await orderViewer(request);
  const tracking = trackingRaw ?? "";
  if (!/^[A-Za-z0-9]{1,40}$/.test(tracking)) throw notFound();
  const parcel = await getParcelTracking(db, tracking);
  if (!parcel) throw notFound();
  if (
    !viewer.isStaff &&
    viewer.retailerId !== parcel.senderId &&
    viewer.retailerId !== parcel.receiverId
  )
    throw notFound();
  return { trackingNumber: tracking, status: parcel.status, events: parcel.events };
}
