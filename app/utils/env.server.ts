import { z } from "zod";

/**
 * The one place process.env is read. Every composition root (Remix server, worker, scripts)
 * calls getEnv(); activities and queries receive what they need as arguments.
 */
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
  SANDBOX_WEBHOOK_SECRET: z.string().default("whsec_sandbox_local_only"),
  CARRIER_WEBHOOK_SECRET: z.string().default("carrier_sandbox_local_only"),
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

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) {
    const parsed = EnvSchema.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Payments go to Stripe when a secret key is configured, to the sandbox otherwise. */
export function paymentsProvider(env: Env = getEnv()): "stripe" | "sandbox" {
  return env.STRIPE_SECRET_KEY ? "stripe" : "sandbox";
}
