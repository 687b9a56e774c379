/**
 * The bookkeeping every order machine does on each step, written once: the attempt counter behind its
 * idempotency keys, and the read-model record (the step's action rows, the write sequence, the notices'
 * dedupe keys, the deadlines as ISO instants). Each kind says what else its record carries
 * (workflows/<kind>/machine.ts `record`). Pure: no Temporal, no clock.
 */
import { idempotencyKey } from "./contract";

/** An epoch-ms instant as ISO, or null. */
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Every deadline of a kind as ISO instants (the read model's and the view's words). */
export function isoDeadlines<K extends string>(
  deadlines: Readonly<Partial<Record<K, number | null>>>,
): Record<K, string | null> {
  const out = {} as Record<K, string | null>;
  for (const k of Object.keys(deadlines) as K[]) out[k] = iso(deadlines[k] ?? null);
  return out;
}

/** What the counter needs of a model: the workflow id and its attempts per step. */
export interface Attempted {
  workflowId: string;
  attempts: Partial<Record<string, number>>;
}

/** The step's next attempt (1 the first time): a new attempt is a new idempotency key. */
export function nextAttempt(m: Attempted, step: string): number {
  const n = (m.attempts[step] ?? 0) + 1;
  m.attempts[step] = n;
  return n;
}

/** The idempotency key of the step's next attempt (workflows/common/contract.ts idempotencyKey). */
export function nextKey(m: Attempted, step: string): string {
  return idempotencyKey(m.workflowId, step, nextAttempt(m, step));
}

/** Action codes a step records, with who did each. */
export type Codes<Role> = Array<[number, Role]>;

/** What the record builder needs of a model: its action rows so far and its write sequence. */
export interface Recorded<Action> {
  workflowId: string;
  actions: Action[];
  /** How many read-model writes the workflow made (orders.record_seq). */
  recordSeq: number;
}

/**
 * The e-mail dedupe key of a notice: one mail per template and addressee for the order, or (`sequence`)
 * one per write, for a notice a kind may send again (a swap's turn passes back and forth).
 */
export function noticeDedupeKey(
  workflowId: string,
  template: string,
  to: string,
  sequence?: number,
): string {
  const key = `${workflowId}:mail:${template}:${to}`;
  return sequence === undefined ? key : `${key}:${sequence}`;
}

/**
 * Starts a step's read-model record: the step's codes become action rows (stamped with `at` and what the
 * kind adds, e.g. the state they leave the order in), appended to the model's; the write sequence moves on.
 */
export function stepRecord<Role, Action>(
  m: Recorded<Action>,
  codes: Codes<Role>,
  at: string,
  action: (code: number, role: Role, at: string) => Action,
): { actions: Action[]; sequence: number } {
  const actions = codes.map(([code, role]) => action(code, role, at));
  m.actions.push(...actions);
  m.recordSeq += 1;
  return { actions, sequence: m.recordSeq };
}
