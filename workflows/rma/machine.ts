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
import type { RmaActivities, RmaNotice, RmaNoticeTemplate } from "./activities";
import { ACTION } from "../../domain/action-codes";
import { WINDOWS } from "../../domain/business-days";
import type { CarrierEventSignal, StaffBookPickupCommand } from "../common/contract";
import {
  bookParcel,
  newParcel,
  pickupWindowEnd,
  staffPickup,
  takeDelivery,
  takeScan,
} from "../common/parcel";
import { payments } from "../common/payments";
import {
  iso,
  isoDeadlines,
  noticeDedupeKey,
  stepRecord,
  type Codes as StepCodes,
} from "../common/record";
import { caller, type Command, type Machine, type Step, type StepContext } from "../common/steps";
import {
  RMA_STAGES,
  RMA_STEPS,
  decideRmaUpdate,
  staffBookReturnPickupUpdate,
  type RmaActionRecord,
  type RmaDecisionCommand,
  type RmaDecisionResult,
  type RmaInput,
  type RmaStage,
} from "./contract";
import {
  acceptCarrierEvent,
  askedSettlement,
  createRmaModel,
  deadline,
  isFinished,
  reject,
  rmaSearchFacts,
  settlementOf,
  validateDecision,
  type RmaModel,
} from "./model";

const call = caller<RmaActivities>();
const pay = payments<RmaActivities>();

type Codes = StepCodes<RmaActionRecord["role"]>;
type Notice = [RmaNotice["to"], RmaNoticeTemplate, (number | null)?, RmaNotice["amounts"]?];

function* record(m: RmaModel, ctx: StepContext, codes: Codes, notices: Notice[] = []): Step {
  const at = new Date(ctx.now()).toISOString();
  const { actions, sequence } = stepRecord(
    m,
    codes,
    at,
    (code, role, when): RmaActionRecord => ({ code, role, at: when, stage: m.stage }),
  );
  const s = settlementOf(m);
  yield* call(
    "recordRmaState",
    {
      rmaId: m.input.rmaId,
      workflowId: m.workflowId,
      externalId: m.input.externalId,
      victimId: m.input.victimId,
      perpetratorId: m.input.perpetratorId,
      sequence,
      stage: m.stage,
      decisions: m.decisions.size
        ? [...m.decisions].map(([lineId, d]) => ({ lineId, ...d }))
        : null,
      rmaFeeCents: m.rmaFeeCents,
      victimRefundCents: s.victimRefundCents,
      perpetratorChargeCents: s.perpetratorChargeCents,
      chargeQueued: m.chargeQueued,
      escalated: m.escalated,
      deadlines: isoDeadlines(m.deadlines),
      actions,
      notices: notices.map(([to, template, actBy = null, amounts]) => ({
        to,
        template,
        dedupeKey: noticeDedupeKey(m.workflowId, template, to),
        actBy: iso(actBy),
        ...(amounts ? { amounts } : {}),
      })),
    },
    "local",
  );
}

/** Charges the perpetrator (a new attempt each time); a charge its card cannot pay is queued for staff. */
function* charge(m: RmaModel, ctx: StepContext): Step {
  const amount = settlementOf(m).perpetratorChargeCents;
  const r = yield* pay(m, "charge", "chargePerpetrator", RMA_STEPS.charge, {
    rmaId: m.input.rmaId,
    retailerId: m.input.perpetratorId,
    amountCents: amount,
  });
  m.newCard = false;
  if (r.status === "charged") {
    m.charged = true;
    m.chargeQueued = false;
    yield* record(m, ctx, [[ACTION.RMA_PERPETRATOR_CHARGED, "system"]]);
  } else {
    m.chargeQueued = true;
    yield* record(
      m,
      ctx,
      [[ACTION.RMA_CHARGE_QUEUED, "system"]],
      [
        ["perpetrator", "rma_charge_queued"],
        ["staff", "rma_charge_queued"],
      ],
    );
  }
}

