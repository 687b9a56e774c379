/**
 * The RMA's steps (pure; effects yielded to the driver, as the buy order's machine does):
 *
 *   rmarequested --staff decide--> rmadeclined (every line denied, 242)
 *                               --> shipping (241, 930: return label for the victim; 4 business days to ship)
 *                                     --carrier scan (110)--> --delivered (119)--> refund + charge --> rmacompleted (391)
 *                                     --4 business days, not scanned--> rmacancelled (306), nothing paid
 *                               --> (only missing units) refund + charge at once --> rmacompleted (391)
 *   rmarequested --5 business days without staff--> escalation notice to staff (307), still waiting
 *   a charge the perpetrator's card cannot pay is queued (821); a new card on file tries it again.
 */
import type { RmaActivities, RmaNotice, RmaNoticeTemplate } from "../../activities/rma/types";
import { ACTION } from "../../domain/action-codes";
import { addBusinessDays, WINDOWS } from "../../domain/business-days";
import { caller, type Step, type StepContext } from "../common/steps";
import type { CarrierEventSignal } from "../buy/contract";
import { RMA_STAGES, RMA_STEPS, rmaIdempotencyKey, type RmaActionRecord, type RmaDecisionCommand, type RmaDecisionResult, type RmaStep } from "./contract";
import { isTerminalStage, settlementOf, validateDecision, type RmaModel } from "./model";

const call = caller<RmaActivities>();

type Codes = Array<[number, RmaActionRecord["role"]]>;
type Notice = [RmaNotice["to"], RmaNoticeTemplate, (number | null)?];

function nextAttempt(m: RmaModel, step: RmaStep): number {
  m.attempts[step] = (m.attempts[step] ?? 0) + 1;
  return m.attempts[step] as number;
}

function* record(m: RmaModel, ctx: StepContext, codes: Codes, notices: Notice[] = []): Step {
  const at = new Date(ctx.now()).toISOString();
  const actions = codes.map(([code, role]): RmaActionRecord => ({ code, role, at, stage: m.stage }));
  m.actions.push(...actions);
  m.recordSeq += 1;
  const s = settlementOf(m);
  yield* call(
    "recordRmaState",
    {
      rmaId: m.input.rmaId,
      workflowId: m.workflowId,
      externalId: m.input.externalId,
      victimId: m.input.victimId,
      perpetratorId: m.input.perpetratorId,
      sequence: m.recordSeq,
      stage: m.stage,
      decisions: m.decisions.size ? [...m.decisions].map(([lineId, d]) => ({ lineId, ...d })) : null,
      rmaFeeCents: m.rmaFeeCents,
      victimRefundCents: s.victimRefundCents,
      perpetratorChargeCents: s.perpetratorChargeCents,
      chargeQueued: m.chargeQueued,
      escalated: m.escalated,
      deadlines: {
        staffBy: m.deadlines.staffBy === null ? null : new Date(m.deadlines.staffBy).toISOString(),
        shipBy: m.deadlines.shipBy === null ? null : new Date(m.deadlines.shipBy).toISOString(),
      },
      actions,
      notices: notices.map(([to, template, actBy = null]) => ({
        to,
        template,
        dedupeKey: `${m.workflowId}:mail:${template}:${to}`,
        actBy: actBy === null ? null : new Date(actBy).toISOString(),
      })),
    },
    "local",
  );
}

/** Charges the perpetrator (a new attempt each time); a charge its card cannot pay is queued for staff. */
function* charge(m: RmaModel, ctx: StepContext): Step {
  const amount = settlementOf(m).perpetratorChargeCents;
  const r = yield* call(
    "chargePerpetrator",
    {
      idempotencyKey: rmaIdempotencyKey(m.workflowId, RMA_STEPS.charge, nextAttempt(m, RMA_STEPS.charge)),
      rmaId: m.input.rmaId,
      retailerId: m.input.perpetratorId,
      amountCents: amount,
    },
    "payEventually",
  );
  m.newCard = false;
  if (r.status === "charged") {
    m.charged = true;
    m.chargeQueued = false;
    yield* record(m, ctx, [[ACTION.RMA_PERPETRATOR_CHARGED, "system"]]);
  } else {
    m.chargeQueued = true;
    yield* record(m, ctx, [[ACTION.RMA_CHARGE_QUEUED, "system"]], [["perpetrator", "rma_charge_queued"], ["staff", "rma_charge_queued"]]);
  }
}

/** Refunds the victim (sale: on its original payment; swap: to its payout account), then charges. */
function* settle(m: RmaModel, ctx: StepContext): Step {
  const s = settlementOf(m);
  const { input } = m;
  if (input.kind === "sale") {
    yield* call(
      "refundVictim",
      {
        idempotencyKey: rmaIdempotencyKey(m.workflowId, RMA_STEPS.refund, nextAttempt(m, RMA_STEPS.refund)),
        rmaId: input.rmaId,
        paymentIntentId: input.victimPaymentIntentId as string,
        amountCents: s.victimRefundCents,
      },
      "payEventually",
    );
  } else {
    yield* call(
      "payVictim",
      {
        idempotencyKey: rmaIdempotencyKey(m.workflowId, RMA_STEPS.payout, nextAttempt(m, RMA_STEPS.payout)),
        rmaId: input.rmaId,
        retailerId: input.victimId,
        amountCents: s.victimRefundCents,
      },
      "payEventually",
    );
  }
  m.refunded = true;
  m.stage = RMA_STAGES.COMPLETED;
  yield* record(m, ctx, [[ACTION.RMA_VICTIM_REFUNDED, "system"], [ACTION.RMA_COMPLETED, "system"]], [
    ["victim", "rma_completed"],
    ["perpetrator", "rma_completed"],
  ]);
  yield* charge(m, ctx);
}

