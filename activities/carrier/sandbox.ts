/**
 * The built-in sandbox carrier (docs/product/orders.md, "Providers"): books pickups (call tags), issues a tracking
 * number and records the label's data (the PDF is rendered when the label is opened), cancels pickups, and sends signed tracking webhooks (tracker.updated events,
 * domain/carrier-events.ts) to APP_ORIGIN/webhooks/carrier, exactly as a real carrier would. Staff's
 * "simulate pickup" / "simulate delivery" and the tests drive `sendTrackingEvent`.
 *
 * State lives in Postgres (sandbox_carrier_shipments, through db/queries/shipments.ts): one shipment per
 * order (tracking number + label); a rescheduled pickup (attempt 2) is a new call tag on the same shipment.
 * Booking is idempotent by key: the same key returns the same call tag; the same key for another order or
 * attempt is an IdempotencyConflict.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Db } from "../../db/client";
import {
  getCarrierShipment,
  getCarrierShipmentByOrder,
  insertCarrierShipment,
  updateCarrierShipment,
  type CarrierShipmentRow,
} from "../../db/queries/shipments";
import {
  buildCarrierEvent,
  CARRIER_SIGNATURE_HEADER,
  CARRIER_WEBHOOK_PATH,
  SANDBOX_TRACKING_PREFIX,
  type CarrierEventStatus,
  type CarrierLabelAddress,
  type CarrierWebhookEvent,
} from "../../domain/carrier-events";
import { signCarrierEvent } from "./signature";

export interface CarrierBookPickupInput {
  idempotencyKey: string;
  orderId: number;
  externalId: string;
  attempt: number;
  senderId: number;
  receiverId: number;
  /** The recipient's street address (printed on the label under its anonymous name). */
  to: CarrierLabelAddress;
  units: number;
  /** ISO: end of the pickup window. */
  pickupBy: string;
}

export interface CarrierBooking {
  shipmentId: string;
  callTag: string;
  trackingNumber: string;
  /** Where the parcel is followed (the carrier's own page; the sandbox's is the product's /tracking/:number). */
  trackingUrl: string;
}

/** The sandbox's tracking page: the product's own (app/routes/tracking.$tracking.tsx, its carrier events). */
export function sandboxTrackingUrl(trackingNumber: string): string {
  return `/tracking/${encodeURIComponent(trackingNumber)}`;
}

export class CarrierIdempotencyConflictError extends Error {
  constructor(key: string) {
    super(`carrier request ${key} was first made with other parameters`);
    this.name = "CarrierIdempotencyConflictError";
  }
}

export interface SandboxCarrierOptions {
  /** APP_ORIGIN: where tracking webhooks go (…/webhooks/carrier). */
  appOrigin: string;
  /** CARRIER_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** Injected for tests; defaults to global fetch. */
  fetch?: typeof fetch;
  /** Clock (ISO now); injectable for tests. */
  now?: () => Date;
}

type Pickup = CarrierShipmentRow["pickups"][number];

function trackingNumber(): string {
  let digits = "";
  for (let i = 0; i < 14; i++) digits += String(randomInt(10));
  return `${SANDBOX_TRACKING_PREFIX}${digits}`;
}

function callTag(externalId: string, attempt: number): string {
  return `CT-${externalId}-${attempt}-${randomBytes(2).toString("hex").toUpperCase()}`;
}