/** Refunds the victim (sale: on its original payment; swap: to its payout account), then charges. */
function* settle(m: RmaModel, ctx: StepContext): Step {
  const s = settlementOf(m);
  const { input } = m;
  if (input.kind === "sale") {
    const refund = {
      rmaId: input.rmaId,
      paymentIntentId: input.victimPaymentIntentId as string,
      amountCents: s.victimRefundCents,
    };
    yield* pay(m, "refund", "refundVictim", RMA_STEPS.refund, refund);
  } else {
    yield* pay(m, "payout", "payVictim", RMA_STEPS.payout, {
      rmaId: input.rmaId,
      retailerId: input.victimId,
      amountCents: s.victimRefundCents,
    });
  }
  m.refunded = true;
  m.stage = RMA_STAGES.COMPLETED;
  yield* record(
    m,
    ctx,
    [
      [ACTION.RMA_VICTIM_REFUNDED, "system"],
      [ACTION.RMA_COMPLETED, "system"],
    ],
    [
      ["victim", "rma_completed"],
      ["perpetrator", "rma_completed"],
    ],
  );
  yield* charge(m, ctx);
}

/** Books the return parcel's pickup (workflows/common/parcel.ts), its 4 business days to ship starting now. */
function* bookReturn(m: RmaModel, ctx: StepContext): Step {
  const shipBy = pickupWindowEnd(ctx.now(), m, WINDOWS.rmaReturnShipBusinessDays);
  m.deadlines.shipBy = shipBy;
  const { booking, attempt } = yield* bookParcel(
    m,
    RMA_STEPS.returnPickup,
    "bookReturnPickup",
    (n) => ({
      rmaId: m.input.rmaId,
      attempt: n,
      senderId: m.input.victimId,
      receiverId: m.input.perpetratorId,
      units: settlementOf(m).returnUnits,
      pickupBy: new Date(shipBy).toISOString(),
    }),
  );
  m.returnParcel = newParcel(booking, attempt);
}

function* decide(m: RmaModel, cmd: RmaDecisionCommand, ctx: StepContext): Step<RmaDecisionResult> {
  for (const d of cmd.lines)
    m.decisions.set(d.lineId, {
      approvedQuantity: d.approvedQuantity,
      comment: typeof d.comment === "string" ? d.comment.slice(0, 1000) : null,
    });
  m.rmaFeeCents = cmd.rmaFeeCents;
  m.deadlines.staffBy = null;
  const s = settlementOf(m);
  if (s.declined || s.approvedUnits === 0) {
    m.rmaFeeCents = 0;
    m.stage = RMA_STAGES.DECLINED;
    yield* record(
      m,
      ctx,
      [[ACTION.RMA_DECLINED, "staff"]],
      [
        ["victim", "rma_declined"],
        ["perpetrator", "rma_declined"],
      ],
    );
    return { stage: m.stage, settlement: settlementOf(m) };
  }
  if (s.returnUnits === 0) {
    // Only missing units: nothing ships back; paid now (well within 3 business days of approval).
    yield* record(
      m,
      ctx,
      [[ACTION.RMA_APPROVED, "staff"]],
      [
        ["victim", "rma_approved_missing"],
        ["perpetrator", "rma_approved_missing"],
      ],
    );
    yield* settle(m, ctx);
    return { stage: m.stage, settlement: settlementOf(m) };
  }
  yield* bookReturn(m, ctx);
  m.stage = RMA_STAGES.SHIPPING;
  yield* record(
    m,
    ctx,
    [
      [ACTION.RMA_APPROVED, "staff"],
      [ACTION.CALL_TAG_SCHEDULED_RMA, "system"],
    ],
    [
      ["victim", "rma_approved_ship_return", m.deadlines.shipBy],
      ["perpetrator", "rma_approved_ship_return"],
    ],
  );
  return { stage: m.stage, settlement: settlementOf(m) };
}

/** Staff's decision, the RMA's one command. */
export const RMA_DECIDE = {
  update: decideRmaUpdate,
  validate: (m: RmaModel, cmd: RmaDecisionCommand) => validateDecision(m, cmd),
  run: decide,
} satisfies Command<RmaModel, RmaDecisionCommand, RmaDecisionResult>;

/**
 * Staff's "Schedule pickup" on the return parcel (workflows/common/parcel.ts staffPickup): a new call tag, the
 * return's 4 business days starting over (931); a repeat naming a call tag already replaced books nothing.
 */
