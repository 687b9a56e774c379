/**
 * Shipments: the read model pages show (shipments, shipment_events) and the state of the built-in sandbox
 * carrier (sandbox_carrier_shipments: tracking number, call tags, PDF label, tracking status).
 *
 * For the carrier webhook endpoint: `findShipmentByTracking` (tracking number -> order and its workflow id)
 * and `recordShipmentEvent` (idempotent by the carrier's event id). For the label route: `getCarrierLabel`.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { orders, retailers, sandboxCarrierShipments, shipmentEvents, shipments } from "../schema";
import type { CarrierLabelData } from "../../domain/carrier-events";
import type { DbOrTx } from "../client";

export type ShipmentRow = typeof shipments.$inferSelect;
export type CarrierShipmentRow = typeof sandboxCarrierShipments.$inferSelect;

// ---------------------------------------------------------------------------------------------------------
// Read model.

/**
 * The order's shipment as booked (or rebooked) with the carrier, keyed by tracking number. No-op when the
 * order row is gone. Returns the row id, or null.
 */
export async function upsertShipment(
  db: DbOrTx,
  input: {
    orderId: number;
    senderId: number;
    receiverId: number;
    trackingNumber: string;
    callTag: string;
    labelUrl: string | null;
    trackingUrl: string | null;
    pickupBy: Date;
    carrier?: string;
  },
): Promise<number | null> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.id, input.orderId));
  if (!order) return null;
  const [row] = await db
    .insert(shipments)
    .values({
      orderId: input.orderId,
      senderId: input.senderId,
      receiverId: input.receiverId,
      carrier: input.carrier ?? "sandbox",
      trackingNumber: input.trackingNumber,
      callTag: input.callTag,
      labelUrl: input.labelUrl,
      trackingUrl: input.trackingUrl,
      pickupBy: input.pickupBy,
      status: "pickup_scheduled",
    })
    .onConflictDoUpdate({
      target: shipments.trackingNumber,
      set: {
        callTag: input.callTag,
        labelUrl: input.labelUrl,
        trackingUrl: input.trackingUrl,
        pickupBy: input.pickupBy,
        modifiedAt: sql`now()`,
      },
    })
    .returning({ id: shipments.id });
  return row?.id ?? null;
}

/** The order (and its workflow) a tracking number belongs to: what the carrier webhook signals. */
export async function findShipmentByTracking(db: DbOrTx, trackingNumber: string) {
  const [row] = await db
    .select({
      shipmentId: shipments.id,
      orderId: shipments.orderId,
      status: shipments.status,
      workflowId: orders.workflowId,
      transactionType: orders.transactionType,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(eq(shipments.trackingNumber, trackingNumber));
  return row ?? null;
}

/** One tracking event of a shipment, once per carrier event id. Returns false when it was already there. */
export async function recordShipmentEvent(
  db: DbOrTx,
  input: {
    trackingNumber: string;
    providerEventId: string;
    status: string;
    description: string;
    eventTimestamp: Date;
  },
): Promise<boolean> {
  const [ship] = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(eq(shipments.trackingNumber, input.trackingNumber));
  if (!ship) return false;
  const rows = await db
    .insert(shipmentEvents)
    .values({
      shipmentId: ship.id,
      providerEventId: input.providerEventId,
      status: input.status,
      description: input.description,
      eventTimestamp: input.eventTimestamp,
    })
    .onConflictDoNothing()
    .returning({ id: shipmentEvents.id });
  return rows.length > 0;
}

export async function listOrderShipments(db: DbOrTx, orderId: number): Promise<ShipmentRow[]> {
  return db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(shipments.id);
}

/** The destination printed on a label: street address only (the recipient is named by its anonymous label). */
export async function getShippingAddress(db: DbOrTx, retailerId: number) {
  const [r] = await db
    .select({
      address1: retailers.address1,
      city: retailers.city,
      state: retailers.state,
      postalCode: retailers.postalCode,
    })
    .from(retailers)
    .where(eq(retailers.id, retailerId));
  return r ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox carrier's own state.

/** The carrier's shipment of an order from one sender (a swap has one per side). */
export async function getCarrierShipmentByOrder(
  db: DbOrTx,
  orderId: number,
  senderId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<CarrierShipmentRow | null> {
  const q = db
    .select()
    .from(sandboxCarrierShipments)
    .where(
      and(
        eq(sandboxCarrierShipments.orderId, orderId),
        eq(sandboxCarrierShipments.senderId, senderId),
      ),
    );
  const [row] = opts.forUpdate ? await q.for("update") : await q;
  return row ?? null;
}

export async function getCarrierShipment(
  db: DbOrTx,
  idOrTracking: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CarrierShipmentRow | null> {
  const where = idOrTracking.startsWith("shp_")
    ? eq(sandboxCarrierShipments.id, idOrTracking)
    : eq(sandboxCarrierShipments.trackingNumber, idOrTracking);
  const q = db.select().from(sandboxCarrierShipments).where(where);
  const [row] = opts.forUpdate ? await q.for("update") : await q;
  return row ?? null;
}

/** Inserts a carrier shipment; false when the order already has one from that sender (a concurrent booking won). */
export async function insertCarrierShipment(
  db: DbOrTx,
  row: typeof sandboxCarrierShipments.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(sandboxCarrierShipments)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: sandboxCarrierShipments.id });
  return rows.length > 0;
}

export async function updateCarrierShipment(
  db: DbOrTx,
  id: string,
  set: Partial<
    Pick<
      CarrierShipmentRow,
      "callTag" | "pickupAttempt" | "pickupBy" | "status" | "pickups" | "scans"
    >
  >,
): Promise<void> {
  await db
    .update(sandboxCarrierShipments)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(sandboxCarrierShipments.id, id));
}

/**
 * The label of a tracking number (the label route renders it for the sender and staff): its data, or a PDF
 * rendered at booking by an older version; null for an unknown tracking number.
 */
export async function getCarrierLabel(
  db: DbOrTx,
  trackingNumber: string,
): Promise<{
  orderId: number;
  senderId: number;
  data: CarrierLabelData | null;
  pdf: Buffer | null;
} | null> {
  const [row] = await db
    .select({
      orderId: sandboxCarrierShipments.orderId,
      senderId: sandboxCarrierShipments.senderId,
      data: sandboxCarrierShipments.labelData,
      pdf: sandboxCarrierShipments.labelPdf,
    })
    .from(sandboxCarrierShipments)
    .where(and(eq(sandboxCarrierShipments.trackingNumber, trackingNumber)));
  return row ?? null;
}

/** A parcel by tracking number with its carrier events, oldest first (the tracking page), or null. */
export async function getParcelTracking(db: DbOrTx, trackingNumber: string) {
  const [ship] = await db
    .select({
      id: shipments.id,
      senderId: shipments.senderId,
      receiverId: shipments.receiverId,
      status: shipments.status,
      trackingNumber: shipments.trackingNumber,
    })
    .from(shipments)
    .where(eq(shipments.trackingNumber, trackingNumber));
  if (!ship) return null;
  const events = await db
    .select({
      status: shipmentEvents.status,
      description: shipmentEvents.description,
      at: shipmentEvents.eventTimestamp,
    })
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, ship.id))
    .orderBy(asc(shipmentEvents.eventTimestamp), asc(shipmentEvents.id));
  return { ...ship, events: events.map((e) => ({ ...e, at: e.at.toISOString() })) };
}
