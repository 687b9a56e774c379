/**
 * The sandbox payment provider's tokens (ADR 0050): its stand-in of Stripe.js (served as /sandbox/stripe.js) and
 * the endpoint it posts to. What a browser sends here goes to the sandbox provider's store
 * (sandbox_payment_objects), redacted as domain/payout-tokens.ts sandboxToken keeps it, and never to a workflow,
 * a log or our own tables; the answer is the token (id, kind, last four) or Stripe's `{ error }`.
 * Only while payments use the sandbox (404 with Stripe), and only for a signed-in user.
 */
import { randomBytes } from "node:crypto";
import { putSandboxObject } from "../../db/queries/payments";
import {
  PAYOUT_TOKEN_PREFIX,
  sandboxToken,
  type PayoutTokenKind,
} from "../../domain/payout-tokens";
import { getAuth } from "./auth.server";
import { db } from "./db.server";
import { paymentsProvider } from "./env.server";
import { readBytes } from "./form.server";

/** A token's data is a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

const apiError = (status: number, message: string) =>
  json({ error: { type: "invalid_request_error", code: "invalid_request", message } }, status);

const KINDS = Object.keys(PAYOUT_TOKEN_PREFIX) as PayoutTokenKind[];

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

/** The body the stand-in posts: `{ kind, data }`, or the refusal. */
async function readRequest(
  request: Request,
): Promise<{ kind: PayoutTokenKind; data: unknown } | Response> {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(await readBytes(request, MAX_BODY_BYTES)));
  } catch {
    return apiError(400, "The body is not JSON.");
  }
  const { kind, data } = (body ?? {}) as { kind?: unknown; data?: unknown };
  if (typeof kind !== "string" || !(KINDS as string[]).includes(kind))
    return apiError(400, `Unsupported token kind; expected one of ${KINDS.join(", ")}.`);
  return { kind: kind as PayoutTokenKind, data };
}

export async function sandboxTokenAction(request: Request): Promise<Response> {
  if (paymentsProvider() !== "sandbox") return notFound();
  if (request.method !== "POST") return apiError(405, "POST only.");
  if (!(await getAuth(request))) return apiError(401, "Sign in first.");
  const req = await readRequest(request);
  if (req instanceof Response) return req;
  const id = `${PAYOUT_TOKEN_PREFIX[req.kind]}_sandbox_${randomBytes(12).toString("hex")}`;
  const outcome = sandboxToken(req.kind, req.data, { id, created: Math.floor(Date.now() / 1000) });
  if ("error" in outcome) return json(outcome, 402);
  await putSandboxObject(db, "token", { ...outcome.token, id });
  return json({ token: outcome.token });
}

/**
 * The stand-in of Stripe.js: `window.Stripe(publishableKey)` with `createToken(kind, data)`, resolving like
 * Stripe.js to `{ token }` or `{ error }` (a network failure too, never a rejection).
 */
const SANDBOX_STRIPE_JS = `(function () {
  "use strict";
  var endpoint = "/sandbox/v1/tokens";
  function createToken(kind, data) {
    return fetch(endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: kind, data: data })
    })
      .then(function (res) { return res.json(); })
      .catch(function () {
        return { error: { type: "api_connection_error", message: "The sandbox payment provider did not answer." } };
      });
  }
  window.Stripe = function (publishableKey) {
    return { sandbox: true, publishableKey: publishableKey, createToken: createToken };
  };
})();
`;

export function sandboxStripeJs(): Response {
  if (paymentsProvider() !== "sandbox") return notFound();
  return new Response(SANDBOX_STRIPE_JS, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
