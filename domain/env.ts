import { z } from "zod";

/**
 * The environment's schema and checks (pure: given the variables, no process access). Each entry point reads
 * process.env once through it: the web server and pages through app/utils/env.server.ts getEnv(), the worker
 * (workers/main.ts) and the database scripts (db/migrate.ts, db/seed.ts) with parseEnv(process.env).
 * Activities and queries receive what they need as arguments.
 */
/** The public, published defaults of the webhook secrets: fine locally and in tests, never in production. */
export const PUBLIC_SECRET_DEFAULTS = {
  SANDBOX_WEBHOOK_SECRET: "whsec_sandbox_local_only",
  CARRIER_WEBHOOK_SECRET: "carrier_sandbox_local_only",
} as const;

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  APP_ENV: z.enum(["local", "test", "staging", "production"]).default("local"),
  APP_ORIGIN: z.string().url().default("http://localhost:3000"),
  PORT: z.coerce.number().int().positive().default(3000),
  DATABASE_URL: z.string().default("postgres://postgres:postgres@127.0.0.1:54320/marketplace"),
  TEMPORAL_ADDRESS: z.string().default("127.0.0.1:7233"),
  TEMPORAL_NAMESPACE: z.string().default("default"),
  TEMPORAL_TASK_QUEUE: z.string().default("marketplace"),
  TEMPORAL_UI_URL: z.string().default("http://localhost:8233"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** host:port of an alternative Stripe API (stripe-mock in contract tests). */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(["http", "https"]).optional(),
  /** Public defaults: refused where real secrets are required (secretProblems). */
  SANDBOX_WEBHOOK_SECRET: z.string().default(PUBLIC_SECRET_DEFAULTS.SANDBOX_WEBHOOK_SECRET),
  CARRIER_WEBHOOK_SECRET: z.string().default(PUBLIC_SECRET_DEFAULTS.CARRIER_WEBHOOK_SECRET),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Wholesale Exchange <no-reply@wholesale.example>"),
  SUPPORT_PHONE: z.string().default("1-800-555-0199"),
  SUPPORT_EMAIL: z.string().default("support@wholesale.example"),
  RETAILER_SUPPORT_EMAIL: z.string().default("retailers@wholesale.example"),
  /** Optional chat/help widget snippet (HTML). Off when empty. */
  CHAT_WIDGET_SNIPPET: z.string().optional(),
  MARKETPLACE_TZ: z.string().default("America/New_York"),
  /** Where listing photos uploaded in the wizard are stored (served at /uploads/<file>). */
  UPLOAD_DIR: z.string().default(".data/uploads"),
  LOGIN_THROTTLE_MAX: z.coerce.number().int().positive().default(5),
  LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
});

export type Env = z.infer<typeof EnvSchema>;

/** Shortest secret accepted where real secrets are required. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Whether this process must run with real secrets: APP_ENV production or staging, or NODE_ENV=production
 * unless APP_ENV is explicitly "test" or "local" (the e2e suite and the benchmarks run the production
 * build with the public sandbox defaults; a deployment that forgets APP_ENV is treated as production).
 */
export function requiresRealSecrets(raw: Record<string, string | undefined>, env: Pick<Env, "NODE_ENV" | "APP_ENV">): boolean {
  if (env.APP_ENV === "production" || env.APP_ENV === "staging") return true;
  if (env.NODE_ENV !== "production") return false;
  const declared = raw.APP_ENV?.trim();
  return declared !== "test" && declared !== "local";
}

/**
 * What is wrong with the secrets of this configuration (empty when nothing): each entry names the variable.
 * - Stripe keys set (any environment): STRIPE_WEBHOOK_SECRET is required (no fallback to the sandbox's).
 * - Where real secrets are required: CARRIER_WEBHOOK_SECRET, and SANDBOX_WEBHOOK_SECRET when payments use
 *   the sandbox, must be set, not the public default, and at least MIN_SECRET_LENGTH characters.
 */
export function secretProblems(raw: Record<string, string | undefined>, env: Env): string[] {
  const problems: string[] = [];
  if ((env.STRIPE_SECRET_KEY || env.STRIPE_PUBLISHABLE_KEY) && !env.STRIPE_WEBHOOK_SECRET?.trim()) {
    problems.push(
      "STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY or STRIPE_PUBLISHABLE_KEY is set (the Stripe webhook signing secret, whsec_...)",
    );
  }
  if (!requiresRealSecrets(raw, env)) return problems;
  const where = `in production (NODE_ENV=${env.NODE_ENV}, APP_ENV=${raw.APP_ENV ?? "unset"})`;
  const names: (keyof typeof PUBLIC_SECRET_DEFAULTS)[] = ["CARRIER_WEBHOOK_SECRET"];
  if (paymentsProviderOf(env) === "sandbox") names.push("SANDBOX_WEBHOOK_SECRET");
  for (const name of names) {
    const value = raw[name]?.trim() ?? "";
    if (value === "") problems.push(`${name}: required ${where}; set a random secret of at least ${MIN_SECRET_LENGTH} characters`);
    else if (value === PUBLIC_SECRET_DEFAULTS[name]) problems.push(`${name}: is the public sandbox default; set a real secret ${where}`);
    else if (value.length < MIN_SECRET_LENGTH) problems.push(`${name}: too short; use at least ${MIN_SECRET_LENGTH} characters ${where}`);
  }
  return problems;
}

/** Parses and checks an environment; throws an Error naming every bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const problems = secretProblems(raw, parsed.data);
  if (problems.length > 0) throw new Error(`Invalid environment: ${problems.join("; ")}`);
  return parsed.data;
}

/** Payments go to Stripe when a secret key is configured, to the sandbox otherwise. */
export function paymentsProviderOf(env: Pick<Env, "STRIPE_SECRET_KEY">): "stripe" | "sandbox" {
  return env.STRIPE_SECRET_KEY ? "stripe" : "sandbox";
}
