/**
 * Steps as data: the shape every order process (buy, swap, RMA) is written in.
 *
 * A process's rules live in a plain-TypeScript state machine (`workflows/<kind>/machine.ts`) with no
 * Temporal inside: validators are functions of (model, command, now); each step (a command, a timer firing,
 * a webhook) is a generator that changes the model and YIELDS the effects it needs (an activity call, a
 * signal to another order) as plain objects, receiving each effect's result back. The workflow driver
 * (`workflows/common/driver.ts`) runs the effects with Temporal; a table test runs them with a script of
 * results. Both see the same sequence of effects, so the tests of the machine are the tests of the rules.
 *
 * Pure (type imports only), deterministic, usable from the workflow sandbox, Node and tests alike.
 */
import type { UpdateDefinition } from "@temporalio/common";
import type { CarrierEventSignal } from "./contract";
import type { OrderSearchFacts } from "./search-attributes";

/**
 * How an activity call is run. `local`: the step's database work, a local activity recorded with the
 * workflow task (one transaction each, idempotent). `payNow`: a payment a retailer waits for (a few tries,
 * then the command fails). `payEventually`: a payment that must happen (retried until the provider
 * accepts). `carrier`: the carrier's API (retried until it answers).
 */
export type CallPolicy = "local" | "payNow" | "payEventually" | "carrier";

/** An activity call: the driver runs `name(input)` with the policy's options and sends back its result. */
export interface CallEffect {
  kind: "call";
  name: string;
  input: unknown;
  policy: CallPolicy;
}

/** A signal to another workflow (best effort: a failure is thrown back into the step, which may ignore it). */
export interface SignalEffect {
  kind: "signal";
  workflowId: string;
  signal: string;
  arg: unknown;
}

export type Effect = CallEffect | SignalEffect;

/** A step: yields effects, receives their results, returns its outcome. Errors of effects are thrown into it. */
export type Step<R = void> = Generator<Effect, R, unknown>;

/** An object of async one-argument functions (an activities interface). */
export type ActivityMap<A> = { [K in keyof A]: (input: never) => Promise<unknown> };

/**
 * `const call = caller<BuyActivities>(); const r = yield* call("capturePayment", input, "payNow")`: the typed
 * result of one activity call of the interface `A`.
 */
export function caller<A extends ActivityMap<A>>() {
  return function* call<K extends keyof A & string>(
    name: K,
    input: Parameters<A[K]>[0],
    policy: CallPolicy,
  ): Step<Awaited<ReturnType<A[K]>>> {
    return (yield { kind: "call", name, input, policy }) as Awaited<ReturnType<A[K]>>;
  };
}

/** A signal to another workflow, as an effect. */
export function* signalWorkflow(workflowId: string, signal: string, arg: unknown): Step<void> {
  yield { kind: "signal", workflowId, signal, arg };
}

/**
 * A command refused with a code of the process's error table and the text to show (the driver turns it into
 * Temporal's ApplicationFailure of that type, non-retryable).
 */
export class Rejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "Rejection";
  }
}

/** A start the process refuses before anything happens (bad input; nothing was charged). */
export class InvalidInput extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInput";
  }
}

/**
 * A command of a machine: the update it answers (the kind's contract), `validate` refuses it without changing
 * anything, `run` does it as a step.
 */
export interface Command<M, Cmd, Ret> {
  update: UpdateDefinition<Ret, [Cmd]>;
  validate(m: M, cmd: Cmd, now: number): void;
  run(m: M, cmd: Cmd, ctx: StepContext): Step<Ret>;
}

/** What a step needs from its surroundings: the clock (the workflow's, deterministic) and a logger. */
export interface StepContext {
  /** Epoch ms; in the workflow, Temporal's deterministic clock; in tests, a scripted one. */
  now(): number;
  log(level: "info" | "warn" | "error", message: string, meta?: Record<string, unknown>): void;
}

/**
 * Runs a step against a synchronous interpreter (tests): each effect is answered by `answer(effect)`; a thrown
 * error is thrown into the step, as the driver does with a failed activity.
 */
export function runStepSync<R>(step: Step<R>, answer: (effect: Effect) => unknown): R {
  let next = step.next();
  while (!next.done) {
    let value: unknown;
    let failed = false;
    let error: unknown;
    try {
      value = answer(next.value);
    } catch (err) {
      failed = true;
      error = err;
    }
    next = failed ? step.throw(error) : step.next(value);
  }
  return next.value;
}

/**
 * An order process's machine, under the same member names for every kind (each kind's machine.ts exports
 * one: buyMachine, swapMachine, rmaMachine). The driver (workflows/common/driver.ts) makes the model, takes
 * the carrier's events, runs the opening step, then loops: queued events, settling, deadlines.
 */
export interface Machine<M, Input> {
  /** The model of a new order; refuses a bad start (InvalidInput) before anything happens. */
  newModel(input: Input, workflowId: string, startedAt: number): M;
  /** The order's search attributes, from its model (workflows/common/search-attributes.ts). */
  searchFacts(m: M): OrderSearchFacts;
  /** Queues a carrier event (workflows/common/parcel.ts takeCarrierEvent); true when there is something new to do. */
  acceptCarrierEvent(m: M, ev: CarrierEventSignal | undefined): boolean;
  /** The opening step (the order's first read-model write), if it has one. */
  open?(m: M, ctx: StepContext): Step;
  isFinished(m: M): boolean;
  /** The deadline the order waits for now (epoch ms), or null. */
  deadline(m: M): number | null;
  /** The deadline passed. */
  onDeadline(m: M, ctx: StepContext): Step;
  /** The next queued event as a step, or null. */
  nextQueuedStep(m: M, ctx: StepContext): Step | null;
  /** A step to run before waiting (e.g. closing windows that ended), or null. */
  settle?(m: M, ctx: StepContext): Step | null;
  /** Clean-up when the workflow is cancelled (runs non-cancellable). */
  afterCancellation?(m: M, ctx: StepContext): Step;
}
