/**
 * Staff's carrier tools (the Shipping tab of an order's or an RMA's card on /admin/active-transactions and
 * /admin/active-rmas, and /admin/active-shipments). "Schedule pickup" books the parcel's pickup again through
 * its order's workflow, for a pickup missed: a new call tag with the carrier, recorded as 922 on a purchase,
 * 912 on a swap's parcel and 931 on an RMA's return (docs/guides/action-codes-and-reasons.md). "Simulate
 * pickup" and "Simulate delivery" send a simulated carrier event on the parcel, signed and posted as the
 * carrier's webhook would be. Then back to the card's Shipping tab with a notice.
 *
 * Fields: order (id), status (pre_transit | picked_up | delivered), shipment (optional: a swap's parcels each
 * have their own tools; a purchase's drive its latest parcel), parsed with Zod through parseSubmission. A
 * refusal is a Conform reply (formError). A screen whose only form is the tools (active transactions, active
 * shipments) answers with carrierToolsScreenAction.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { readFormData, requireStaff } from "./auth.server";
import { db } from "./db.server";
import { formError, parseSubmission } from "./form.server";
import { sendOrderCommand, type OrderKind } from "./temporal.server";
import { simulateCarrierEvent } from "./webhooks.server";
import { getOrderRow } from "../../db/queries/orders";
import { latestShipmentOfOrder } from "../../db/queries/webhooks";
import { TRANSACTION_TYPE } from "../../domain/states";
import type { UpdateDefinition } from "@temporalio/common";
import { staffBookPickupUpdate } from "../../workflows/buy/contract";
import type { StaffBookPickupCommand } from "../../workflows/common/contract";
import { staffBookReturnPickupUpdate } from "../../workflows/rma/contract";
import { staffBookSwapPickupUpdate } from "../../workflows/swap/contract";

/** A refusal as a Conform reply (a form-level error) with its status. */
const refuse = (status: number, message: string) => data(formError(message), { status });

const id = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/** The tool's fields: the order, the event, and a swap's parcel (optional). */
const CarrierToolSchema = z.object({
  order: id,
  status: z.enum(["pre_transit", "picked_up", "delivered"]),
  shipment: id.optional(),
});

/** The "carrier" intent of a staff card's form (already read): the event sent, or why not. */
export async function carrierToolsAction(request: Request, form: FormData) {
  const submission = parseSubmission(form, { schema: CarrierToolSchema });
  if (submission.status !== "success") {
    const wrong = Object.keys(submission.error ?? {});
    return refuse(
      400,
      wrong.includes("order") || wrong.includes("status")
        ? "Choose an order and a carrier event."
        : "Choose a shipment of this order.",
    );
  }
  const { order, status, shipment } = submission.value;
  const result =
    (status === "pre_transit" ? await bookPickupAgain(order, shipment ?? null) : null) ??
    (await simulateCarrierEvent(order, status, shipment ?? null));
  if (!result.ok)
    return refuse(
      result.httpStatus && result.httpStatus < 500 ? result.httpStatus : 502,
      result.message,
    );
  const back = new URL(request.url);
  back.searchParams.set("order", String(order));
  back.searchParams.set("tab", "shipping");
  back.searchParams.set("notice", status);
  return redirect(`${back.pathname}${back.search}`, 303);
}

/** Staff's "Schedule pickup" of each kind of order (transaction type): its workflow and the update. */
const BOOK_PICKUP: Record<
  number,
  { kind: OrderKind; update: UpdateDefinition<unknown, [StaffBookPickupCommand]> }
> = {
  [TRANSACTION_TYPE.SALE]: { kind: "buy", update: staffBookPickupUpdate },
  [TRANSACTION_TYPE.SWAP]: { kind: "swap", update: staffBookSwapPickupUpdate },
  [TRANSACTION_TYPE.RMA]: { kind: "rma", update: staffBookReturnPickupUpdate },
};

/**
 * The parcel's pickup booked again by its order's workflow (the call tag staff saw is the one replaced, so a
 * repeated click books nothing more; on a swap it names the side's parcel), or null for an order of no kind.
 */
async function bookPickupAgain(
  orderId: number,
  shipmentId: number | null,
): Promise<{ ok: true } | { ok: false; httpStatus: number; message: string } | null> {
  const order = await getOrderRow(db, orderId);
  const kind = order ? BOOK_PICKUP[order.transactionType] : undefined;
  if (!order || !kind) return null;
  const parcel = await latestShipmentOfOrder(db, orderId, shipmentId);
  if (!parcel?.callTag)
    return { ok: false, httpStatus: 409, message: "This order has no pickup booked yet." };
  const out = await sendOrderCommand(kind.kind, order, kind.update, {
    replacesCallTag: parcel.callTag,
  });
  return out.ok ? { ok: true } : { ok: false, httpStatus: out.status, message: out.message };
}

/** The action of a staff screen whose only form is the carrier tools: staff only; any other intent is a 400. */
export async function carrierToolsScreenAction(request: Request) {
  await requireStaff(request);
  const form = await readFormData(request);
  if (form.get("intent") !== "carrier") return refuse(400, "Unknown action.");
  return carrierToolsAction(request, form);
}
