/**
 * The payment steps every order process takes, written once: authorise, capture, save a card, release an
 * authorisation, refund, charge, pay out. Each is one call to the kind's payment activity with the idempotency
 * key of the step's next attempt and the policy its kind of payment needs: a retailer waits for authorising,
 * capturing (a swap side's payment too) and saving a card (`payNow`: a few tries, then the command fails);
 * releases, refunds, charges and payouts must happen (`payEventually`: retried until the provider accepts).
 * Money rules are domain/'s (docs/product/money.md). Pure: the step yields its call.
 */
import { idempotencyKey } from "./contract";
import { nextAttempt, type Attempted } from "./record";
import type { ActivityMap, CallPolicy, Step } from "./steps";

export type PaymentKind =
  | "authorise"
  | "capture"
  | "saveCard"
  | "release"
  | "refund"
  | "charge"
  | "payout";

export const PAYMENT_POLICY: Readonly<Record<PaymentKind, CallPolicy>> = Object.freeze({
  authorise: "payNow",
  capture: "payNow",
  saveCard: "payNow",
  release: "payEventually",
  refund: "payEventually",
  charge: "payEventually",
  payout: "payEventually",
});

/**
 * `const pay = payments<SwapActivities>(); yield* pay(m, "refund", "refundSwapSide", "swap-refund:provider", {...})`:
 * one payment step of the activities interface `A`, typed by the activity's input (less its key) and result.
 * `attempt`: the same attempt again (a retry of the same card keeps its key); default the step's next.
 */
export function payments<A extends ActivityMap<A>>() {
  return function* pay<K extends keyof A & string>(
    m: Attempted,
    kind: PaymentKind,
    activity: K,
    step: string,
    input: Omit<Parameters<A[K]>[0], "idempotencyKey">,
    attempt: number = nextAttempt(m, step),
  ): Step<Awaited<ReturnType<A[K]>>> {
    const call = {
      idempotencyKey: idempotencyKey(m.workflowId, step, attempt),
      ...(input as object),
    };
    return (yield {
      kind: "call",
      name: activity,
      input: call,
      policy: PAYMENT_POLICY[kind],
    }) as Awaited<ReturnType<A[K]>>;
  };
}
