/**
 * The Temporal header that carries the id of the web request behind a workflow's start, signal or update, from
 * the app's client (app/utils/request-id.server.ts) through the workflow (workflows/common/request-id.ts) to the
 * activities' logs (workers/activity-logging.ts). docs/operations.md "Signals".
 */
export const REQUEST_ID_HEADER = "wholesale-request-id";
