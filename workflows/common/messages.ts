/**
 * Message definitions as plain objects: what @temporalio/workflow's defineUpdate / defineSignal / defineQuery
 * return (`{ type, name }`), typed with @temporalio/common's definitions, so a contract module can declare its
 * messages once without a Temporal runtime import (pages import contracts; the workflow bundle does too).
 */
import type { QueryDefinition, SignalDefinition, UpdateDefinition } from "@temporalio/common";

export function update<Ret, Args extends unknown[]>(name: string): UpdateDefinition<Ret, Args> {
  return { type: "update", name } as UpdateDefinition<Ret, Args>;
}

export function signal<Args extends unknown[]>(name: string): SignalDefinition<Args> {
  return { type: "signal", name } as SignalDefinition<Args>;
}

export function query<Ret, Args extends unknown[] = []>(name: string): QueryDefinition<Ret, Args> {
  return { type: "query", name } as QueryDefinition<Ret, Args>;
}

/**
 * The code and message of a refused command, from what the Temporal client threw: the update's
 * ApplicationFailure whose type is one of `errors`' codes (its message, else the code's), or
 * WorkflowNotFoundError once the workflow has ended ("wrong_state"); null for anything else. Each contract
 * names its own error table (BUY_ERRORS, SWAP_ERRORS, RMA_ERRORS).
 */
export function commandErrorIn<C extends string>(
  err: unknown,
  errors: Readonly<Record<C, string>> & { wrong_state: string },
): { code: C; message: string } | null {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const obj = e as { name?: unknown; type?: unknown; message?: unknown; cause?: unknown };
    if (obj.name === "WorkflowNotFoundError")
      return { code: "wrong_state" as C, message: errors.wrong_state };
    if (typeof obj.type === "string" && Object.prototype.hasOwnProperty.call(errors, obj.type)) {
      const code = obj.type as C;
      return {
        code,
        message: typeof obj.message === "string" && obj.message ? obj.message : errors[code],
      };
    }
    e = obj.cause;
  }
  return null;
}
