/**
 * The activities the RMA workflow (workflows/rma/workflow.ts) calls: the interface only, owned by the workflow
 * (activities/rma implements it with a type import). Amounts arrive computed (domain/rma-money.ts); every money and carrier call carries an
 * idempotency key (workflow id + step + attempt). Implementation: activities/rma/index.ts.
 */
import type { RmaActionRecord, RmaStage } from "./contract";

export type RmaNoticeTemplate =
  | "rma_requested_staff"
  | "rma_requested_perpetrator"
  | "rma_requested_victim"
  | "rma_staff_overdue"
  | "rma_approved_ship_return"
  | "rma_approved_missing"
  | "rma_declined"
  | "rma_cancelled"
  | "rma_completed"
  | "rma_charge_queued";

export interface RmaNotice {
  /** Who is told: the victim, the perpetrator (both anonymous to each other) or staff. */
  to: "victim" | "perpetrator" | "staff";
  template: RmaNoticeTemplate;
  /** `${workflowId}:mail:${template}:${to}` (each notice once). */
  dedupeKey: string;
  actBy?: string | null;
  /** The money the notice states when it is not the RMA's settlement so far: on filing, the RMA as asked. */
  amounts?: { victimRefundCents: number; perpetratorChargeCents: number };
}

export interface RmaStateRecord {
  rmaId: number;
  workflowId: string;
  /** The RMA's number and parties (the notices name them anonymously). */
  externalId?: string;
  victimId?: number;
  perpetratorId?: number;
  sequence: number;
  stage: RmaStage;
  /** Staff's decisions per line (approved units, comment), once made. */
  decisions: { lineId: number; approvedQuantity: number; comment: string | null }[] | null;
  rmaFeeCents: number;
  victimRefundCents: number;
  perpetratorChargeCents: number;
  /** The perpetrator's charge waits for a card (staff see it; a new card on file tries it again). */
  chargeQueued?: boolean;
  /** Staff did not answer within 5 business days (they were told again). */
  escalated?: boolean;
  deadlines: Record<string, string | null>;
  actions: RmaActionRecord[];
  notices: RmaNotice[];
}

export interface RmaActivities {
  /** The RMA's read model, its action rows and its notices' outbox rows, in one transaction (local). */
  recordRmaState(input: RmaStateRecord): Promise<void>;
  /**
   * Books the return pickup: the victim ships back to the perpetrator (label + packing slip); a later
   * booking (staff's "Schedule pickup", `attempt` 2 and on) is a new call tag for the same parcel.
   */
  bookReturnPickup(input: {
    idempotencyKey: string;
    rmaId: number;
    attempt: number;
    senderId: number;
    receiverId: number;
    units: number;
    pickupBy: string;
  }): Promise<{
    trackingNumber: string;
    callTag: string;
  }>;
  /** Sale: refund the victim on its original payment. */
  refundVictim(input: {
    idempotencyKey: string;
    rmaId: number;
    paymentIntentId: string;
    amountCents: number;
  }): Promise<{ status: "refunded" | "queued" }>;
  /** Swap: pay the victim to its payout account. */
  payVictim(input: {
    idempotencyKey: string;
    rmaId: number;
    retailerId: number;
    amountCents: number;
  }): Promise<{ status: "paid" | "queued" }>;
  /** Charge the perpetrator's card on file; "queued" when it has none or it is declined (for staff). */
  chargePerpetrator(input: {
    idempotencyKey: string;
    rmaId: number;
    retailerId: number;
    amountCents: number;
  }): Promise<{ status: "charged" | "queued" }>;
}
