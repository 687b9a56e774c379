/**
 * An offer below the listed price (docs/product/offers.md; ADR 0056): one run per offer (id offer:<id>). The
 * rules are domain/offers.ts applyOfferCommand; here the sides' answers (updates, each validated by the rule
 * before it enters history), the timer of each turn (2 business days), and the effects the rule names: hold
 * the card again at a new price then release the old hold, release it when the offer closes, create the
 * purchase when it is accepted, tell the sides (their e-mails written to the outbox with the step's state).
 *
 * Deterministic: imports only @temporalio/workflow, the kit's policies, domain/ and its activities' interface.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  ParentClosePolicy,
  proxyLocalActivities,
  setHandler,
  startChild,
  workflowInfo,
} from "@temporalio/workflow";
import { WorkflowExecutionAlreadyStartedError } from "@temporalio/common";
import { msUntil, toISO } from "../../domain/business-days";
import {
  applyOfferCommand,
  holdStillGood,
  offerHoldCents,
  type OfferCommand,
  type OfferEffect,
  type OfferState,
  type OfferStep,
} from "../../domain/offers";
import { idempotencyKey } from "../common/contract";
import { CALL_OPTIONS, payNowRefusing } from "../common/policies";
import { BUY_WORKFLOW_TYPE, type BuyOrderInput } from "../buy/contract";
import type { OfferActivities, OfferHold, OfferNotice } from "./activities";
import {
  acceptOfferUpdate,
  counterOfferUpdate,
  declineOfferUpdate,
  OFFER_CARD_DECLINED,
  OFFER_REFUSED,
  OFFER_STEPS,
  offerSideOf,
  offerStateQuery,
  offerUnitsTakenSignal,
  withdrawOfferUpdate,
  type OfferAnswer,
  type OfferWorkflowInput,
  type OfferWorkflowResult,
} from "./contract";

// Local activities, run inside the step's workflow task as an order's (workflows/common/policies.ts): an answer
// is one trip. The database work is retried until done; the hold is a payment the answer waits for (a declined
// card at once); a release must happen.
const db = proxyLocalActivities<OfferActivities>(CALL_OPTIONS.local);
const card = proxyLocalActivities<OfferActivities>(payNowRefusing(OFFER_CARD_DECLINED));
const release = proxyLocalActivities<OfferActivities>(CALL_OPTIONS.payEventually);

const nowISO = () => toISO(Date.now());
type OkStep = Extract<OfferStep, { ok: true }>;

/** The run's state and the calls it makes (one instance per run). */
class OfferRun {
  state: OfferState;
  hold: OfferHold | null = null;
  orderId: number | null = null;
  busy = false;
  /** The purchase found the offer's units taken by another order. */
  unitsGone = false;
  private holdAttempts = 0;
  /** The attempt of the hold now on the card (its release carries the same attempt). */
  private heldAttempt = 0;
  private readonly wfId = workflowInfo().workflowId;

  constructor(readonly input: OfferWorkflowInput) {
    this.state = input.state;
  }

  get cal() {
    return { timeZone: this.input.timeZone, holidays: this.input.holidays };
  }

  /** The rule's answer to `cmd` now, or a refusal the update fails with. */
  check(cmd: OfferCommand) {
    if (this.busy)
      throw ApplicationFailure.nonRetryable("The offer is busy, try again.", OFFER_REFUSED);
    const step = applyOfferCommand(this.state, cmd, this.cal);
    if (!step.ok) throw ApplicationFailure.nonRetryable(step.message, OFFER_REFUSED);
    return step;
  }

  /** Applies `cmd` and runs its effects in order, then writes the read model. */
  async apply(cmd: OfferCommand): Promise<OfferState> {
    let step = this.check(cmd);
    this.busy = true;
    try {
      for (const effect of step.effects) if (!(await this.run(effect))) break;
      // Accepted on units another order took meanwhile: declined instead (docs/product/offers.md).
      if (this.unitsGone) step = await this.declineTaken(step);
      this.state = step.state;
      await db.saveOffer({
        offerId: this.input.offerId,
        state: this.state,
        holdCents: this.hold?.amountCents,
        orderId: this.orderId,
        notices: step.effects.flatMap((e) =>
          e.kind === "notify" ? [this.notice(e.to, e.what)] : [],
        ),
      });
      return this.state;
    } finally {
      this.busy = false;
    }
  }

  /** The e-mail to one side after this step (deduplicated by the step's number). */
  notice(to: OfferNotice["to"], what: OfferNotice["what"]): OfferNotice {
    return {
      to,
      what,
      dedupeKey: `${this.wfId}:${OFFER_STEPS.notify}:${this.state.moves.length}:${to}`,
    };
  }

  /** The offer declined because its units are gone (its hold released), instead of `accepted`. */
  private async declineTaken(accepted: OkStep): Promise<OkStep> {
    const taken = applyOfferCommand(this.state, { kind: "taken", at: nowISO() }, this.cal);
    if (!taken.ok) return accepted;
    for (const effect of taken.effects) await this.run(effect);
    return taken;
  }

  /** Runs one effect; false when the purchase found its units gone (the rest is not run). */
  private async run(effect: OfferEffect): Promise<boolean> {
    if (effect.kind === "hold") await this.takeHold(effect.amountCents);
    else if (effect.kind === "release") await this.release();
    else if (effect.kind === "purchase") await this.purchase(effect.unitPriceCents);
    return !this.unitsGone;
  }

