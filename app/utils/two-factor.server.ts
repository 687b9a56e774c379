/**
 * Two-factor sign-in (ADR 0041; docs/product/screens.md, "Two-factor sign-in"): a user's code checked against
 * the database (a TOTP code accepted once, a recovery code used up; the codes themselves: ./totp.server), and
 * the sign-in that waits for its code (a random token in a short-lived cookie, its SHA-256 in the database).
 */
import { randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { findUserById } from "../../db/queries/users";
import {
  acceptTotpStep,
  createSignInChallenge,
  endSignInChallenge,
  findSignInChallenge,
  twoFactorState,
  useRecoveryCode,
} from "../../db/queries/two-factor";
import { commitSession } from "./auth.server";
import { db } from "./db.server";
import { getEnv } from "./env.server";
import { checkTotp, hashRecoveryCode } from "./totp.server";
import { secretHash } from "../../db/secret-hash";

/**
 * Checks a code given by a user who has two-factor on: a TOTP code (accepted once), else a recovery code
 * (used up). False for anything else.
 */
export async function verifySecondFactor(userId: number, code: string): Promise<boolean> {
  const state = await twoFactorState(db, userId);
  if (!state.secret) return false;
  const totp = checkTotp(state.secret, code, state.lastStep);
  if (totp.ok) return acceptTotpStep(db, userId, totp.step);
  if (/^\s*\d{6}\s*$/.test(code)) return false;
  return useRecoveryCode(db, userId, hashRecoveryCode(code));
}

// ---------------------------------------------------------------------------------------------
// The sign-in waiting for its code

/** How long a sign-in waits for its code. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

const challengeCookie = createCookie("wx_2fa", {
  httpOnly: true,
  sameSite: "lax",
  path: "/signin",
  maxAge: CHALLENGE_TTL_SECONDS,
});

function secureCookie(): boolean {
  const env = getEnv();
  return env.NODE_ENV === "production" && env.APP_ORIGIN.startsWith("https:");
}

const hashToken = secretHash;

/**
 * After the password (or a reset link): a user with two-factor on gets the code step, anyone else a session.
 * Returns the redirect to follow.
 */
export async function finishFirstFactor(
  user: { id: number; isStaff: boolean },
  destination: string,
  next: string | null,
): Promise<Response> {
  const state = await twoFactorState(db, user.id);
  if (!state.enabledAt) {
    return redirect(destination, { headers: { "Set-Cookie": await commitSession(user.id) } });
  }
  const token = randomBytes(32).toString("base64url");
  await createSignInChallenge(db, {
    tokenHash: hashToken(token),
    userId: user.id,
    next,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
  });
  const setCookie = await challengeCookie.serialize(token, { secure: secureCookie() });
  return redirect("/signin/code", { headers: { "Set-Cookie": setCookie } });
}

/** The sign-in waiting for a code in this request's cookie (null when none, expired or used). */
export async function pendingSignIn(request: Request) {
  const token: unknown = await challengeCookie.parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || token.length < 20 || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const found = await findSignInChallenge(db, tokenHash);
  return found ? { ...found, tokenHash } : null;
}

/** The code was right: the waiting sign-in ends and the session starts (both cookies in the answer). */
export async function completeSignIn(
  pending: { tokenHash: string; userId: number },
  destination: string,
): Promise<Response> {
  await endSignInChallenge(db, pending.tokenHash);
  const user = await findUserById(db, pending.userId);
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    await challengeCookie.serialize("", { maxAge: 0, secure: secureCookie() }),
  );
  if (user && !user.deactivatedAt) headers.append("Set-Cookie", await commitSession(user.id));
  return redirect(user && !user.deactivatedAt ? destination : "/signin", { headers });
}
