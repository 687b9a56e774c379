/**
 * The request id of the web request being answered (workers/observability.mjs keeps it in an AsyncLocalStorage
 * on globalThis) and the Temporal client interceptor that sends it with every workflow start (memo `requestId`
 * and header), signal and update (header): the workflow carries it to its activities' logs
 * (workflows/common/request-id.ts). Outside a request (scripts, tests) nothing is added.
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import type { WorkflowClientInterceptor } from "@temporalio/client";
import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import { REQUEST_ID_HEADER } from "../../domain/request-id";

const storeKey = Symbol.for("wholesale.requestContext");

/** The current request's id, or undefined outside a web request. */
export function currentRequestId(): string | undefined {
  const store = (globalThis as Record<symbol, unknown>)[storeKey] as
    | AsyncLocalStorage<{ requestId?: string }>
    | undefined;
  return store?.getStore()?.requestId;
}

const withId = (headers: Record<string, Payload>, requestId: string) => ({
  ...headers,
  [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(requestId),
});

/** A start's input with the id in its headers and memo. */
function tagStart<
  T extends { headers: Record<string, Payload>; options: { memo?: Record<string, unknown> } },
>(input: T, requestId: string): T {
  return {
    ...input,
    headers: withId(input.headers, requestId),
    options: { ...input.options, memo: { ...input.options.memo, requestId } },
  };
}

/** Runs `next` with `tag(input, id)` inside a web request, with the input unchanged outside one. */
const tagged =
  <I, O>(tag: (input: I, requestId: string) => I) =>
  (input: I, next: (input: I) => O): O => {
    const requestId = currentRequestId();
    return next(requestId ? tag(input, requestId) : input);
  };

export function requestIdInterceptor(): WorkflowClientInterceptor {
  return {
    startWithDetails: tagged(tagStart),
    signalWithStart: tagged(tagStart),
    signal: tagged((input, requestId) => ({ ...input, headers: withId(input.headers, requestId) })),
    startUpdate: tagged((input, requestId) => ({
      ...input,
      headers: withId(input.headers, requestId),
    })),
    startUpdateWithStart: tagged((input, requestId) => ({
      ...input,
      workflowStartHeaders: withId(input.workflowStartHeaders, requestId),
      workflowStartOptions: {
        ...input.workflowStartOptions,
        memo: { ...input.workflowStartOptions.memo, requestId },
      },
      updateHeaders: withId(input.updateHeaders, requestId),
    })),
  };
}
