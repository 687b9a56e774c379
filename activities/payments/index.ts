/** Chooses the payments adapter: Stripe when STRIPE_SECRET_KEY is set, otherwise the sandbox. */
import type { Db } from "../../db/client";
import type { PaymentsPort } from "./port";
import { createSandboxPayments } from "./sandbox";
import { createStripePayments } from "./stripe";

export * from "./port";

export interface PaymentsConfig {
  STRIPE_SECRET_KEY?: string;
  STRIPE_API_HOST?: string;
  STRIPE_API_PORT?: number;
  STRIPE_API_PROTOCOL?: "http" | "https";
}

export function createPayments(env: PaymentsConfig, db: Db): PaymentsPort {
  if (env.STRIPE_SECRET_KEY) {
    return createStripePayments({
      secretKey: env.STRIPE_SECRET_KEY,
      host: env.STRIPE_API_HOST,
      port: env.STRIPE_API_PORT,
      protocol: env.STRIPE_API_PROTOCOL,
    });
  }
  return createSandboxPayments(db);
}
