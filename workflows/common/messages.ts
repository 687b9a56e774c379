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
