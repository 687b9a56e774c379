/**
 * Settings → Two-factor sign-in, server half (docs/product/screens.md, "Two-factor sign-in"; ADR 0041): the
 * state of the user's own two-factor, and one function per intent: start set-up (a new secret), turn on (the
 * first code confirms it; the recovery codes are returned once), turn off (a current code). Turning it on or
 * off ends the user's other sessions.
 */
import { data } from "@remix-run/node";
import { MSG, TwoFactorCodeSchema } from "../../domain/accounts";
import {
  acceptTotpStep,
  disableTwoFactor,
  enableTwoFactor,
  recoveryCodesLeft,
  startTwoFactorSetup,
  twoFactorState,
} from "../../db/queries/two-factor";
import type { AuthContext } from "~/utils/auth.server";
import { mustSetUpTwoFactor } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { endOtherSessions } from "~/utils/session.server";
import { checkCodeThrottle, noteCodeAttempt, throttleConfig } from "~/utils/throttle.server";
import {
  checkTotp,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
} from "~/utils/totp.server";
import { verifySecondFactor } from "~/utils/two-factor.server";

const at = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ") + " UTC";

export async function twoFactorLoader(auth: AuthContext) {
  const state = await twoFactorState(db, auth.user.id);
  const required = mustSetUpTwoFactor(auth);
  if (state.enabledAt) {
    return {
      status: "on" as const,
      since: at(state.enabledAt),
      codesLeft: await recoveryCodesLeft(db, auth.user.id),
      required,
    };
  }
  if (state.secret) {
    return {
      status: "pending" as const,
      secret: state.secret,
      uri: otpauthUri(auth.user.email, state.secret),
      required,
    };
  }
  return { status: "off" as const, required };
}

type Reply = ReturnType<typeof formError>;
type Answer = { result: Reply; recoveryCodes: string[] | null };

export async function twoFactorAction(request: Request, auth: AuthContext, ip: string) {
  const form = await readFormData(request);
  switch (form.get("intent")) {
    case "start":
      return startSetup(auth);
    case "enable":
      return turnOn(form, auth, ip);
    case "disable":
      return turnOff(form, auth, ip);
    default:
      return data<Answer>(
        { result: formError("Unknown action."), recoveryCodes: null },
        { status: 400 },
      );
  }
}

async function startSetup(auth: AuthContext) {
  if (!(await startTwoFactorSetup(db, auth.user.id, newTotpSecret()))) {
    return data<Answer>(
      { result: formError("Two-factor sign-in is already on."), recoveryCodes: null },
      { status: 409 },
    );
  }
  return data<Answer>({ result: { status: "success" }, recoveryCodes: null });
}

/** A code refused (wrong, throttled) or accepted; wrong codes count against the user's code throttle. */
async function checkedCode(
  form: FormData,
  auth: AuthContext,
  ip: string,
  check: (code: string) => Promise<boolean>,
) {
  const submission = parseSubmission(form, { schema: TwoFactorCodeSchema });
  if (submission.status !== "success")
    return {
      refusal: data<Answer>({ result: submission.reply(), recoveryCodes: null }, { status: 400 }),
    };
  const verdict = await checkCodeThrottle(
    db,
    throttleConfig(getEnv()),
    { email: auth.user.email, ip },
    MSG.codeThrottled,
  );
  if (verdict.limited) {
    return {
      refusal: data<Answer>(
        { result: submission.reply({ formErrors: [verdict.message] }), recoveryCodes: null },
        { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
      ),
    };
  }
  const ok = await check(submission.value.code);
  await noteCodeAttempt(db, { email: auth.user.email, ip, succeeded: ok });
  if (!ok)
    return {
      refusal: data<Answer>(
        { result: submission.reply({ formErrors: [MSG.codeInvalid] }), recoveryCodes: null },
        { status: 400 },
      ),
    };
  return { submission };
}

async function turnOn(form: FormData, auth: AuthContext, ip: string) {
  const state = await twoFactorState(db, auth.user.id);
  if (state.enabledAt || !state.secret) {
    return data<Answer>(
      { result: formError("Start the set-up first."), recoveryCodes: null },
      { status: 409 },
    );
  }
  const secret = state.secret;
  const checked = await checkedCode(form, auth, ip, async (code) => {
    const totp = checkTotp(secret, code, state.lastStep);
    return totp.ok && (await acceptTotpStep(db, auth.user.id, totp.step));
  });
  if (checked.refusal) return checked.refusal;
  const codes = newRecoveryCodes();
  if (!(await enableTwoFactor(db, auth.user.id, codes.map(hashRecoveryCode)))) {
    return data<Answer>(
      { result: formError("Two-factor sign-in is already on."), recoveryCodes: null },
      { status: 409 },
    );
  }
  await endOtherSessions(auth.user.id, auth.session.id);
  return data<Answer>({
    result: checked.submission.reply({ resetForm: true }),
    recoveryCodes: codes,
  });
}

async function turnOff(form: FormData, auth: AuthContext, ip: string) {
  const state = await twoFactorState(db, auth.user.id);
  if (!state.enabledAt)
    return data<Answer>(
      { result: formError("Two-factor sign-in is off."), recoveryCodes: null },
      { status: 409 },
    );
  const checked = await checkedCode(form, auth, ip, (code) =>
    verifySecondFactor(auth.user.id, code),
  );
  if (checked.refusal) return checked.refusal;
  await disableTwoFactor(db, auth.user.id);
  await endOtherSessions(auth.user.id, auth.session.id);
  return data<Answer>({
    result: checked.submission.reply({ resetForm: true }),
    recoveryCodes: null,
  });
}
