/**
 * The RMA (return) workflow's contract: id, input, messages, view and errors. One workflow per RMA, started
 * when the victim sends the RMA wizard; staff decide each line with an update; the carrier's events of the
 * return parcel and the perpetrator's new card arrive as signals. No Temporal runtime imports: pages may
 * import it. Money: domain/rma-money.ts. Shape: ADR 0015 (machine + driver), decisions: ADR 0017.
 */
import { commandErrorIn, query, signal, update } from "../common/messages";
import type { StaffBookPickupCommand } from "../common/contract";
import type { RmaKind, RmaLineInput, RmaOrderInput, RmaSettlement } from "../../domain/rma-money";

export function rmaWorkflowId(rmaId: number): string {
  if (!Number.isSafeInteger(rmaId) || rmaId <= 0)
    throw new RangeError(`rma id must be a positive integer, got ${String(rmaId)}`);
  return `rma:${rmaId}`;
}

export const RMA_WORKFLOW_TYPE = "rmaWorkflow";

/** RMA stages (docs/product/glossary.md, "RMA stages"); `rmacancelled` is ours (the return never shipped). */
export const RMA_STAGES = Object.freeze({
  REQUESTED: "rmarequested",
  SHIPPING: "shipping",
  COMPLETED: "rmacompleted",
  DECLINED: "rmadeclined",
  CANCELLED: "rmacancelled",
} as const);
export type RmaStage = (typeof RMA_STAGES)[keyof typeof RMA_STAGES];

export interface RmaLine extends Omit<RmaLineInput, "approvedQuantity"> {
  lineId: number;
}

export interface RmaInput {
  rmaId: number;
  externalId: string;
  /** The original order (its id and kind). */
  orderId: number;
  kind: RmaKind;
  /** The retailer that received faulty goods (refunded) and the one that sent them (charged). */
  victimId: number;
  perpetratorId: number;
  order: RmaOrderInput;
  lines: RmaLine[];
  /** Sale: the victim's original payment (refunded on it). Swap: null (paid to the payout account). */
  victimPaymentIntentId: string | null;
  timeZone?: string;
  holidays?: string[];
}

export const RMA_STEPS = {
  returnPickup: "return-pickup",
  refund: "rma-refund",
  payout: "rma-payout",
  charge: "rma-charge",
} as const;
export type RmaStep = (typeof RMA_STEPS)[keyof typeof RMA_STEPS];

export interface RmaDecisionCommand {
  staffUserId: number;
  /** Every line of the RMA: approved units (0 = denied) and staff's comment. */
  lines: { lineId: number; approvedQuantity: number; comment?: string }[];
  rmaFeeCents: number;
}

/** The perpetrator put a (new) card on file: a queued charge is tried again. */
export interface CardOnFileSignal {
  retailerId: number;
}

export const RMA_ERRORS = Object.freeze({
  not_staff: "Only staff can decide an RMA.",
  wrong_state:
    "This RMA has moved on since you opened it. Refresh the page to see where it stands.",
  lines_pending: "Decide every line (approve or deny) before processing the RMA.",
  approved_too_many: "The approved quantity cannot exceed the quantity requested.",
  unknown_line: "Decide the lines of this RMA only.",
  bad_fee: "The RMA fee must be an amount of at least $0.00.",
} as const);
export type RmaErrorCode = keyof typeof RMA_ERRORS;

export const RMA_INVALID_INPUT = "RmaInvalidInput";

/** The code and message of a refused RMA command (the update's failure, or the RMA's workflow gone), or null. */
export function rmaCommandError(err: unknown): { code: RmaErrorCode; message: string } | null {
  return commandErrorIn(err, RMA_ERRORS);
}

export interface RmaDecisionResult {
  stage: RmaStage;
  settlement: RmaSettlement;
}

export interface RmaActionRecord {
  code: number;
  role: "victim" | "perpetrator" | "staff" | "system" | "carrier";
  at: string;
  stage: RmaStage;
}

export interface RmaView {
  rmaId: number;
  workflowId: string;
  stage: RmaStage;
  lines: (RmaLine & { approvedQuantity: number | null; comment: string | null })[];
  settlement: RmaSettlement;
  deadlines: { staffBy: string | null; shipBy: string | null; payBy: string | null };
  escalated: boolean;
  returnShipment: { trackingNumber: string; callTag: string } | null;
  returnScanned: boolean;
  refunded: boolean;
  charged: boolean;
  chargeQueued: boolean;
  actions: RmaActionRecord[];
  busy: boolean;
}

/** Staff: approve or deny every line, set the RMA fee, process. */
export const decideRmaUpdate = update<RmaDecisionResult, [RmaDecisionCommand]>("decideRma");
/**
 * Staff: book the return parcel's pickup again while it is not scanned (action 931;
 * docs/guides/action-codes-and-reasons.md): a new call tag, the return's 4 business days start over.
 */
export const staffBookReturnPickupUpdate = update<{ stage: RmaStage }, [StaffBookPickupCommand]>(
  "staffBookPickup",
);
/** The carrier's events of the return parcel (signed webhook, stored by event id, then signalled). */
export { carrierEventSignal as rmaCarrierEventSignal } from "../common/contract";
/** The perpetrator put a card on file (a queued charge is tried again). */
export const cardOnFileSignal = signal<[CardOnFileSignal]>("cardOnFile");
export const rmaViewQuery = query<RmaView>("rmaView");
