/**
 * The activities the swap workflow (workflows/swap/workflow.ts) calls: the interface only, owned by the
 * workflow (activities/swap implements it with a type import). Amounts arrive computed (domain/swap-money.ts); every money, stock and carrier call carries an
 * idempotency key (workflow id + step + side + attempt). Implementation: activities/swap/index.ts (the buy
 * activities' payments, stock and carrier calls, with the swap's read model).
 */
import type { OrderLine } from "../../domain/order-money";
import type { Role, ShipmentStatus } from "../../domain/states";
import type { SaveRatingInput } from "../buy/activities";
import type { PaymentMethodInput } from "../common/contract";
import type { SwapActionRecord, SwapView } from "./contract";

export interface SwapStateRecord {
  orderId: number;
  workflowId: string;
  externalId: string;
  providerId: number;
  receiverId: number;
  sequence: number;
  statename: string;
  isModified: boolean;
  displayStatus: string;
  actionNeeded: Role | "both" | null;
  providerLines: OrderLine[];
  receiverLines: OrderLine[];
  callItEven: { provider: boolean; receiver: boolean };
  dues: { provider: number; receiver: number };
  reasons: Record<string, number>;
  deadlines: Record<string, string | null>;
  /**
   * Each side's parcel (the one it SENDS) as the workflow holds it, and the windows of the goods it
   * RECEIVES (rating, RMA): the read model of each parcel and each side's buttons follow these.
   */
  sides?: Record<
    Role,
    { parcel: ShipmentStatus | null; ratingBy: string | null; rmaBy: string | null }
  >;
  actions: SwapActionRecord[];
  /**
   * The terms as the workflow holds them after this step (its swapView query's answer, not busy), kept with the
   * order for the swap panel. Absent in writes replayed from histories recorded before it existed.
   */
  view?: SwapView;
  /** Who of the receiver's store approved it over the placer's limit (absent when nobody had to). */
  approvedByUserId?: number | null;
  /** Notices of this step (outbox rows in the same transaction): to which side, which template. */
  notices: { role: Role; template: string; dedupeKey: string }[];
}

/** A listing as a swap's modification reads it (swapListedUnits). */
export interface SwapListedUnits {
  listingId: number;
  retailerId: number;
  variationId: number;
  /** An active swap listing (of any brand: the workflow compares the owner, the app the brand). */
  swappable: boolean;
  sizes: Record<string, number>;
  unitPriceCents: number;
}

export interface SwapActivities {
  recordSwapState(input: SwapStateRecord): Promise<void>;
  /** The receiver's checkout: pre-authorise its estimated due. */
  authorizeSwap(input: {
    idempotencyKey: string;
    orderId: number;
    retailerId: number;
    paymentMethod: PaymentMethodInput;
    amountCents: number;
  }): Promise<
    { status: "authorized"; paymentIntentId: string } | { status: "declined"; message: string }
  >;
  releaseSwapAuthorization(input: {
    idempotencyKey: string;
    orderId: number;
    paymentIntentId: string;
  }): Promise<void>;
  /** "Make Payment": charge a side's due now. */
  chargeSwapSide(input: {
    idempotencyKey: string;
    orderId: number;
    retailerId: number;
    paymentMethod: PaymentMethodInput;
    amountCents: number;
  }): Promise<
    { status: "charged"; paymentIntentId: string } | { status: "declined"; message: string }
  >;
  refundSwapSide(input: {
    idempotencyKey: string;
    orderId: number;
    paymentIntentId: string;
    amountCents: number;
  }): Promise<void>;
  /** A side that did not ship pays the value of its goods from its card on file ("queued" without one). */
  chargeSwapPenalty(input: {
    idempotencyKey: string;
    orderId: number;
    retailerId: number;
    amountCents: number;
  }): Promise<{ status: "charged" | "queued" }>;
  payOutSwapSide(input: {
    idempotencyKey: string;
    orderId: number;
    retailerId: number;
    amountCents: number;
  }): Promise<{ status: "paid" | "queued" }>;
  /**
   * The listings a modification raises or adds (ADR 0025), as they stand now: whose they are, whether they are
   * still active swap listings, their units per size and their unit price. A listing gone is left out.
   */
  swapListedUnits(input: { orderId: number; listingIds: number[] }): Promise<SwapListedUnits[]>;
  /** Both sides' listings at once, all or nothing. */
  decrementSwapStock(input: {
    idempotencyKey: string;
    orderId: number;
    lines: OrderLine[];
  }): Promise<{ ok: boolean }>;
  bookSwapPickup(input: {
    idempotencyKey: string;
    orderId: number;
    side: Role;
    attempt: number;
    senderId: number;
    receiverId: number;
    units: number;
    pickupBy: string;
  }): Promise<{
    trackingNumber: string;
    callTag: string;
  }>;
  saveSwapRating(input: SaveRatingInput): Promise<void>;
}
