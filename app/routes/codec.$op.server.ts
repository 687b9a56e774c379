/**
 * The codec server's server half (app/routes/codec.$op.tsx; ADR 0040): who may use it, and the payloads opened
 * or sealed with this process's payload keys (temporal/codec.ts, the same codec as the Temporal client's).
 *
 * Not signed in: 401. Signed in without the "ops.decode" right of the permissions map (ADR 0020), or not staff:
 * 403. A payload that does not open (a key no longer in PAYLOAD_KEYS, a damaged one) is answered as it came, so
 * the UI still shows the rest of the history.
 */
import type { Payload } from "@temporalio/common";
import { PAYLOAD_DECODE_PERMISSION } from "../../domain/staff-users";
import { getAdminPermissions } from "../../db/queries/staff-permissions";
import {
  payloadFromJson,
  payloadToJson,
  type AesGcmPayloadCodec,
  type JsonPayload,
} from "../../temporal/codec";
import { payloadCodecOf } from "../../temporal/connection";
import { getAuth, mustSetUpTwoFactor } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { readBytes } from "~/utils/form.server";

/** The largest request body taken (a workflow's history page of payloads). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The most payloads in one request. */
const MAX_PAYLOADS = 2000;

export const codecError = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });

let codec: AesGcmPayloadCodec | undefined;
const processCodec = () => (codec ??= payloadCodecOf(getEnv()));

/** The staff user may read payloads: null, or the refusal to answer. */
async function refusal(request: Request): Promise<Response | null> {
  const auth = await getAuth(request);
  if (!auth) return codecError(401, "Sign in as staff to read order payloads.");
  if (mustSetUpTwoFactor(auth)) return codecError(403, "Set up two-factor sign-in first.");
  const granted = auth.user.isStaff ? await getAdminPermissions(db, auth.user.id) : [];
  if (!granted.includes(PAYLOAD_DECODE_PERMISSION))
    return codecError(403, "You may not read order payloads.");
  return null;
}

/** The request's payloads (`{ payloads: [...] }`), or the 400 / 413 that refuses them. */
async function readPayloads(request: Request): Promise<Payload[] | Response> {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(await readBytes(request, MAX_BODY_BYTES)));
  } catch (e) {
    if (e instanceof Response)
      return e.status === 413
        ? codecError(413, "Too many payloads at once.")
        : codecError(400, "Unreadable body.");
    return codecError(400, "The body is not JSON.");
  }
  const list = (body as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(list) || list.some((p) => !p || typeof p !== "object"))
    return codecError(400, "Expected { payloads: [...] }.");
  if (list.length > MAX_PAYLOADS) return codecError(413, "Too many payloads at once.");
  try {
    return (list as JsonPayload[]).map(payloadFromJson);
  } catch {
    return codecError(400, "A payload is not base64.");
  }
}

async function openEach(c: AesGcmPayloadCodec, payloads: Payload[]): Promise<Payload[]> {
  return Promise.all(
    payloads.map(async (p) => {
      try {
        return (await c.decode([p]))[0];
      } catch (e) {
        console.warn(
          `[codec] a payload did not open: ${e instanceof Error ? e.message : String(e)}`,
        );
        return p;
      }
    }),
  );
}

export async function codecAction(request: Request, op: string | undefined): Promise<Response> {
  if (op !== "decode" && op !== "encode") return codecError(404, "Not found.");
  const refused = await refusal(request);
  if (refused) return refused;
  const payloads = await readPayloads(request);
  if (payloads instanceof Response) return payloads;
  const c = processCodec();
  const out = op === "decode" ? await openEach(c, payloads) : await c.encode(payloads);
  return Response.json(
    { payloads: out.map(payloadToJson) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