export const RMA_STAFF_BOOK_PICKUP = {
  update: staffBookReturnPickupUpdate,
  validate(m: RmaModel, cmd: StaffBookPickupCommand, now: number) {
    if (m.stage !== RMA_STAGES.SHIPPING) reject("wrong_state");
    const d = deadline(m);
    if (d !== null && now >= d) reject("wrong_state");
    if (staffPickup(m.returnParcel, m.carrierQueue, cmd?.replacesCallTag) === "refused")
      reject("wrong_state");
  },
  *run(m: RmaModel, cmd: StaffBookPickupCommand, ctx: StepContext) {
    if (staffPickup(m.returnParcel, m.carrierQueue, cmd?.replacesCallTag) === "book") {
      yield* bookReturn(m, ctx);
      yield* record(m, ctx, [[ACTION.CALL_TAG_BOOKED_BY_STAFF_RMA, "staff"]]);
    }
    return { stage: m.stage };
  },
} satisfies Command<RmaModel, StaffBookPickupCommand, { stage: RmaStage }>;

/** Every command of the RMA, by update name. */
export const RMA_COMMANDS = { decideRma: RMA_DECIDE, staffBookPickup: RMA_STAFF_BOOK_PICKUP };

/** Filing: staff are asked to decide; both parties are told what the RMA comes to as asked (docs/product/screens.md, "Alerts"). */
export function* openRma(m: RmaModel, ctx: StepContext): Step {
  const s = askedSettlement(m);
  const asked = {
    victimRefundCents: s.victimRefundCents,
    perpetratorChargeCents: s.perpetratorChargeCents,
  };
  yield* record(
    m,
    ctx,
    [[ACTION.RMA_REQUESTED, "victim"]],
    [
      ["staff", "rma_requested_staff", m.deadlines.staffBy],
      ["perpetrator", "rma_requested_perpetrator", null, asked],
      ["victim", "rma_requested_victim", null, asked],
    ],
  );
}

function* onReturnEvent(m: RmaModel, ctx: StepContext, ev: CarrierEventSignal): Step {
  const p = m.returnParcel;
  if (m.stage !== RMA_STAGES.SHIPPING || !p) return;
  if (takeScan(p, ev.status)) yield* record(m, ctx, [[ACTION.SHIPMENT_PICKED_UP, "carrier"]]);
  if (takeDelivery(p, ev.status)) {
    yield* record(m, ctx, [[ACTION.SHIPMENT_DELIVERED, "carrier"]]);
    yield* settle(m, ctx);
  }
}

/** A queued return event, or a queued charge to try again with the perpetrator's new card. */
export function nextQueuedStep(m: RmaModel, ctx: StepContext): Step | null {
  const ev = m.carrierQueue.shift();
  if (ev) return onReturnEvent(m, ctx, ev);
  if (m.chargeQueued && m.newCard) return charge(m, ctx);
  return null;
}

/** The current deadline passed: staff are told again (once), or the unshipped return cancels the RMA. */
export function* onDeadline(m: RmaModel, ctx: StepContext): Step {
  if (m.stage === RMA_STAGES.REQUESTED) {
    m.escalated = true;
    yield* record(
      m,
      ctx,
      [[ACTION.RMA_STAFF_ESCALATED, "system"]],
      [["staff", "rma_staff_overdue"]],
    );
    return;
  }
  if (m.stage === RMA_STAGES.SHIPPING && !m.returnParcel?.scanned) {
    m.stage = RMA_STAGES.CANCELLED;
    m.deadlines.shipBy = null;
    yield* record(
      m,
      ctx,
      [[ACTION.RMA_RETURN_NOT_SHIPPED, "system"]],
      [
        ["victim", "rma_cancelled"],
        ["perpetrator", "rma_cancelled"],
      ],
    );
  }
}

/** The RMA's machine (workflows/common/steps.ts Machine), as the driver runs it. */
export const rmaMachine: Machine<RmaModel, RmaInput> = {
  newModel: createRmaModel,
  searchFacts: rmaSearchFacts,
  acceptCarrierEvent,
  open: openRma,
  isFinished,
  deadline,
  onDeadline,
  nextQueuedStep,
};