function* decide(m: RmaModel, cmd: RmaDecisionCommand, ctx: StepContext): Step<RmaDecisionResult> {
  for (const d of cmd.lines) m.decisions.set(d.lineId, { approvedQuantity: d.approvedQuantity, comment: typeof d.comment === "string" ? d.comment.slice(0, 1000) : null });
  m.rmaFeeCents = cmd.rmaFeeCents;
  m.deadlines.staffBy = null;
  const s = settlementOf(m);
  if (s.declined || s.approvedUnits === 0) {
    m.rmaFeeCents = 0;
    m.stage = RMA_STAGES.DECLINED;
    yield* record(m, ctx, [[ACTION.RMA_DECLINED, "staff"]], [["victim", "rma_declined"], ["perpetrator", "rma_declined"]]);
    return { stage: m.stage, settlement: settlementOf(m) };
  }
  if (s.returnUnits === 0) {
    // Only missing units: nothing ships back; paid now (well within 3 business days of approval).
    yield* record(m, ctx, [[ACTION.RMA_APPROVED, "staff"]], [["victim", "rma_approved_missing"], ["perpetrator", "rma_approved_missing"]]);
    yield* settle(m, ctx);
    return { stage: m.stage, settlement: settlementOf(m) };
  }
  const now = ctx.now();
  m.deadlines.shipBy = addBusinessDays(now, WINDOWS.rmaReturnShipBusinessDays, m.timeZone, m.holidays);
  m.returnShipment = yield* call(
    "bookReturnPickup",
    {
      idempotencyKey: rmaIdempotencyKey(m.workflowId, RMA_STEPS.returnPickup, nextAttempt(m, RMA_STEPS.returnPickup)),
      rmaId: m.input.rmaId,
      senderId: m.input.victimId,
      receiverId: m.input.perpetratorId,
      units: s.returnUnits,
      pickupBy: new Date(m.deadlines.shipBy).toISOString(),
    },
    "carrier",
  );
  m.stage = RMA_STAGES.SHIPPING;
  yield* record(m, ctx, [[ACTION.RMA_APPROVED, "staff"], [ACTION.CALL_TAG_SCHEDULED_RMA, "system"]], [
    ["victim", "rma_approved_ship_return", m.deadlines.shipBy],
    ["perpetrator", "rma_approved_ship_return"],
  ]);
  return { stage: m.stage, settlement: settlementOf(m) };
}

export const RMA_DECIDE = {
  validate: (m: RmaModel, cmd: RmaDecisionCommand) => validateDecision(m, cmd),
  run: decide,
};

export function* openRma(m: RmaModel, ctx: StepContext): Step {
  yield* record(m, ctx, [[ACTION.RMA_REQUESTED, "victim"]], [
    ["staff", "rma_requested_staff", m.deadlines.staffBy],
    ["perpetrator", "rma_requested_perpetrator"],
  ]);
}

function* onReturnEvent(m: RmaModel, ctx: StepContext, ev: CarrierEventSignal): Step {
  if (m.stage !== RMA_STAGES.SHIPPING) return;
  const scanned = ev.status === "picked_up" || ev.status === "in_transit" || ev.status === "out_for_delivery" || ev.status === "delivered";
  if (scanned && !m.returnScanned) {
    m.returnScanned = true;
    yield* record(m, ctx, [[ACTION.SHIPMENT_PICKED_UP, "carrier"]]);
  }
  if (ev.status === "delivered") {
    yield* record(m, ctx, [[ACTION.SHIPMENT_DELIVERED, "carrier"]]);
    yield* settle(m, ctx);
  }
}

/** A queued return event, or a queued charge to try again with the perpetrator's new card. */
export function nextRmaStep(m: RmaModel, ctx: StepContext): Step | null {
  const ev = m.carrierQueue.shift();
  if (ev) return onReturnEvent(m, ctx, ev);
  if (m.chargeQueued && m.newCard) return charge(m, ctx);
  return null;
}

/** The current deadline passed: staff are told again (once), or the unshipped return cancels the RMA. */
export function* onRmaDeadline(m: RmaModel, ctx: StepContext): Step {
  if (m.stage === RMA_STAGES.REQUESTED) {
    m.escalated = true;
    yield* record(m, ctx, [[ACTION.RMA_STAFF_ESCALATED, "system"]], [["staff", "rma_staff_overdue"]]);
    return;
  }
  if (m.stage === RMA_STAGES.SHIPPING && !m.returnScanned) {
    m.stage = RMA_STAGES.CANCELLED;
    m.deadlines.shipBy = null;
    yield* record(m, ctx, [[ACTION.RMA_RETURN_NOT_SHIPPED, "system"]], [["victim", "rma_cancelled"], ["perpetrator", "rma_cancelled"]]);
  }
}

/** Ended: a final stage, with no charge still waiting for a card. */
export const isRmaFinished = (m: RmaModel): boolean => isTerminalStage(m.stage) && !m.chargeQueued;
