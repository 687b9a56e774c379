/**
 * The Temporal driver of an order's machine (workflows/common/steps.ts Machine), shared by every order
 * process (buy, swap, RMA): it makes the model (a bad start fails the workflow as the kind's invalid-input
 * failure), takes the carrier's events (the one carrier-event signal of workflows/common/contract.ts),
 * registers the kind's commands as updates (validator first, then the step) and its other signals, runs each
 * step's effects (activity calls with their policy's options, workflows/common/policies.ts; signals to other
 * workflows) and sleeps until the next deadline. A kind brings its machine and its messages, nothing else.
 *
 * One step at a time: a command, a deadline and a queued event never interleave their effects (`busy`); a
 * command that arrives while a step runs waits for it, is validated again against the state it left, and
 * then runs (a retailer's click is never refused as busy).
 *
 * Search attributes (workflows/common/search-attributes.ts): the driver upserts the order's when it is made
 * (the first workflow task) and, after every step, those the step changed; the kind only says how its model
 * maps to them (Machine.searchFacts).
 */
import {
  ApplicationFailure,
  CancellationScope,
  TemporalFailure,
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from "@temporalio/workflow";
import type { SignalDefinition, UpdateDefinition } from "@temporalio/common";
import { carrierEventSignal } from "./contract";
import { orderCalls, type Proxies } from "./policies";
import { orderSearchAttributes } from "./search-attributes";
import {
  InvalidInput,
  Rejection,
  type Command,
  type Machine,
  type Step,
  type StepContext,
} from "./steps";

/** The workflow's deterministic clock and logger, as the steps see them. */
export const workflowContext: StepContext = {
  now: () => Date.now(),
  log: (level, message, meta) => log[level](message, meta),
};

/**
 * What a refusal carries besides its code and text: the workflow's write sequence when it refused (its
 * model's recordSeq, = orders.record_seq once the step's write lands). A caller whose read model is ahead of it
 * knows the refusal came from a workflow that has not yet redone its last step (a worker died between the
 * step's local write and its workflow task's completion), and sends the command again (app/utils/temporal.server.ts).
 */
export interface RefusalDetails {
  recordSeq: number;
}

/**
 * A machine's refusal as the failure Temporal reports to the caller (the type is the error code; with
 * `recordSeq`, the RefusalDetails).
 */
export function asFailure(err: unknown, invalidInputType: string, recordSeq?: number): unknown {
  if (err instanceof Rejection) {
    const details: RefusalDetails[] = recordSeq === undefined ? [] : [{ recordSeq }];
    return ApplicationFailure.create({
      type: err.code,
      message: err.message,
      nonRetryable: true,
      details,
    });
  }
  if (err instanceof InvalidInput)
    return ApplicationFailure.create({
      type: invalidInputType,
      message: err.message,
      nonRetryable: true,
    });
  if (err instanceof TemporalFailure || isCancellation(err)) return err;
  // A broken invariant of the machine: fail this command (or the workflow), do not retry the task forever.
  if (err instanceof Error) return ApplicationFailure.nonRetryable(err.message, err.name);
  return err;
}

export class OrderDriver<M extends { recordSeq: number }, Input> {
  /** A step is running its effects. */
  busy = false;
  /** Bumped whenever something the main loop may act on changes. */
  private version = 0;
  /** The search attributes last upserted (name → JSON of the value). */
  private readonly published = new Map<string, string>();
  readonly model: M;
  readonly ctx: StepContext = workflowContext;
  private readonly proxies: Proxies = orderCalls();

  /** Makes the order's model from the workflow's input (a bad start fails as `invalidInputType`). */
  constructor(
    private readonly machine: Machine<M, Input>,
    input: Input,
    private readonly invalidInputType: string,
  ) {
    try {
      this.model = machine.newModel(input, workflowInfo().workflowId, Date.now());
    } catch (err) {
      throw asFailure(err, invalidInputType);
    }
    this.publishSearchAttributes();
    this.signal(carrierEventSignal, machine.acceptCarrierEvent);
  }

  /** Runs a step: each effect with Temporal, its result (or failure) sent back into the step. */
  async run<R>(step: Step<R>): Promise<R> {
    try {
      let next = step.next();
      while (!next.done) {
        const effect = next.value;
        let value: unknown;
        let failed = false;
        let error: unknown;
        try {
          if (effect.kind === "call")
            value = await this.proxies[effect.policy][effect.name](effect.input);
          else await getExternalWorkflowHandle(effect.workflowId).signal(effect.signal, effect.arg);
        } catch (err) {
          failed = true;
          error = err;
        }
        next = failed ? step.throw(error) : step.next(value);
      }
      return next.value;
    } finally {
      this.publishSearchAttributes();
    }
  }

  /** Upserts the search attributes that differ from the last upsert (all of them the first time); typed pairs. */
  private publishSearchAttributes(): void {
    // An attribute never upserted is absent: null (absent) is no change for it.
    const changed = orderSearchAttributes(this.machine.searchFacts(this.model)).filter(
      (p) => (this.published.get(p.key.name) ?? "null") !== JSON.stringify(p.value),
    );
    if (changed.length === 0) return;
    upsertSearchAttributes(changed);
    for (const p of changed) this.published.set(p.key.name, JSON.stringify(p.value));
  }

  /** Runs a step alone (`busy` while it runs); a machine's refusal becomes Temporal's failure. */
  async exclusive<R>(step: () => Step<R>): Promise<R> {
    this.busy = true;
    try {
      return await this.run(step());
    } catch (err) {
      throw asFailure(err, this.invalidInputType, this.model.recordSeq);
    } finally {
      this.busy = false;
      this.version += 1;
    }
  }

  private validate<Cmd, Ret>(command: Command<M, Cmd, Ret>, cmd: Cmd): void {
    try {
      command.validate(this.model, cmd, this.ctx.now());
    } catch (err) {
      throw asFailure(err, this.invalidInputType, this.model.recordSeq);
    }
  }

  /** Registers a command as an update: the validator refuses before it is accepted; the step runs alone. */
  private command<Cmd, Ret>(
    def: UpdateDefinition<Ret, [Cmd]>,
    command: Command<M, Cmd, Ret>,
  ): void {
    setHandler(
      def,
      async (cmd: Cmd) => {
        while (this.busy) {
          await condition(() => !this.busy);
          this.validate(command, cmd);
        }
        return this.exclusive(() => command.run(this.model, cmd, this.ctx));
      },
      { validator: (cmd: Cmd) => this.validate(command, cmd) },
    );
  }

  /** Registers every command of a kind (e.g. BUY_COMMANDS), each as its own update. */
  commands<C>(commands: { [K in keyof C]: Command<M, C[K], unknown> }): void {
    for (const name of Object.keys(commands) as (keyof C)[])
      this.command(commands[name].update, commands[name]);
  }

  /** Registers a signal that `accept`s its payload into the model; true wakes the main loop. */
  signal<A>(def: SignalDefinition<[A]>, accept: (m: M, arg: A) => boolean): void {
    setHandler(def, (arg: A) => {
      if (accept(this.model, arg)) this.version += 1;
    });
  }

  /** The machine's opening step (if it has one), alone. */
  async open(): Promise<void> {
    const open = this.machine.open;
    if (open) await this.exclusive(() => open(this.model, this.ctx));
  }

  /** The main loop: queued events, settling, deadlines; sleeps until something changes or a deadline. */
  async loop(): Promise<void> {
    const { machine, model: m } = this;
    try {
      while (!machine.isFinished(m)) {
        for (
          let step = machine.nextQueuedStep(m, this.ctx);
          step;
          step = machine.nextQueuedStep(m, this.ctx)
        ) {
          const s = step;
          await this.exclusive(() => s);
        }
        if (machine.isFinished(m)) break;
        const settling = machine.settle?.(m, this.ctx);
        if (settling) await this.exclusive(() => settling);
        if (machine.isFinished(m)) break;
        const deadline = machine.deadline(m);
        if (deadline !== null && this.ctx.now() >= deadline) {
          await this.exclusive(() => machine.onDeadline(m, this.ctx));
          continue;
        }
        const seen = this.version;
        const wake = () => !this.busy && this.version !== seen;
        if (deadline === null) await condition(wake);
        else await condition(wake, Math.max(1, deadline - this.ctx.now()));
        // A command may be running when the timer fires: let it finish, then look at the state again.
        await condition(() => !this.busy);
      }
    } catch (err) {
      if (isCancellation(err) && machine.afterCancellation) {
        const cleanUp = machine.afterCancellation;
        await CancellationScope.nonCancellable(() => this.run(cleanUp(m, this.ctx)));
      }
      throw err;
    }
    await condition(allHandlersFinished);
  }
}
