import { describe, expect, it } from "vitest";
import { parseEnv, paymentsDashboardBase, requiresRealSecrets } from "~/utils/env.server";

// No public webhook secret in production; Stripe keys need STRIPE_WEBHOOK_SECRET.
const REAL = { CARRIER_WEBHOOK_SECRET: "carrier-0123456789abcdef", SANDBOX_WEBHOOK_SECRET: "whsec_0123456789abcdef" };
const fails = (raw: Record<string, string | undefined>) => {
  try {
    parseEnv(raw);
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("webhook secrets", () => {
  it("production (NODE_ENV=production, or APP_ENV production/staging) refuses missing or public secrets, naming the variable", () => {
    for (const base of [
      { NODE_ENV: "production" },
      { NODE_ENV: "production", APP_ENV: "production" },
      { APP_ENV: "staging" },
      { APP_ENV: "production" },
    ]) {
      expect(fails(base)).toMatch(/CARRIER_WEBHOOK_SECRET: required/);
      expect(fails(base)).toMatch(/SANDBOX_WEBHOOK_SECRET: required/);
      expect(
        fails({ ...base, CARRIER_WEBHOOK_SECRET: "carrier_sandbox_local_only", SANDBOX_WEBHOOK_SECRET: REAL.SANDBOX_WEBHOOK_SECRET }),
      ).toMatch(/CARRIER_WEBHOOK_SECRET: is the public sandbox default/);
      expect(fails({ ...base, ...REAL, SANDBOX_WEBHOOK_SECRET: "whsec_sandbox_local_only" })).toMatch(
        /SANDBOX_WEBHOOK_SECRET: is the public/,
      );
      expect(fails({ ...base, ...REAL, CARRIER_WEBHOOK_SECRET: "short" })).toMatch(/CARRIER_WEBHOOK_SECRET: too short/);
      expect(fails({ ...base, ...REAL })).toBe("");
    }
  });

  it("with Stripe keys, STRIPE_WEBHOOK_SECRET is required in every environment (no sandbox fallback)", () => {
    expect(fails({ STRIPE_SECRET_KEY: "sk_test_x" })).toMatch(/STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY/);
    expect(fails({ NODE_ENV: "production", APP_ENV: "test", STRIPE_SECRET_KEY: "sk_test_x" })).toMatch(/STRIPE_WEBHOOK_SECRET/);
    expect(fails({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toBe("");
    // Production with Stripe: the sandbox secret is not needed, the carrier's still is.
    const stripeProd = fails({ APP_ENV: "production", STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_live_0123456789" });
    expect(stripeProd).toMatch(/CARRIER_WEBHOOK_SECRET: required/);
    expect(stripeProd).not.toMatch(/SANDBOX_WEBHOOK_SECRET|STRIPE_WEBHOOK_SECRET/);
  });

  it("local development and the test suites keep the sandbox defaults", () => {
    expect(fails({})).toBe("");
    expect(fails({ NODE_ENV: "test", APP_ENV: "test" })).toBe("");
    expect(fails({ NODE_ENV: "production", APP_ENV: "test" })).toBe("");
    expect(fails({ NODE_ENV: "production", APP_ENV: "local" })).toBe("");
    expect(requiresRealSecrets({ NODE_ENV: "production" }, { NODE_ENV: "production", APP_ENV: "local" })).toBe(true);
  });
});

describe("the payment provider's dashboard (staff's order and RMA cards)", () => {
  it("follows the key's mode; the sandbox has none", () => {
    expect(paymentsDashboardBase(parseEnv({}))).toBeNull();
    expect(paymentsDashboardBase(parseEnv({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }))).toBe(
      "https://dashboard.stripe.com/test",
    );
    expect(paymentsDashboardBase(parseEnv({ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }))).toBe(
      "https://dashboard.stripe.com",
    );
  });
});
