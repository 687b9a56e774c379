/**
 * An RMA as plain data, its validators, deadlines and view (pure; the steps are machine.ts, the driver
 * workflow.ts). Decisions: ADR 0017.
 */
import {
  addBusinessDays,
  DEFAULT_MARKETPLACE_TZ,
  US_FEDERAL_HOLIDAYS,
  WINDOWS,
} from "../../domain/business-days";
import { rmaSettlement, type RmaSettlement } from "../../domain/rma-money";
import type { CarrierEventSignal } from "../common/contract";
import { takeCarrierEvent, type Parcel } from "../common/parcel";
import { iso } from "../common/record";
import { InvalidInput, Rejection } from "../common/steps";
import type { OrderSearchFacts } from "../common/search-attributes";
import { rmaActionNeeded } from "../../domain/states";
import {
  RMA_ERRORS,
  RMA_STAGES,
  type CardOnFileSignal,
  type RmaActionRecord,
  type RmaDecisionCommand,
  type RmaErrorCode,
  type RmaInput,
  type RmaLine,
  type RmaStage,
  type RmaView,
} from "./contract";

export interface RmaModel {
  workflowId: string;
  input: RmaInput;
  timeZone: string;
  holidays: readonly string[];
  stage: RmaStage;
  /** Staff's decision per line id (approved units, comment); empty until staff process the RMA. */
  decisions: Map<number, { approvedQuantity: number; comment: string | null }>;
  rmaFeeCents: number;
  deadlines: { staffBy: number | null; shipBy: number | null };
  escalated: boolean;
  /** The return parcel, from the victim to the perpetrator (workflows/common/parcel.ts). */
  returnParcel: Parcel | null;
  refunded: boolean;
  charged: boolean;
  chargeQueued: boolean;
  /** The perpetrator put a new card on file since the charge was queued. */
  newCard: boolean;
  attempts: Partial<Record<string, number>>;
  actions: RmaActionRecord[];
  seenEvents: Set<string>;
  carrierQueue: CarrierEventSignal[];
  recordSeq: number;
}

const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

export function reject(code: RmaErrorCode): never {
  throw new Rejection(code, RMA_ERRORS[code]);
}

export function createRmaModel(input: RmaInput, workflowId: string, startedAt: number): RmaModel {
  if (!input || typeof input !== "object") throw new InvalidInput("missing input");
  if (
    !isId(input.rmaId) ||
    !isId(input.orderId) ||
    !isId(input.victimId) ||
    !isId(input.perpetratorId)
  ) {
    throw new InvalidInput("rmaId, orderId, victimId and perpetratorId must be positive integers");
  }
  if (input.victimId === input.perpetratorId)
    throw new InvalidInput("the victim and the perpetrator must differ");
  if (!Array.isArray(input.lines) || input.lines.length === 0)
    throw new InvalidInput("an RMA has at least one line");
  if (new Set(input.lines.map((l) => l.lineId)).size !== input.lines.length)
    throw new InvalidInput("line ids must be unique");
  if (input.kind === "sale" && !input.victimPaymentIntentId)
    throw new InvalidInput("a sale's RMA needs the victim's original payment");
  try {
    // The request itself must be possible (quantities within what was received, known reasons, amounts).
    rmaSettlement(
      input.order,
      input.lines.map((l) => ({ ...l, approvedQuantity: null })),
    );
  } catch (err) {
    throw new InvalidInput(err instanceof Error ? err.message : String(err));
  }
  const timeZone = input.timeZone ?? DEFAULT_MARKETPLACE_TZ;
  const holidays = input.holidays ?? US_FEDERAL_HOLIDAYS;
  return {
    workflowId,
    input,
    timeZone,
    holidays,
    stage: RMA_STAGES.REQUESTED,
    decisions: new Map(),
    rmaFeeCents: 0,
    deadlines: {
      staffBy: addBusinessDays(startedAt, WINDOWS.rmaStaffBusinessDays, timeZone, holidays),
      shipBy: null,
    },
    escalated: false,
    returnParcel: null,
    refunded: false,
    charged: false,
    chargeQueued: false,
    newCard: false,
    attempts: {},
    actions: [],
    seenEvents: new Set(),
    carrierQueue: [],
    recordSeq: 0,
  };
}

/** The lines with staff's decisions so far (pending: null). */
export function decidedLines(
  m: RmaModel,
): (RmaLine & { approvedQuantity: number | null; comment: string | null })[] {
  return m.input.lines.map((l) => {
    const d = m.decisions.get(l.lineId);
    return { ...l, approvedQuantity: d ? d.approvedQuantity : null, comment: d?.comment ?? null };
  });
}

/** The RMA as asked: every line approved with the units requested, no RMA fee (the filing notices state it). */
export function askedSettlement(m: RmaModel): RmaSettlement {
  return rmaSettlement(
    m.input.order,
    m.input.lines.map((l) => ({ ...l, approvedQuantity: l.requestedQuantity })),
  );
}

