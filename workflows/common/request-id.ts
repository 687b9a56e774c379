/**
 * The web request that caused a workflow's step, carried to the activities that step schedules (docs/operations.md
 * "Signals"): the app's Temporal client puts the request id into the start's memo and into the header
 * REQUEST_ID_HEADER of every start, signal and update (app/utils/request-id.server.ts); these workflow
 * interceptors keep the newest one they were given and copy it into the headers of every activity, local activity
 * and child workflow scheduled after it, and into the workflow's own log lines. The worker's activity interceptor
 * (workers/activity-logging.ts) puts it into the activities' logs. Headers are not part of what a replay
 * compares, so histories recorded without them replay unchanged. Registered by the worker (workers/main.ts,
 * workers/bundle.ts), not by the workflow tests.
 */
import {
  defaultPayloadConverter,
  type Payload,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowOutboundCallsInterceptor,
} from "@temporalio/workflow";
import { REQUEST_ID_HEADER } from "../../domain/request-id";

export { REQUEST_ID_HEADER };

type WithHeaders = { headers: Record<string, Payload> };

export const interceptors = (): WorkflowInterceptors => {
  let current: Payload | undefined;
  const take = (headers: Record<string, Payload>) => {
    if (headers[REQUEST_ID_HEADER]) current = headers[REQUEST_ID_HEADER];
  };
  const carry = <T extends WithHeaders>(input: T): T =>
    current ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: current } } : input;
  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      take(input.headers);
      return next(input);
    },
    handleSignal(input, next) {
      take(input.headers);
      return next(input);
    },
    handleUpdate(input, next) {
      take(input.headers);
      return next(input);
    },
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => next(carry(input)),
    scheduleLocalActivity: (input, next) => next(carry(input)),
    startChildWorkflowExecution: (input, next) => next(carry(input)),
    getLogAttributes: (input, next) =>
      next(
        current
          ? { ...input, requestId: defaultPayloadConverter.fromPayload<string>(current) }
          : input,
      ),
  };
  return { inbound: [inbound], outbound: [outbound] };
};