export class SandboxCarrier {
  readonly name = "sandbox" as const;
  private readonly now: () => Date;
  constructor(
    private readonly db: Db,
    private readonly opts: SandboxCarrierOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /** Books the pickup: the first booking creates the shipment (tracking number + label), later ones a new call tag. */
  async bookPickup(input: CarrierBookPickupInput): Promise<CarrierBooking> {
    const replay = await this.replayBooking(input);
    if (replay) return replay;

    const existing = await getCarrierShipmentByOrder(this.db, input.orderId, input.senderId);
    if (!existing) {
      const id = `shp_sandbox_${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`;
      const tracking = trackingNumber();
      const tag = callTag(input.externalId, input.attempt);
      const createdAt = this.now().toISOString();
      const labelData = {
        trackingNumber: tracking,
        callTag: tag,
        externalId: input.externalId,
        senderId: input.senderId,
        receiverId: input.receiverId,
        to: input.to,
        units: input.units,
        createdAt,
        pickupBy: input.pickupBy,
      };
      const pickup: Pickup = {
        callTag: tag,
        attempt: input.attempt,
        pickupBy: input.pickupBy,
        idempotencyKey: input.idempotencyKey,
        status: "scheduled",
      };
      const inserted = await insertCarrierShipment(this.db, {
        id,
        orderId: input.orderId,
        senderId: input.senderId,
        trackingNumber: tracking,
        callTag: tag,
        pickupAttempt: input.attempt,
        pickupBy: new Date(input.pickupBy),
        status: "pre_transit",
        pickups: [pickup],
        labelData,
      });
      if (inserted)
        return {
          shipmentId: id,
          callTag: tag,
          trackingNumber: tracking,
          trackingUrl: sandboxTrackingUrl(tracking),
        };
      // A concurrent duplicate booked first: answer as it did (or add this attempt below).
      const again = await this.replayBooking(input);
      if (again) return again;
    }

    // Another pickup for the order's shipment (rescheduled): a new call tag, the earlier one missed.
    return this.db.transaction(async (tx) => {
      const ship = (await getCarrierShipmentByOrder(tx, input.orderId, input.senderId, {
        forUpdate: true,
      })) as CarrierShipmentRow;
      const prior = ship.pickups.find((p) => p.idempotencyKey === input.idempotencyKey);
      if (prior) return this.checkedReplay(ship, prior, input);
      const tag = callTag(input.externalId, input.attempt);
      const pickups: Pickup[] = [
        ...ship.pickups.map((p) => (p.status === "scheduled" ? { ...p, status: "missed" } : p)),
        {
          callTag: tag,
          attempt: input.attempt,
          pickupBy: input.pickupBy,
          idempotencyKey: input.idempotencyKey,
          status: "scheduled",
        },
      ];
      await updateCarrierShipment(tx, ship.id, {
        callTag: tag,
        pickupAttempt: input.attempt,
        pickupBy: new Date(input.pickupBy),
        pickups,
        // A label printed now carries the new call tag and pickup date, as the carrier's would.
        ...(ship.labelData
          ? { labelData: { ...ship.labelData, callTag: tag, pickupBy: input.pickupBy } }
          : {}),
        ...(ship.status === "cancelled" ? { status: "pre_transit" } : {}),
      });
      return {
        shipmentId: ship.id,
        callTag: tag,
        trackingNumber: ship.trackingNumber,
        trackingUrl: sandboxTrackingUrl(ship.trackingNumber),
      };
    });
  }

  private async replayBooking(input: CarrierBookPickupInput): Promise<CarrierBooking | null> {
    const ship = await getCarrierShipmentByOrder(this.db, input.orderId, input.senderId);
    const prior = ship?.pickups.find((p) => p.idempotencyKey === input.idempotencyKey);
    return ship && prior ? this.checkedReplay(ship, prior, input) : null;
  }

  private checkedReplay(
    ship: CarrierShipmentRow,
    prior: Pickup,
    input: CarrierBookPickupInput,
  ): CarrierBooking {
    if (prior.attempt !== input.attempt || prior.pickupBy !== input.pickupBy)
      throw new CarrierIdempotencyConflictError(input.idempotencyKey);
    return {
      shipmentId: ship.id,
      callTag: prior.callTag,
      trackingNumber: ship.trackingNumber,
      trackingUrl: sandboxTrackingUrl(ship.trackingNumber),
    };
  }

  /** Cancels the shipment's scheduled pickup (idempotent; a shipment already scanned is left as it is). */
  async cancelPickup(input: {
    idempotencyKey: string;
    shipmentId: string;
  }): Promise<{ status: string }> {
    return this.db.transaction(async (tx) => {
      const ship = await getCarrierShipment(tx, input.shipmentId, { forUpdate: true });
      if (!ship) return { status: "not_found" };
      if (ship.status !== "pre_transit") return { status: ship.status };
      const pickups = ship.pickups.map((p) =>
        p.status === "scheduled" ? { ...p, status: "cancelled" } : p,
      );
      await updateCarrierShipment(tx, ship.id, { status: "cancelled", pickups });
      return { status: "cancelled" };
    });
  }

  async getShipment(idOrTracking: string): Promise<CarrierShipmentRow | null> {
    return getCarrierShipment(this.db, idOrTracking);
  }

  /**
   * A scan: records the tracking status and builds the tracker.updated event (with the scan history so far).
   * Does not send it; see sendTrackingEvent.
   */
  async scan(
    trackingNumber: string,
    status: CarrierEventStatus,
    opts: { eventId?: string; at?: Date } = {},
  ): Promise<CarrierWebhookEvent> {
    return this.db.transaction(async (tx) => {
      const ship = await getCarrierShipment(tx, trackingNumber, { forUpdate: true });
      if (!ship) throw new Error(`no sandbox shipment with tracking number ${trackingNumber}`);
      const at = (opts.at ?? this.now()).toISOString();
      const eventId = opts.eventId ?? `evt_sandbox_${randomBytes(12).toString("hex")}`;
      const history = ship.scans.map((e) => ({
        status: e.status as CarrierEventStatus,
        occurredAt: e.at,
      }));
      const pickups = ship.pickups.map((p) =>
        p.status === "scheduled" && status !== "pre_transit" ? { ...p, status: "made" } : p,
      );
      await updateCarrierShipment(tx, ship.id, {
        status,
        pickups,
        scans: [...ship.scans, { eventId, status, at }],
      });
      return buildCarrierEvent({
        eventId,
        trackingNumber: ship.trackingNumber,
        shipmentId: ship.id,
        status,
        occurredAt: at,
        history,
      });
    });
  }

  /**
   * Scans and POSTs the signed event to APP_ORIGIN/webhooks/carrier (header X-Hmac-Signature). Returns the
   * event and the endpoint's HTTP status. `deliver(event)` re-sends an event as is (a duplicate delivery).
   */
  async sendTrackingEvent(
    trackingNumber: string,
    status: CarrierEventStatus,
    opts: { eventId?: string; at?: Date } = {},
  ) {
    const event = await this.scan(trackingNumber, status, opts);
    const httpStatus = await this.deliver(event);
    return { event, httpStatus };
  }

  async deliver(event: CarrierWebhookEvent): Promise<number> {
    const body = JSON.stringify(event);
    const doFetch = this.opts.fetch ?? fetch;
    const res = await doFetch(new URL(CARRIER_WEBHOOK_PATH, this.opts.appOrigin), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [CARRIER_SIGNATURE_HEADER]: signCarrierEvent(body, this.opts.webhookSecret),
        "user-agent": "SandboxCarrier-Webhooks/1.0",
      },
      body,
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  }
}

export function createSandboxCarrier(db: Db, opts: SandboxCarrierOptions): SandboxCarrier {
  return new SandboxCarrier(db, opts);
}
