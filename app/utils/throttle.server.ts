import { countRecentEmailFailures, countRecentIpFailures, recordLoginAttempt } from "../../db/queries/users";
import type { Db } from "../../db/client";

/**
 * Sign-in throttling (ADR 0003). Within LOGIN_THROTTLE_WINDOW_SECONDS:
 * - per e-mail: LOGIN_THROTTLE_MAX failures since that e-mail's last successful sign-in;
 * - per client address: LOGIN_THROTTLE_MAX x IP_FACTOR failures (all e-mails; several people of one
 *   store share an address).
 * A throttled attempt is answered 429 without checking the password and is not recorded.
 */
export const IP_FACTOR = 4;

export type ThrottleConfig = { max: number; windowSeconds: number };

export type ThrottleVerdict = { limited: false } | { limited: true; retryAfterSeconds: number; message: string };

export function throttleMessage(windowSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(windowSeconds / 60));
  return `Too many failed sign-in attempts. For your security, please wait ${minutes} minutes and try again, or reset your password.`;
}

export async function checkLoginThrottle(
  db: Db,
  cfg: ThrottleConfig,
  input: { email: string; ip: string },
  now: Date = new Date(),
): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - cfg.windowSeconds * 1000);
  const [byEmail, byIp] = await Promise.all([
    countRecentEmailFailures(db, input.email, since),
    countRecentIpFailures(db, input.ip, since),
  ]);
  if (byEmail >= cfg.max || byIp >= cfg.max * IP_FACTOR) {
    return { limited: true, retryAfterSeconds: cfg.windowSeconds, message: throttleMessage(cfg.windowSeconds) };
  }
  return { limited: false };
}

export async function noteLoginAttempt(db: Db, input: { email: string; ip: string; succeeded: boolean }): Promise<void> {
  await recordLoginAttempt(db, input);
}
