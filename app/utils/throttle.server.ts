import type { HeadersFunction } from "@remix-run/node";
import type { Db } from "../../db/client";
import {
  accountRequestCounts,
  loginFailureCounts,
  recordAccountRequest,
  type AccountRequestKind,
} from "../../db/queries/throttle";
import { recordLoginAttempt } from "../../db/queries/users";

/**
 * Throttling of the account forms (docs/guides/sessions-and-auth.md "Throttling"). Window LOGIN_THROTTLE_WINDOW_SECONDS, limit
 * LOGIN_THROTTLE_MAX (max).
 *
 * Sign-in, failures within the window, counted since the e-mail's last success (sign-in or password reset):
 * - one e-mail from one client address: max (an attacker's guesses; the owner elsewhere is not affected);
 * - one e-mail from all addresses: max x IP_FACTOR (distributed guessing; a password reset lifts it);
 * - one client address, all e-mails: max x IP_FACTOR (several people of one store share an address).
 * A throttled attempt is answered 429 without checking the password and is not recorded.
 *
 * Register and password-reset requests (valid forms), within the window:
 * - per e-mail: ACCOUNT_REQUESTS_PER_EMAIL (mail bombing one address, probing one address);
 * - per client address: max x IP_FACTOR.
 * A throttled request is answered 429 and not recorded.
 */
export const IP_FACTOR = 4;
export const ACCOUNT_REQUESTS_PER_EMAIL = 3;

export type ThrottleConfig = { max: number; windowSeconds: number };

export type ThrottleVerdict =
  | { limited: false }
  | { limited: true; retryAfterSeconds: number; message: string };

const minutes = (windowSeconds: number) => Math.max(1, Math.ceil(windowSeconds / 60));

export function throttleMessage(windowSeconds: number): string {
  return `Too many failed sign-in attempts. For your security, please wait ${minutes(windowSeconds)} minutes and try again, or reset your password.`;
}

export function accountRequestMessage(kind: AccountRequestKind, windowSeconds: number): string {
  const what = kind === "register" ? "registration attempts" : "password reset requests";
  return `Too many ${what}. Please wait ${minutes(windowSeconds)} minutes and try again.`;
}

const limited = (cfg: ThrottleConfig, message: string): ThrottleVerdict => ({
  limited: true,
  retryAfterSeconds: cfg.windowSeconds,
  message,
});
const windowStart = (cfg: ThrottleConfig, now: Date) =>
  new Date(now.getTime() - cfg.windowSeconds * 1000);

export async function checkLoginThrottle(
  db: Db,
  cfg: ThrottleConfig,
  input: { email: string; ip: string },
  now = new Date(),
): Promise<ThrottleVerdict> {
  const n = await loginFailureCounts(db, input.email, input.ip, windowStart(cfg, now));
  if (n.pair >= cfg.max || n.email >= cfg.max * IP_FACTOR || n.ip >= cfg.max * IP_FACTOR) {
    return limited(cfg, throttleMessage(cfg.windowSeconds));
  }
  return { limited: false };
}

export async function noteLoginAttempt(
  db: Db,
  input: { email: string; ip: string; succeeded: boolean },
): Promise<void> {
  await recordLoginAttempt(db, input);
}

/**
 * Two-factor codes are throttled as passwords are, counted under their own key ("2fa:" and the e-mail), so
 * wrong codes and wrong passwords have limits of their own (ADR 0041).
 */
const codeKey = (email: string) => `2fa:${email}`;

export async function checkCodeThrottle(
  db: Db,
  cfg: ThrottleConfig,
  input: { email: string; ip: string },
  message: string,
): Promise<ThrottleVerdict> {
  const verdict = await checkLoginThrottle(db, cfg, { email: codeKey(input.email), ip: input.ip });
  return verdict.limited ? { ...verdict, message } : verdict;
}

export async function noteCodeAttempt(
  db: Db,
  input: { email: string; ip: string; succeeded: boolean },
): Promise<void> {
  await recordLoginAttempt(db, { ...input, email: codeKey(input.email) });
}

/** A successful password reset proves the owner: it counts as a success, lifting the e-mail's sign-in limits. */
export async function liftLoginThrottle(
  db: Db,
  input: { email: string; ip: string },
): Promise<void> {
  await recordLoginAttempt(db, { ...input, succeeded: true });
}

/** Checks a register or password-reset request and, when allowed, records it. */
export async function admitAccountRequest(
  db: Db,
  cfg: ThrottleConfig,
  kind: AccountRequestKind,
  input: { email: string; ip: string },
  now = new Date(),
): Promise<ThrottleVerdict> {
  const n = await accountRequestCounts(db, kind, input.email, input.ip, windowStart(cfg, now));
  if (n.email >= ACCOUNT_REQUESTS_PER_EMAIL || n.ip >= cfg.max * IP_FACTOR)
    return limited(cfg, accountRequestMessage(kind, cfg.windowSeconds));
  await recordAccountRequest(db, { kind, email: input.email, ip: input.ip, at: now });
  return { limited: false };
}

export function throttleConfig(env: {
  LOGIN_THROTTLE_MAX: number;
  LOGIN_THROTTLE_WINDOW_SECONDS: number;
}): ThrottleConfig {
  return { max: env.LOGIN_THROTTLE_MAX, windowSeconds: env.LOGIN_THROTTLE_WINDOW_SECONDS };
}

/** Passes a throttled action's Retry-After through to the document response (sign-in, register, reset). */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const out = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) out.set("Retry-After", retryAfter);
  return out;
};

/** The client address Express put in the load context (empty when unknown). */
export function clientIp(context: unknown): string {
  const ip = (context as { clientIp?: unknown } | undefined)?.clientIp;
  return typeof ip === "string" ? ip : "";
}
