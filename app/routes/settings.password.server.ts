/**
 * Settings → Password, server half (docs/product/screens.md, "Settings and payout"; ADR 0041): the user's own
 * password changed with the current one; every other session of the user ends (and any sign-in waiting for
 * its code), this one stays. Wrong current
 * passwords count against the sign-in throttle, as at sign-in.
 */
import { data } from "@remix-run/node";
import { ChangePasswordSchema, MSG } from "../../domain/accounts";
import { endUserSignInChallenges } from "../../db/queries/two-factor";
import { findUserById, setUserPasswordHash } from "../../db/queries/users";
import type { AuthContext } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission, readFormData } from "~/utils/form.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { endOtherSessions } from "~/utils/session.server";
import { checkLoginThrottle, noteLoginAttempt, throttleConfig } from "~/utils/throttle.server";

const SECRET_FIELDS = ["current_password", "new_password", "confirm"];

export async function changePasswordAction(request: Request, auth: AuthContext, ip: string) {
  const submission = parseSubmission(await readFormData(request), { schema: ChangePasswordSchema });
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ hideFields: SECRET_FIELDS }), changed: false },
      { status: 400 },
    );
  }
  const email = auth.user.email;
  const verdict = await checkLoginThrottle(db, throttleConfig(getEnv()), { email, ip });
  if (verdict.limited) {
    return data(
      {
        result: submission.reply({ hideFields: SECRET_FIELDS, formErrors: [verdict.message] }),
        changed: false,
      },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  const user = await findUserById(db, auth.user.id);
  const ok = !!user && (await verifyPassword(user.passwordHash, submission.value.current_password));
  await noteLoginAttempt(db, { email, ip, succeeded: ok });
  if (!ok) {
    return data(
      {
        result: submission.reply({
          hideFields: SECRET_FIELDS,
          fieldErrors: { current_password: [MSG.currentPasswordWrong] },
        }),
        changed: false,
      },
      { status: 400 },
    );
  }
  await setUserPasswordHash(db, auth.user.id, await hashPassword(submission.value.new_password));
  await endOtherSessions(auth.user.id, auth.session.id);
  await endUserSignInChallenges(db, auth.user.id);
  return { result: submission.reply({ resetForm: true }), changed: true };
}
