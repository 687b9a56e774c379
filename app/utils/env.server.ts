/**
 * The web server's environment: process.env read once, through domain/env.ts (schema, secret checks and the
 * production refusals; `*_FILE` variables read from their files), and kept. Pages and server utilities call getEnv().
 */
import fs from "node:fs";
import { parseEnv, paymentsProviderOf, type Env } from "../../domain/env";

export {
  MIN_SECRET_LENGTH,
  parseEnv,
  PUBLIC_SECRET_DEFAULTS,
  requiresRealSecrets,
  secretProblems,
  type Env,
} from "../../domain/env";

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) cached = parseEnv(process.env, (file) => fs.readFileSync(file, "utf8"));
  return cached;
}

/** Payments go to Stripe when a secret key is configured, to the sandbox otherwise. */
export function paymentsProvider(env: Env = getEnv()): "stripe" | "sandbox" {
  return paymentsProviderOf(env);
}

/**
 * The payment provider's dashboard of the key's mode (live keys search live payments, test keys test ones); on the
 * sandbox, its own records page in the app (app/routes/sandbox.dashboard.$.tsx, the same paths).
 */
export function paymentsDashboardBase(env: Env = getEnv()): string | null {
  if (paymentsProvider(env) !== "stripe") return "/sandbox/dashboard";
  return `https://dashboard.stripe.com${env.STRIPE_SECRET_KEY?.startsWith("sk_live_") ? "" : "/test"}`;
}
