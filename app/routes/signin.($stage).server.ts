/**
 * Sign-in's server half (docs/product/screens.md, "Sign-in, registration and password reset" and
 * "Two-factor sign-in"): the password step, then for a user with two-factor on the code step (ADR 0041).
 * Both steps are throttled, each under its own key.
 */
import { data, redirect } from "@remix-run/node";
import { MSG, SignInSchema, TwoFactorCodeSchema, safeNextPath } from "../../domain/accounts";
import { findUserByEmail, touchLastLogin } from "../../db/queries/users";
import { landingPath } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { verifyAgainstDummy, verifyPassword } from "~/utils/password.server";
import {
  checkCodeThrottle,
  checkLoginThrottle,
  noteCodeAttempt,
  noteLoginAttempt,
  throttleConfig,
} from "~/utils/throttle.server";
import {
  completeSignIn,
  finishFirstFactor,
  pendingSignIn,
  verifySecondFactor,
} from "~/utils/two-factor.server";

/** Step 1: e-mail and password. */
export async function passwordStep(formData: FormData, ip: string) {
  const submission = parseSubmission(formData, { schema: SignInSchema });
  if (submission.status !== "success") {
    return data(
      {
        result: submission.reply({ hideFields: ["password"] }),
        loginFailed: false,
        throttled: null as string | null,
      },
      { status: 400 },
    );
  }
  const { email, password, next } = submission.value;
  const verdict = await checkLoginThrottle(db, throttleConfig(getEnv()), { email, ip });
  if (verdict.limited) {
    return data(
      {
        result: submission.reply({ hideFields: ["password"], formErrors: [verdict.message] }),
        loginFailed: false,
        throttled: verdict.message,
      },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  const found = await findUserByEmail(db, email);
  // A deactivated account is answered as a wrong password (docs/product/screens.md, "Staff users").
  const user = found?.deactivatedAt ? null : found;
  const ok = user
    ? await verifyPassword(user.passwordHash, password)
    : await verifyAgainstDummy(password);
  await noteLoginAttempt(db, { email, ip, succeeded: ok && !!user });
  if (!ok || !user) {
    // The same answer for an unknown e-mail and a wrong password (docs/product/glossary.md, "Anonymity").
    return data(
      {
        result: submission.reply({ hideFields: ["password"], formErrors: [MSG.loginFailed] }),
        loginFailed: true,
        throttled: null,
      },
      { status: 401 },
    );
  }
  await touchLastLogin(db, user.id);
  const safeNext = safeNextPath(next);
  return finishFirstFactor(
    user,
    landingPath({ user: { isStaff: user.isStaff } }, safeNext),
    safeNext,
  );
}

/** Step 2 (two-factor on): the code of the sign-in waiting in this browser's cookie. */
export async function codeStep(request: Request, formData: FormData, ip: string) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect("/signin");
  const submission = parseSubmission(formData, { schema: TwoFactorCodeSchema });
  if (submission.status !== "success") {
    return data(
      {
        result: submission.reply({ hideFields: ["code"] }),
        loginFailed: false,
        throttled: null as string | null,
      },
      { status: 400 },
    );
  }
  const verdict = await checkCodeThrottle(
    db,
    throttleConfig(getEnv()),
    { email: pending.email, ip },
    MSG.codeThrottled,
  );
  if (verdict.limited) {
    return data(
      {
        result: submission.reply({ hideFields: ["code"], formErrors: [verdict.message] }),
        loginFailed: false,
        throttled: verdict.message,
      },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  const ok = await verifySecondFactor(pending.userId, submission.value.code);
  await noteCodeAttempt(db, { email: pending.email, ip, succeeded: ok });
  if (!ok) {
    return data(
      {
        result: submission.reply({ hideFields: ["code"], formErrors: [MSG.codeInvalid] }),
        loginFailed: false,
        throttled: null,
      },
      { status: 401 },
    );
  }
  return completeSignIn(pending, landingPath({ user: { isStaff: pending.isStaff } }, pending.next));
}

/** The code step's page: only with a sign-in waiting for its code. */
export async function codeStage(request: Request) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect("/signin");
  return { email: pending.email };
}
