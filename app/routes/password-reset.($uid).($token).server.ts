/**
 * The password reset's server half (docs/product/screens.md, "Sign-in, registration and password reset"):
 * which stage the page shows, and one function per form: the e-mail that asks for a link, and the new
 * password set through the link. The answers are Conform replies (with whether the link is spent).
 */
import { data, redirect } from "@remix-run/node";
import { MSG, ResetConfirmSchema, ResetRequestSchema } from "../../domain/accounts";
import {
  consumeResetToken,
  findUserByEmail,
  findUserById,
  isResetTokenUsable,
  replaceResetToken,
  setUserPasswordHash,
} from "../../db/queries/users";
import { endUserSignInChallenges } from "../../db/queries/two-factor";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { resetLink, sendResetMail } from "~/utils/reset-mail.server";
import {
  RESET_TOKEN_TTL_MS,
  generateResetToken,
  hashPassword,
  hashResetToken,
  looksLikeResetToken,
} from "~/utils/password.server";
import { endAllSessions } from "~/utils/session.server";
import { admitAccountRequest, liftLoginThrottle, throttleConfig } from "~/utils/throttle.server";
import { finishFirstFactor } from "~/utils/two-factor.server";

function parseUid(uid: string | undefined): number | null {
  if (!uid || !/^\d{1,9}$/.test(uid)) return null;
  return Number(uid);
}

async function tokenUsable(
  uid: string | undefined,
  token: string | undefined,
): Promise<{ userId: number; tokenHash: string } | null> {
  const userId = parseUid(uid);
  if (userId === null || !looksLikeResetToken(token)) return null;
  const tokenHash = hashResetToken(token);
  return (await isResetTokenUsable(db, userId, tokenHash)) ? { userId, tokenHash } : null;
}

type Stage = "email" | "sent" | "confirm" | "invalid";

/** Which form the page shows: the e-mail, "sent", the new password (a usable link) or "Start Over". */
export async function resetStage(
  request: Request,
  params: { uid?: string; token?: string },
): Promise<{ stage: Stage }> {
  if (params.uid !== undefined) {
    return { stage: (await tokenUsable(params.uid, params.token)) ? "confirm" : "invalid" };
  }
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { stage: sent ? "sent" : "email" };
}

/** Writes the reset token and queues the e-mail (after the answer; see requestReset). */
async function writeTokenAndMail(
  user: { id: number; email: string },
  token: string,
  tokenHash: string,
): Promise<void> {
  await replaceResetToken(db, user.id, tokenHash, new Date(Date.now() + RESET_TOKEN_TTL_MS));
  await sendResetMail(user.email, resetLink(user.id, token), "user");
}

/** Step 1, the e-mail: the same answer whether or not the address has an account. */
export async function requestReset(formData: FormData, ip: string) {
  const submission = parseSubmission(formData, { schema: ResetRequestSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), tokenInvalid: false }, { status: 400 });
  const { email } = submission.value;
  const verdict = await admitAccountRequest(db, throttleConfig(getEnv()), "password_reset", {
    email,
    ip,
  });
  if (verdict.limited) {
    return data(
      { result: submission.reply({ formErrors: [verdict.message] }), tokenInvalid: false },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  // The same work on the request's path whether or not the address has an account (one lookup, one
  // token); the token row and the e-mail are written after the answer, so timing tells nothing (ADR 0003).
  const user = await findUserByEmail(db, email);
  const token = generateResetToken();
  const tokenHash = hashResetToken(token);
  if (user && !user.deactivatedAt) {
    setImmediate(() => {
      writeTokenAndMail(user, token, tokenHash).catch((err) =>
        console.error("[password-reset] sending the reset e-mail failed", err),
      );
    });
  }
  return redirect("/password-reset?sent=1");
}

/** Step 3, the new password through the link (uid and token of the URL); then signed in, every other session ended. */
export async function setNewPassword(
  formData: FormData,
  params: { uid?: string; token?: string },
  ip: string,
) {
  const submission = parseSubmission(formData, { schema: ResetConfirmSchema });
  if (submission.status !== "success") {
    return data(
      {
        result: submission.reply({ hideFields: ["new_password", "confirm"] }),
        tokenInvalid: false,
      },
      { status: 400 },
    );
  }
  const userId = parseUid(params.uid);
  const token = params.token;
  const consumed =
    userId !== null &&
    looksLikeResetToken(token) &&
    (await consumeResetToken(db, userId, hashResetToken(token)));
  const user = consumed && userId !== null ? await findUserById(db, userId) : null;
  if (!consumed || !user) {
    return data(
      {
        result: submission.reply({
          hideFields: ["new_password", "confirm"],
          formErrors: [MSG.resetTokenInvalid],
        }),
        tokenInvalid: true,
      },
      { status: 400 },
    );
  }
  await setUserPasswordHash(db, user.id, await hashPassword(submission.value.new_password));
  await endAllSessions(user.id); // every session of the user is revoked
  await endUserSignInChallenges(db, user.id); // and every sign-in waiting for its code
  // The link proved ownership: the e-mail's sign-in throttle starts over (ADR 0003).
  await liftLoginThrottle(db, { email: user.email, ip });
  // Signed in, unless two-factor is on: then the code step first (a reset link proves the e-mail, not the phone; ADR 0041).
  return finishFirstFactor(user, "/?ref=resetSuccessful", "/?ref=resetSuccessful");
}
