/**
 * POST /codec/decode and /codec/encode: the codec server of the Temporal Web UI (ADR 0040). The UI sends the
 * payloads it shows (or an operator's input) with the browser's cookies; a signed-in staff user holding
 * "ops.decode" gets them opened (or sealed) with the payload keys. CORS for the UI's origin is
 * workers/codec-cors.mjs's.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { codecAction, codecError } from "./codec.$op.server";

export async function loader() {
  return codecError(405, "POST only.", { Allow: "POST" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return codecError(405, "POST only.", { Allow: "POST" });
  return codecAction(request, params.op);
}
