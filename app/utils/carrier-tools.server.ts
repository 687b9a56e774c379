/**
 * Staff's carrier tools (the Shipping tab of an order's or an RMA's card on /admin/active-transactions and
 * /admin/active-rmas): a simulated carrier event (pickup scheduled, picked up, delivered) on the order's
 * parcel, sent as the carrier's webhook would, then back to the card's Shipping tab with a notice.
 *
 * Fields: order (id), status (pre_transit | picked_up | delivered), shipment (optional: a swap's parcels each
 * have their own tools; a purchase's drive its latest parcel). A refusal is a Conform reply (formError).
 */
import { data, redirect } from "@remix-run/node";
import type { CarrierEventStatus } from "../../domain/carrier-events";
import { formError } from "./form.server";
import { simulateCarrierEvent } from "./webhooks.server";

/** A refusal as a Conform reply (a form-level error) with its status. */
const refuse = (status: number, message: string) => data(formError(message), { status });

const CARRIER_TOOL_STATUSES: Record<string, CarrierEventStatus> = { pre_transit: "pre_transit", picked_up: "picked_up", delivered: "delivered" };

/** The "carrier" intent of a staff card's form (already read): the event sent, or why not. */
export async function carrierToolsAction(request: Request, form: FormData) {
  const orderRaw = String(form.get("order") ?? "");
  const status = CARRIER_TOOL_STATUSES[String(form.get("status") ?? "")];
  if (!/^\d{1,9}$/.test(orderRaw) || !status) return refuse(400, "Choose an order and a carrier event.");
  const shipmentRaw = String(form.get("shipment") ?? "");
  if (shipmentRaw !== "" && !/^\d{1,9}$/.test(shipmentRaw)) return refuse(400, "Choose a shipment of this order.");
  const result = await simulateCarrierEvent(Number(orderRaw), status, shipmentRaw ? Number(shipmentRaw) : null);
  if (!result.ok) return refuse(result.httpStatus && result.httpStatus < 500 ? result.httpStatus : 502, result.message);
  const back = new URL(request.url);
  back.searchParams.set("order", orderRaw);
  back.searchParams.set("tab", "shipping");
  back.searchParams.set("notice", status);
  return redirect(`${back.pathname}${back.search}`, 303);
}
