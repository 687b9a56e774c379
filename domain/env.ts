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
  /**
   * "true" / "1": the workers send no e-mail; the outbox keeps every one queued (staff read it at /admin/outbox).
   * An operator holds mail back after a restore with it (docs/operations.md "Backups and restore").
   */
  OUTBOX_PAUSED: z.enum(["true", "false", "1", "0", ""]).optional(),
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
  /**
   * The payload codec's keys (ADR 0040): "id:base64key,id:base64key", newest last; each key 32 random bytes.
   * Empty outside production: the public DEV_PAYLOAD_KEYS are used.
   */
  PAYLOAD_KEYS: z.string().optional(),
  /** The key id new payloads are sealed with (a rotation's first step keeps the old one); default: the last key. */
  PAYLOAD_KEY_CURRENT: z.string().optional(),
  /**
   * "off": payloads cross the wire unsealed (temporal/connection.ts dataConverterOf). For the benchmarks only
   * (npm run bench:orders -- --prod --codec off|both, the codec's cost); production refuses it.
   */
  PAYLOAD_CODEC: z.enum(["on", "off"]).default("on"),
  /** TLS to the Temporal frontend: "true" (the system's CAs), or implied by a client certificate (mTLS). */
  TEMPORAL_TLS: z.enum(["true", "false", "1", "0", ""]).optional(),
  /** PEM contents (or *_FILE paths): the server's CA, and the client's certificate and key for mTLS. */
  TEMPORAL_TLS_CA: z.string().optional(),
  TEMPORAL_TLS_CERT: z.string().optional(),
  TEMPORAL_TLS_KEY: z.string().optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** Shortest secret accepted where real secrets are required. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Whether this process must run with real secrets: APP_ENV production or staging, or NODE_ENV=production
 * unless APP_ENV is explicitly "test" or "local" (the e2e suite and the benchmarks run the production
 * build with the public sandbox defaults; a deployment that forgets APP_ENV is treated as production).
 */
export function requiresRealSecrets(
  raw: Record<string, string | undefined>,
  env: Pick<Env, "NODE_ENV" | "APP_ENV">,
): boolean {
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
    if (value === "")
      problems.push(
        `${name}: required ${where}; set a random secret of at least ${MIN_SECRET_LENGTH} characters`,
      );
    else if (value === PUBLIC_SECRET_DEFAULTS[name])
      problems.push(`${name}: is the public sandbox default; set a real secret ${where}`);
    else if (value.length < MIN_SECRET_LENGTH)
      problems.push(`${name}: too short; use at least ${MIN_SECRET_LENGTH} characters ${where}`);
  }
  return problems;
}

