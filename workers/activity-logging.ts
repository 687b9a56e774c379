/**
 * The worker's activity interceptor (workers/main.ts): reads the web request id that the workflow put into the
 * activity's headers (workflows/common/request-id.ts) and adds it to every log line of the activity (the SDK's and
 * ours); with LOG_FORMAT=json it logs one line per activity run (completed or failed, with its duration); and it
 * tells the worker's health (workers/worker-health.ts) when the last activity task ran.
 */
import { defaultPayloadConverter } from "@temporalio/common";
import type { ActivityInterceptorsFactory } from "@temporalio/worker";
import { REQUEST_ID_HEADER } from "../domain/request-id";

export function activityLogging({
  onTask,
  logRuns,
}: {
  onTask: () => void;
  logRuns: boolean;
}): ActivityInterceptorsFactory {
  return (ctx) => {
    let requestId: string | undefined;
    return {
      inbound: {
        async execute(input, next) {
          const header = input.headers[REQUEST_ID_HEADER];
          if (header) requestId = defaultPayloadConverter.fromPayload<string>(header);
          onTask();
          const t0 = Date.now();
          try {
            const result = await next(input);
            if (logRuns) ctx.log.info("activity completed", { ms: Date.now() - t0 });
            return result;
          } catch (err) {
            if (logRuns)
              ctx.log.warn("activity failed", {
                ms: Date.now() - t0,
                error: err instanceof Error ? err.message : String(err),
              });
            throw err;
          } finally {
            onTask();
          }
        },
      },
      outbound: {
        getLogAttributes: (input, next) => next(requestId ? { ...input, requestId } : input),
      },
    };
  };
}
