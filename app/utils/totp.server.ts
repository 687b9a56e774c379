/**
 * The codes of two-factor sign-in, without I/O (ADR 0041): TOTP (RFC 6238 with the authenticator apps'
 * defaults: SHA-1, 6 digits, 30 seconds) through otplib, and the recovery codes. Table-tested in
 * tests/unit/two-factor.test.ts.
 */
import { randomBytes } from "node:crypto";
import { generateSecret, generateURI, verifySync } from "otplib";
import { secretHash } from "../../db/secret-hash";

export const TOTP_ISSUER = "Wholesale Exchange";
/** A code of the previous or the next 30-second step is accepted too (a phone's clock a little off). */
export const TOTP_TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUri(email: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

export type TotpCheck = { ok: true; step: number } | { ok: false };

/**
 * The TOTP check: `code` is the code of the step of `epochSeconds` or of the step before or after, and of a
 * later step than `lastStep` (the last code accepted), so a code seen once is refused afterwards.
 */
export function checkTotp(
  secret: string,
  code: string,
  lastStep: number | null,
  epochSeconds = Math.floor(Date.now() / 1000),
): TotpCheck {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return { ok: false };
  try {
    const r = verifySync({
      secret,
      token,
      epoch: epochSeconds,
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
    });
    return r.valid && "timeStep" in r ? { ok: true, step: r.timeStep } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** Ten recovery codes, each 10 characters of base32 (50 random bits) shown as "xxxxx-xxxxx". */
export function newRecoveryCodes(): string[] {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => alphabet[b & 31]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored of a recovery code: the SHA-256 of its letters (case, spaces and dashes ignored). */
export function hashRecoveryCode(code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]+/g, "");
  return secretHash(normal);
}