/** The RMA's money; a cancelled RMA (its return never shipped) pays and charges nothing (docs/product/money.md, "RMA refund and charge"). */
export function settlementOf(m: RmaModel): RmaSettlement {
  const s = rmaSettlement(m.input.order, decidedLines(m), m.rmaFeeCents);
  return m.stage === RMA_STAGES.CANCELLED
    ? {
        ...s,
        rmaShippingCents: 0,
        rmaFeeCents: 0,
        feeRefundCents: 0,
        originalShippingRefundCents: 0,
        victimRefundCents: 0,
        perpetratorChargeCents: 0,
        marketplaceKeepsCents: 0,
      }
    : s;
}

export const isTerminalStage = (s: RmaStage): boolean =>
  s === RMA_STAGES.COMPLETED || s === RMA_STAGES.DECLINED || s === RMA_STAGES.CANCELLED;

/** Ended: a final stage, with no charge still waiting for a card. */
export const isFinished = (m: RmaModel): boolean => isTerminalStage(m.stage) && !m.chargeQueued;

/**
 * What the RMA's search attributes say (workflows/common/search-attributes.ts), as its read-model row does:
 * the victim is the provider, the perpetrator the receiver, the stage is both state and stage.
 */
export function rmaSearchFacts(m: RmaModel): OrderSearchFacts {
  const i = m.input;
  return {
    orderNumber: i.externalId,
    kind: "rma",
    state: m.stage,
    stage: m.stage,
    providerId: i.victimId,
    receiverId: i.perpetratorId,
    actionNeeded: rmaActionNeeded(m.stage),
  };
}

/** The deadline the RMA waits for now: staff's answer (until escalated once), or the return's shipping. */
export function deadline(m: RmaModel): number | null {
  if (m.stage === RMA_STAGES.REQUESTED && !m.escalated) return m.deadlines.staffBy;
  if (m.stage === RMA_STAGES.SHIPPING && !m.returnParcel?.scanned) return m.deadlines.shipBy;
  return null;
}

/** Staff's decision: every line decided, approved ≤ requested, a fee ≥ 0 in cents. */
export function validateDecision(m: RmaModel, cmd: RmaDecisionCommand | undefined): void {
  if (!cmd || typeof cmd !== "object" || !isId(cmd.staffUserId)) reject("not_staff");
  if (m.stage !== RMA_STAGES.REQUESTED) reject("wrong_state");
  if (!Array.isArray(cmd.lines)) reject("lines_pending");
  if (
    typeof cmd.rmaFeeCents !== "number" ||
    !Number.isSafeInteger(cmd.rmaFeeCents) ||
    cmd.rmaFeeCents < 0
  )
    reject("bad_fee");
  const byId = new Map(m.input.lines.map((l) => [l.lineId, l]));
  const seen = new Set<number>();
  for (const d of cmd.lines) {
    const line = d && byId.get(d.lineId);
    if (!line || seen.has(d.lineId)) reject("unknown_line");
    seen.add(d.lineId);
    if (
      typeof d.approvedQuantity !== "number" ||
      !Number.isSafeInteger(d.approvedQuantity) ||
      d.approvedQuantity < 0
    )
      reject("lines_pending");
    if (d.approvedQuantity > line.requestedQuantity) reject("approved_too_many");
  }
  if (seen.size !== byId.size) reject("lines_pending");
}

/** Queues a carrier event of the return parcel (workflows/common/parcel.ts) while it ships. */
export function acceptCarrierEvent(m: RmaModel, ev: CarrierEventSignal | undefined): boolean {
  return takeCarrierEvent(m, ev, () => m.stage === RMA_STAGES.SHIPPING);
}

export function acceptCardOnFile(m: RmaModel, s: CardOnFileSignal | undefined): boolean {
  if (!s || s.retailerId !== m.input.perpetratorId || !m.chargeQueued) return false;
  m.newCard = true;
  return true;
}

export function rmaView(m: RmaModel, busy: boolean): RmaView {
  return {
    rmaId: m.input.rmaId,
    workflowId: m.workflowId,
    stage: m.stage,
    lines: decidedLines(m),
    settlement: settlementOf(m),
    deadlines: { staffBy: iso(m.deadlines.staffBy), shipBy: iso(m.deadlines.shipBy), payBy: null },
    escalated: m.escalated,
    returnShipment: m.returnParcel
      ? { trackingNumber: m.returnParcel.trackingNumber, callTag: m.returnParcel.callTag }
      : null,
    returnScanned: m.returnParcel?.scanned ?? false,
    refunded: m.refunded,
    charged: m.charged,
    chargeQueued: m.chargeQueued,
    actions: [...m.actions],
    busy,
  };
}
