import { describe, expect, it } from "vitest";
import { DEV_PAYLOAD_KEYS, isLoopbackAddress, withFileVariables } from "../../domain/env";
import { parseEnv, paymentsDashboardBase, requiresRealSecrets } from "~/utils/env.server";

// No public webhook secret in production; Stripe keys need STRIPE_WEBHOOK_SECRET.
const REAL = {
  CARRIER_WEBHOOK_SECRET: "carrier-0123456789abcdef",
  SANDBOX_WEBHOOK_SECRET: "whsec_0123456789abcdef",
};
// What else production needs to start (productionRefusals; staging needs only the payload key of it).
const REST_OF_PRODUCTION = {
  PAYLOAD_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
  STRIPE_SECRET_KEY: "sk_live_0123456789",
  STRIPE_PUBLISHABLE_KEY: "pk_live_0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_live_0123456789",
  DATABASE_URL: "postgres://app:s3cret-db-pass@db.internal:5432/marketplace",
};
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
        fails({
          ...base,
          CARRIER_WEBHOOK_SECRET: "carrier_sandbox_local_only",
          SANDBOX_WEBHOOK_SECRET: REAL.SANDBOX_WEBHOOK_SECRET,
        }),
      ).toMatch(/CARRIER_WEBHOOK_SECRET: is the public sandbox default/);
      expect(
        fails({ ...base, ...REAL, SANDBOX_WEBHOOK_SECRET: "whsec_sandbox_local_only" }),
      ).toMatch(/SANDBOX_WEBHOOK_SECRET: is the public/);
      expect(fails({ ...base, ...REAL, CARRIER_WEBHOOK_SECRET: "short" })).toMatch(
        /CARRIER_WEBHOOK_SECRET: too short/,
      );
      expect(fails({ ...base, ...REAL, ...REST_OF_PRODUCTION })).toBe("");
    }
  });

  it("with Stripe keys, STRIPE_WEBHOOK_SECRET is required in every environment (no sandbox fallback)", () => {
    expect(fails({ STRIPE_SECRET_KEY: "sk_test_x" })).toMatch(
      /STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY/,
    );
    expect(
      fails({ NODE_ENV: "production", APP_ENV: "test", STRIPE_SECRET_KEY: "sk_test_x" }),
    ).toMatch(/STRIPE_WEBHOOK_SECRET/);
    expect(fails({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toBe("");
    // Production with Stripe: the sandbox secret is not needed, the carrier's still is.
    const stripeProd = fails({
      APP_ENV: "production",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_live_0123456789",
    });
    expect(stripeProd).toMatch(/CARRIER_WEBHOOK_SECRET: required/);
    expect(stripeProd).not.toMatch(/SANDBOX_WEBHOOK_SECRET|STRIPE_WEBHOOK_SECRET/);
  });

  it("local development and the test suites keep the sandbox defaults", () => {
    expect(fails({})).toBe("");
    expect(fails({ NODE_ENV: "test", APP_ENV: "test" })).toBe("");
    expect(fails({ NODE_ENV: "production", APP_ENV: "test" })).toBe("");
    expect(fails({ NODE_ENV: "production", APP_ENV: "local" })).toBe("");
    expect(
      requiresRealSecrets({ NODE_ENV: "production" }, { NODE_ENV: "production", APP_ENV: "local" }),
    ).toBe(true);
  });
});

describe("the payment provider's dashboard (staff's order and RMA cards)", () => {
  it("follows the key's mode; the sandbox's is its records page in the app", () => {
    expect(paymentsDashboardBase(parseEnv({}))).toBe("/sandbox/dashboard");
    expect(
      paymentsDashboardBase(
        parseEnv({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }),
      ),
    ).toBe("https://dashboard.stripe.com/test");
    expect(
      paymentsDashboardBase(
        parseEnv({ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }),
      ),
    ).toBe("https://dashboard.stripe.com");
  });
});

describe("production refusals (docs/operations.md, 'Production refusals')", () => {
  const SAFE = { APP_ENV: "production", ...REAL, ...REST_OF_PRODUCTION };
  const refused = (change: Record<string, string | undefined>) => {
    try {
      parseEnv({ ...SAFE, ...change });
      return [];
    } catch (e) {
      return (e as { problems?: string[] }).problems ?? [(e as Error).message];
    }
  };

  it("a safe production environment starts; each unsafe setting is one line naming its variable", () => {
    expect(refused({})).toEqual([]);
    for (const [change, line] of [
      [
        {
          STRIPE_SECRET_KEY: undefined,
          STRIPE_PUBLISHABLE_KEY: undefined,
          STRIPE_WEBHOOK_SECRET: undefined,
        },
        /^STRIPE_SECRET_KEY: empty, so payments would go to the sandbox/,
      ],
      [{ STRIPE_SECRET_KEY: "sk_test_0123" }, /^STRIPE_SECRET_KEY: a test-mode key/],
      [{ STRIPE_API_HOST: "localhost" }, /^STRIPE_API_HOST: payments would go to localhost/],
      [
        { STRIPE_PUBLISHABLE_KEY: undefined },
        /^STRIPE_PUBLISHABLE_KEY: empty, so the payout and card forms could not make the provider's tokens/,
      ],
      [{ STRIPE_PUBLISHABLE_KEY: "pk_test_0123" }, /^STRIPE_PUBLISHABLE_KEY: a test-mode key/],
      [
        { CARRIER_WEBHOOK_SECRET: "carrier_sandbox_local_only" },
        /^CARRIER_WEBHOOK_SECRET: is the public sandbox default/,
      ],
      [{ CARRIER_WEBHOOK_SECRET: "" }, /^CARRIER_WEBHOOK_SECRET: required/],
      [
        { DATABASE_URL: "postgres://postgres:postgres@db:5432/m" },
        /^DATABASE_URL: the database password is a default/,
      ],
      [
        { DATABASE_URL: "postgres://app@db:5432/m" },
        /^DATABASE_URL: the database password is empty/,
      ],
      [{ PAYLOAD_KEYS: undefined }, /^PAYLOAD_KEYS: required in production/],
      [{ PAYLOAD_KEYS: DEV_PAYLOAD_KEYS }, /^PAYLOAD_KEYS: holds the public development key/],
      [
        { PAYLOAD_CODEC: "off" },
        /^PAYLOAD_CODEC: off, so payloads would reach Temporal unencrypted/,
      ],
      [
        { TEMPORAL_ADDRESS: "temporal.internal:7233" },
        /^TEMPORAL_ADDRESS: temporal.internal:7233 is not on this machine and TLS is off/,
      ],
    ] as const) {
      const lines = refused(change);
      expect(lines, JSON.stringify(change)).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    }
  });

  it("a remote Temporal is fine with TLS, a loopback one without", () => {
    expect(refused({ TEMPORAL_ADDRESS: "temporal.internal:7233", TEMPORAL_TLS: "true" })).toEqual(
      [],
    );
    for (const a of ["127.0.0.1:7233", "localhost:7233", "[::1]:7233"])
      expect(refused({ TEMPORAL_ADDRESS: a })).toEqual([]);
    expect(isLoopbackAddress("10.0.0.5:7233")).toBe(false);
    expect(refused({ TEMPORAL_TLS_CERT: "-----BEGIN CERTIFICATE-----" })[0]).toMatch(
      /^TEMPORAL_TLS_CERT: .* together/,
    );
  });

  it("staging takes sandbox payments, a local database and the codec off, but not a missing payload key", () => {
    const staging = { APP_ENV: "staging", ...REAL };
    expect(() =>
      parseEnv({ ...staging, PAYLOAD_KEYS: REST_OF_PRODUCTION.PAYLOAD_KEYS }),
    ).not.toThrow();
    expect(() => parseEnv(staging)).toThrow(/PAYLOAD_KEYS: required/);
    // The codec comparison of npm run bench:orders runs the production build as staging without the codec.
    expect(() =>
      parseEnv({ ...staging, PAYLOAD_KEYS: REST_OF_PRODUCTION.PAYLOAD_KEYS, PAYLOAD_CODEC: "off" }),
    ).not.toThrow();
  });
});

describe("secrets from files (*_FILE, Docker secrets)", () => {
  const files: Record<string, string> = {
    "/run/secrets/keys": `${REST_OF_PRODUCTION.PAYLOAD_KEYS}\n`,
    "/run/secrets/db": "postgres://a:b-real@db/m\n",
  };
  const readFile = (p: string) => {
    if (!(p in files)) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
    return files[p];
  };

  it("NAME_FILE sets NAME to the file's contents (trailing newline trimmed)", () => {
    const env = parseEnv(
      { PAYLOAD_KEYS_FILE: "/run/secrets/keys", DATABASE_URL_FILE: "/run/secrets/db" },
      readFile,
    );
    expect(env.PAYLOAD_KEYS).toBe(REST_OF_PRODUCTION.PAYLOAD_KEYS);
    expect(env.DATABASE_URL).toBe("postgres://a:b-real@db/m");
    const { vars } = withFileVariables(
      { CARRIER_WEBHOOK_SECRET_FILE: "/run/secrets/keys" },
      readFile,
    );
    expect(vars.CARRIER_WEBHOOK_SECRET).toBe(REST_OF_PRODUCTION.PAYLOAD_KEYS);
  });

  it("names an unreadable file, and both NAME and NAME_FILE set", () => {
    expect(() => parseEnv({ PAYLOAD_KEYS_FILE: "/nope" }, readFile)).toThrow(
      /PAYLOAD_KEYS_FILE: cannot read \/nope \(ENOENT\)/,
    );
    expect(() =>
      parseEnv({ PAYLOAD_KEYS: "x", PAYLOAD_KEYS_FILE: "/run/secrets/keys" }, readFile),
    ).toThrow(/PAYLOAD_KEYS: set either PAYLOAD_KEYS or PAYLOAD_KEYS_FILE, not both/);
  });
});