/** What parseEnv found wrong, one line per variable (each line starts with the variable's name). */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join("; ")}`);
    this.name = "EnvError";
  }
}

/** Reads a secret file named by a `*_FILE` variable (the entry point passes fs; tests pass a stub). */
export type ReadFile = (path: string) => string;

/**
 * Every variable of the schema may come from a file instead (Docker secrets): `NAME_FILE=/run/secrets/name` sets
 * NAME to the file's contents, trailing whitespace trimmed. Setting both NAME and NAME_FILE is a problem.
 */
export function withFileVariables(
  raw: Record<string, string | undefined>,
  readFile: ReadFile | undefined,
): { vars: Record<string, string | undefined>; problems: string[] } {
  const vars = { ...raw };
  const problems: string[] = [];
  for (const name of Object.keys(EnvSchema.shape)) {
    const file = raw[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (raw[name]?.trim()) problems.push(`${name}: set either ${name} or ${name}_FILE, not both`);
    else if (!readFile) problems.push(`${name}_FILE: this process reads no secret files`);
    else {
      try {
        vars[name] = readFile(file).trimEnd();
      } catch (e) {
        problems.push(
          `${name}_FILE: cannot read ${file} (${(e as { code?: string }).code ?? "unreadable"})`,
        );
      }
    }
  }
  return { vars, problems };
}

const TLS_PAIR =
  "TEMPORAL_TLS_CERT: TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY (mTLS) are set together or not at all";

/**
 * Parses and checks an environment; throws an EnvError naming every bad variable. `readFile` reads the `*_FILE`
 * variables (withFileVariables); the production refusals are productionRefusals'.
 */
export function parseEnv(raw: Record<string, string | undefined>, readFile?: ReadFile): Env {
  const files = withFileVariables(raw, readFile);
  if (files.problems.length > 0) throw new EnvError(files.problems);
  const vars = files.vars;
  const parsed = EnvSchema.safeParse(vars);
  if (!parsed.success)
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  const keys = parsePayloadKeys(parsed.data);
  const tls =
    Boolean(parsed.data.TEMPORAL_TLS_CERT?.trim()) === Boolean(parsed.data.TEMPORAL_TLS_KEY?.trim())
      ? []
      : [TLS_PAIR];
  const problems = [
    ...keys.problems,
    ...tls,
    ...secretProblems(vars, parsed.data),
    ...productionRefusals(vars, parsed.data),
  ];
  if (problems.length > 0) throw new EnvError(problems);
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------------------
// The payload codec's keys (ADR 0040; temporal/codec.ts seals and opens with them).

/** Key ids and keys (base64 of 32 bytes) as the environment gives them, and the id new payloads take. */
export interface PayloadKeySpec {
  currentId: string;
  keys: { id: string; key: string }[];
}

/** The public key of local development and the tests: in the repository, so it protects nothing and production refuses it. */
export const DEV_PAYLOAD_KEYS = "dev:Wc79FR9yT6qhDFU7iG1FVv04xVEP5LhrozkxOkpuahg=";

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Standard base64 of 32 bytes. */
const KEY_32_BYTES = /^[A-Za-z0-9+/]{43}=$/;

function parsePayloadKeys(env: Pick<Env, "PAYLOAD_KEYS" | "PAYLOAD_KEY_CURRENT">): {
  spec: PayloadKeySpec | null;
  problems: string[];
} {
  const text = env.PAYLOAD_KEYS?.trim() || DEV_PAYLOAD_KEYS;
  const problems: string[] = [];
  const keys: PayloadKeySpec["keys"] = [];
  for (const entry of text.split(/[,\s]+/).filter(Boolean)) {
    const at = entry.indexOf(":");
    const id = entry.slice(0, at);
    const key = entry.slice(at + 1);
    if (at < 1 || !KEY_ID.test(id))
      problems.push(
        `PAYLOAD_KEYS: "${entry.slice(0, 12)}..." is not id:base64key (an id of letters, digits, . _ -)`,
      );
    else if (!KEY_32_BYTES.test(key))
      problems.push(
        `PAYLOAD_KEYS: key "${id}" is not 32 bytes in base64 (openssl rand -base64 32)`,
      );
    else if (keys.some((k) => k.id === id))
      problems.push(`PAYLOAD_KEYS: key id "${id}" is listed twice`);
    else keys.push({ id, key });
  }
  const currentId = env.PAYLOAD_KEY_CURRENT?.trim() || keys[keys.length - 1]?.id || "";
  if (env.PAYLOAD_KEY_CURRENT?.trim() && !keys.some((k) => k.id === currentId))
    problems.push(`PAYLOAD_KEY_CURRENT: "${currentId}" is not a key id of PAYLOAD_KEYS`);
  return problems.length > 0 || keys.length === 0
    ? { spec: null, problems }
    : { spec: { currentId, keys }, problems };
}

/** The payload keys of a parsed environment (the public development key when PAYLOAD_KEYS is empty). */
export function payloadKeysOf(
  env: Pick<Env, "PAYLOAD_KEYS" | "PAYLOAD_KEY_CURRENT">,
): PayloadKeySpec {
  const { spec, problems } = parsePayloadKeys(env);
  if (!spec) throw new EnvError(problems);
  return spec;
}

// ---------------------------------------------------------------------------------------------------------
// Production refuses to start on an unsafe setting (docs/operations.md, "Production refusals").

/**
 * Production: APP_ENV=production, or NODE_ENV=production with APP_ENV unset (a deployment that forgets APP_ENV
 * is treated as production). Staging (`npm run prod`) needs real secrets but may take sandbox payments.
 */
export function isProduction(
  raw: Record<string, string | undefined>,
  env: Pick<Env, "NODE_ENV" | "APP_ENV">,
): boolean {
  return env.APP_ENV === "production" || (env.NODE_ENV === "production" && !raw.APP_ENV?.trim());
}

/** Database passwords that are somebody's default (this project's own is "postgres"). */
const DEFAULT_DATABASE_PASSWORDS = new Set(["postgres", "password", "changeme", "secret"]);

/** The host of a "host:port" (or "[v6]:port") Temporal address is this machine. */
export function isLoopbackAddress(address: string): boolean {
  const host = (address.match(/^\[([^\]]+)\]/)?.[1] ?? address.replace(/:\d+$/, "")).toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** TLS to the Temporal frontend is on: TEMPORAL_TLS=true, or a client certificate is configured. */
export function temporalTlsOn(env: Pick<Env, "TEMPORAL_TLS" | "TEMPORAL_TLS_CERT">): boolean {
  return (
    env.TEMPORAL_TLS === "true" ||
    env.TEMPORAL_TLS === "1" ||
    Boolean(env.TEMPORAL_TLS_CERT?.trim())
  );
}

/**
 * The settings production refuses to start with, one line each, naming the variable first (empty when none).
 * Where real secrets are required (requiresRealSecrets: production and staging) a payload key is one of them;
 * in production also: payments that would not reach Stripe's live mode, the payload codec switched off, a default
 * or empty database password, and a Temporal frontend off this machine without TLS. The webhook secrets are secretProblems'.
 */
export function productionRefusals(raw: Record<string, string | undefined>, env: Env): string[] {
  const out: string[] = [];
  if (requiresRealSecrets(raw, env)) {
    const where = `in production and staging (APP_ENV=${raw.APP_ENV ?? "unset"})`;
    if (!env.PAYLOAD_KEYS?.trim())
      out.push(
        `PAYLOAD_KEYS: required ${where}; set PAYLOAD_KEYS or PAYLOAD_KEYS_FILE (docs/operations.md, "Payload encryption keys")`,
      );
    else if (env.PAYLOAD_KEYS.includes(DEV_PAYLOAD_KEYS.slice(DEV_PAYLOAD_KEYS.indexOf(":") + 1)))
      out.push(
        `PAYLOAD_KEYS: holds the public development key; make real keys (openssl rand -base64 32) ${where}`,
      );
  }
  if (!isProduction(raw, env)) return out;
  const stripeKey = env.STRIPE_SECRET_KEY?.trim() ?? "";
  if (!stripeKey)
    out.push(
      "STRIPE_SECRET_KEY: empty, so payments would go to the sandbox; set the live secret key (sk_live_...) in production",
    );
  else if (/^(sk|rk)_test_/.test(stripeKey))
    out.push(
      "STRIPE_SECRET_KEY: a test-mode key (sk_test_...), so no real payment would be taken; set the live key in production",
    );
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim() ?? "";
  if (stripeKey && !publishableKey)
    out.push(
      "STRIPE_PUBLISHABLE_KEY: empty, so the payout and card forms could not make the provider's tokens (Stripe.js); set the live publishable key (pk_live_...) in production",
    );
  else if (stripeKey && /^pk_test_/.test(publishableKey))
    out.push(
      "STRIPE_PUBLISHABLE_KEY: a test-mode key (pk_test_...) beside a live secret key; set the live publishable key in production",
    );
  if (env.PAYLOAD_CODEC === "off")
    out.push(
      "PAYLOAD_CODEC: off, so payloads would reach Temporal unencrypted; it is for benchmarks only, unset it in production",
    );
  if (env.STRIPE_API_HOST?.trim())
    out.push(
      `STRIPE_API_HOST: payments would go to ${env.STRIPE_API_HOST}, not to Stripe; unset it in production`,
    );
  out.push(...databasePasswordRefusals(env.DATABASE_URL));
  if (!isLoopbackAddress(env.TEMPORAL_ADDRESS) && !temporalTlsOn(env))
    out.push(
      `TEMPORAL_ADDRESS: ${env.TEMPORAL_ADDRESS} is not on this machine and TLS is off; set TEMPORAL_TLS=true (or TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY) in production`,
    );
  return out;
}

function databasePasswordRefusals(databaseUrl: string): string[] {
  let password: string;
  try {
    password = decodeURIComponent(new URL(databaseUrl).password);
  } catch {
    return ["DATABASE_URL: not a postgres://user:password@host:port/database URL"];
  }
  if (!password)
    return [
      "DATABASE_URL: the database password is empty; set a real one (or DATABASE_URL_FILE) in production",
    ];
  if (DEFAULT_DATABASE_PASSWORDS.has(password.toLowerCase()))
    return [
      `DATABASE_URL: the database password is a default ("${password}"); set a real one (or DATABASE_URL_FILE) in production`,
    ];
  return [];
}

/** Payments go to Stripe when a secret key is configured, to the sandbox otherwise. */
export function paymentsProviderOf(env: Pick<Env, "STRIPE_SECRET_KEY">): "stripe" | "sandbox" {
  return env.STRIPE_SECRET_KEY ? "stripe" : "sandbox";
}