  /** A new hold (a new attempt), then the older one released. */
  async takeHold(amountCents: number): Promise<void> {
    this.holdAttempts += 1;
    const { reference } = await card.holdOfferCard({
      offerId: this.input.offerId,
      buyerId: this.input.buyerId,
      amountCents,
      idempotencyKey: idempotencyKey(this.wfId, OFFER_STEPS.hold, this.holdAttempts),
    });
    await this.release();
    this.hold = { reference, amountCents, heldAt: nowISO() };
    this.heldAttempt = this.holdAttempts;
  }

  /** The first hold; a declined card closes the offer before the seller hears of it. */
  async openingHold(): Promise<boolean> {
    try {
      await this.takeHold(this.input.holdCents);
      return true;
    } catch (err) {
      // A local activity's failure reaches the workflow as the activity's own ApplicationFailure.
      const cause = err instanceof ActivityFailure ? err.cause : err;
      if (!(cause instanceof ApplicationFailure) || cause.type !== OFFER_CARD_DECLINED) throw err;
      this.state = { ...this.state, status: "declined", endReason: "card_declined" };
      await db.saveOffer({ offerId: this.input.offerId, state: this.state, holdCents: 0 });
      return false;
    }
  }

  async release(): Promise<void> {
    if (!this.hold) return;
    await release.releaseOfferHold({
      reference: this.hold.reference,
      idempotencyKey: idempotencyKey(this.wfId, OFFER_STEPS.release, this.heldAttempt),
    });
    this.hold = null;
  }

  /** The purchase at the agreed price, on a hold still good for it (held again when it is not). */
  private async purchase(unitPriceCents: number): Promise<void> {
    if (!this.hold || !holdStillGood(this.hold.heldAt, Date.now()))
      await this.takeHold(offerHoldCents(this.state.sizes, unitPriceCents));
    const hold = this.hold!;
    const order = await db.createOfferPurchase({
      offerId: this.input.offerId,
      unitPriceCents,
      hold: {
        reference: hold.reference,
        amountCents: hold.amountCents,
        idempotencyKey: idempotencyKey(this.wfId, OFFER_STEPS.hold, this.heldAttempt),
      },
    });
    if (!order) {
      this.unitsGone = true;
      return;
    }
    const buy: BuyOrderInput = {
      orderId: order.orderId,
      externalId: order.externalId,
      kind: "from_offer",
      providerId: order.providerId,
      receiverId: order.receiverId,
      lines: [order.line],
      offerHold: {
        offerId: this.input.offerId,
        paymentIntentId: hold.reference,
        amountCents: hold.amountCents,
        heldAt: hold.heldAt,
      },
      timeZone: this.input.timeZone,
      holidays: this.input.holidays,
    };
    try {
      await startChild(BUY_WORKFLOW_TYPE, {
        workflowId: order.workflowId,
        args: [buy],
        taskQueue: this.input.purchaseTaskQueue,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: "REJECT_DUPLICATE",
      });
    } catch (err) {
      // Started already (the same order, after a retried task): it runs on its own.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    const orderId = order.orderId;
    this.orderId = orderId;
  }
}

export async function offerWorkflow(input: OfferWorkflowInput): Promise<OfferWorkflowResult> {
  const run = new OfferRun(input);
  const sideOf = (a: OfferAnswer) => offerSideOf(input, a.actorRetailerId);
  const answer = (a: OfferAnswer, make: (by: "buyer" | "seller") => OfferCommand) => {
    const by = sideOf(a);
    if (!by) throw ApplicationFailure.nonRetryable("This offer is not yours.", OFFER_REFUSED);
    return make(by);
  };
  const accept = (a: OfferAnswer) => answer(a, (by) => ({ kind: "accept", by, at: nowISO() }));
  const decline = (a: OfferAnswer) => answer(a, (by) => ({ kind: "decline", by, at: nowISO() }));
  const counter = (a: OfferAnswer & { unitPriceCents: number }) =>
    answer(a, (by) => ({ kind: "counter", by, unitPriceCents: a.unitPriceCents, at: nowISO() }));
  const withdraw = (a: OfferAnswer) =>
    answer(a, (by) => {
      if (by !== "buyer")
        throw ApplicationFailure.nonRetryable("Only the buyer may withdraw.", OFFER_REFUSED);
      return { kind: "withdraw", by, at: nowISO() };
    });
  for (const [def, make] of [
    [acceptOfferUpdate, accept],
    [declineOfferUpdate, decline],
    [withdrawOfferUpdate, withdraw],
  ] as const)
    setHandler(def, (a) => run.apply(make(a)), { validator: (a) => void run.check(make(a)) });
  setHandler(counterOfferUpdate, (a) => run.apply(counter(a)), {
    validator: (a) => void run.check(counter(a)),
  });
  let taken = false;
  setHandler(offerUnitsTakenSignal, () => void (taken = true));
  setHandler(offerStateQuery, () => ({ ...run.state, busy: run.busy }));

  if (!(await run.openingHold())) return { state: run.state, orderId: null };
  await db.saveOffer({
    offerId: input.offerId,
    state: run.state,
    holdCents: input.holdCents,
    notices: [run.notice("seller", "offer")],
  });
  while (run.state.status === "open") {
    const moves = run.state.moves.length;
    const answered = await condition(
      () => run.state.moves.length !== moves || taken || run.state.status !== "open",
      Math.max(1, msUntil(run.state.deadline, Date.now())),
    );
    await condition(() => !run.busy);
    if (run.state.status !== "open") break;
    if (taken) await run.apply({ kind: "taken", at: nowISO() });
    else if (!answered && run.state.moves.length === moves)
      await run.apply({ kind: "expire", at: nowISO() });
  }
  // The answer that closed the offer returns to its caller before the run completes.
  await condition(allHandlersFinished);
  return { state: run.state, orderId: run.orderId };
}
