import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MSG, PASSWORD_MIN, ResetConfirmSchema, ResetRequestSchema } from "../../domain/accounts";
import {
  consumeResetToken,
  findUserByEmail,
  findUserById,
  isResetTokenUsable,
  replaceResetToken,
  setUserPasswordHash,
} from "../../db/queries/users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { commitSession, readFormData } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { absoluteUrl, sendMail } from "~/utils/mail.server";
import {
  RESET_TOKEN_TTL_MS,
  generateResetToken,
  hashPassword,
  hashResetToken,
  looksLikeResetToken,
} from "~/utils/password.server";
import { endAllSessions } from "~/utils/session.server";
import { getEnv } from "~/utils/env.server";
import { admitAccountRequest, liftLoginThrottle, throttleConfig } from "~/utils/throttle.server";
import { clientIp, retryAfterHeaders } from "./__accounts-ui";
import { ErrorList, Field } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Reset your password") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];
/** Pass the throttle's Retry-After through to the document response. */
export const headers = retryAfterHeaders;

function parseUid(uid: string | undefined): number | null {
  if (!uid || !/^\d{1,9}$/.test(uid)) return null;
  return Number(uid);
}

async function tokenUsable(uid: string | undefined, token: string | undefined): Promise<{ userId: number; tokenHash: string } | null> {
  const userId = parseUid(uid);
  if (userId === null || !looksLikeResetToken(token)) return null;
  const tokenHash = hashResetToken(token);
  return (await isResetTokenUsable(db, userId, tokenHash)) ? { userId, tokenHash } : null;
}

type Stage = "email" | "sent" | "confirm" | "invalid";

export async function loader({ request, params }: LoaderFunctionArgs): Promise<{ stage: Stage }> {
  if (params.uid !== undefined) {
    return { stage: (await tokenUsable(params.uid, params.token)) ? "confirm" : "invalid" };
  }
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { stage: sent ? "sent" : "email" };
}

/** Writes the reset token and queues the e-mail (after the answer; see the action). */
async function sendResetMail(user: { id: number; email: string }, token: string, tokenHash: string): Promise<void> {
  await replaceResetToken(db, user.id, tokenHash, new Date(Date.now() + RESET_TOKEN_TTL_MS));
  const link = absoluteUrl(`/password-reset/${user.id}/${token}`);
  await sendMail({
    to: user.email,
    subject: "Reset your Wholesale Exchange password",
    kind: "password_reset",
    text: [
      "Hello,",
      "",
      "Someone (hopefully you) asked to reset the password of your Wholesale Exchange account.",
      "Open this link to choose a new password. It works once, for one hour:",
      "",
      link,
      "",
      "If you did not ask for this, you can ignore this e-mail; your password stays the same.",
    ].join("\n"),
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  if (params.uid === undefined) {
    // Step 1: e-mail. The same answer whether or not the address has an account.
    const submission = parseSubmission(formData, { schema: ResetRequestSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), tokenInvalid: false }, { status: 400 });
    const { email } = submission.value;
    const verdict = await admitAccountRequest(db, throttleConfig(getEnv()), "password_reset", { email, ip: clientIp(context) });
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
    if (user) {
      setImmediate(() => {
        sendResetMail(user, token, tokenHash).catch((err) => console.error("[password-reset] sending the reset e-mail failed", err));
      });
    }
    return redirect("/password-reset?sent=1");
  }
  // Step 3: new password.
  const submission = parseSubmission(formData, { schema: ResetConfirmSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["new_password", "confirm"] }), tokenInvalid: false }, { status: 400 });
  }
  const userId = parseUid(params.uid);
  const token = params.token;
  const consumed = userId !== null && looksLikeResetToken(token) && (await consumeResetToken(db, userId, hashResetToken(token)));
  const user = consumed && userId !== null ? await findUserById(db, userId) : null;
  if (!consumed || !user) {
    return data({ result: submission.reply({ hideFields: ["new_password", "confirm"], formErrors: [MSG.resetTokenInvalid] }), tokenInvalid: true }, { status: 400 });
  }
  await setUserPasswordHash(db, user.id, await hashPassword(submission.value.new_password));
  await endAllSessions(user.id); // every session of the user is revoked
  // The link proved ownership: the e-mail's sign-in throttle starts over (ADR 0003).
  await liftLoginThrottle(db, { email: user.email, ip: clientIp(context) });
  const setCookie = await commitSession(user.id);
  return redirect("/?ref=resetSuccessful", { headers: { "Set-Cookie": setCookie } });
}

function StartOver() {
  return (
    <div className="alert alert-danger" role="alert" data-testid="reset-invalid">
      <p>{MSG.resetTokenInvalid}</p>
      <p>
        <Link to="/password-reset">Start Over</Link>
      </p>
    </div>
  );
}

export default function PasswordReset() {
  const { stage } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const lastResult = navigation.state === "idle" ? actionData?.result : null;

  const [emailForm, emailFields] = useForm({
    id: "reset-email",
    lastResult: stage === "email" ? lastResult : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetRequestSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [pwForm, pwFields] = useForm({
    id: "reset-confirm",
    lastResult: stage === "confirm" ? lastResult : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetConfirmSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <section className="page auth-page">
      <h1>Reset your password</h1>
      {stage === "email" ? (
        <Form method="post" {...getFormProps(emailForm)} className="form-stack">
          <p>Enter the email address you sign in with and we will send you a link to choose a new password.</p>
          <ErrorList kind="form" errors={emailForm.errors} />
          <Field label="Email" htmlFor={emailFields.email.id} errors={emailFields.email.errors} errorId={emailFields.email.errorId}>
            <input {...getInputProps(emailFields.email, { type: "email" })} autoComplete="email" autoFocus />
          </Field>
          <div className="form-actions">
            <button type="submit" className="button" disabled={navigation.state === "submitting"}>
              Send me the link
            </button>
            <Link to="/signin">Back to sign in</Link>
          </div>
        </Form>
      ) : null}
      {stage === "sent" ? (
        <div data-testid="reset-sent">
          <p className="alert alert-success" role="status">
            {MSG.resetSent}
          </p>
          <p>
            <Link to="/password-reset">Go back</Link>
          </p>
        </div>
      ) : null}
      {stage === "invalid" ? <StartOver /> : null}
      {stage === "confirm" ? (
        actionData?.tokenInvalid && navigation.state === "idle" ? (
          <StartOver />
        ) : (
          <Form method="post" {...getFormProps(pwForm)} className="form-stack">
            <ErrorList kind="form" errors={pwForm.errors} />
            <Field
              label="New password"
              htmlFor={pwFields.new_password.id}
              errors={pwFields.new_password.errors}
              errorId={pwFields.new_password.errorId}
              hint={`At least ${PASSWORD_MIN} characters.`}
            >
              <input {...getInputProps(pwFields.new_password, { type: "password" })} autoComplete="new-password" autoFocus />
            </Field>
            <Field label="Confirm new password" htmlFor={pwFields.confirm.id} errors={pwFields.confirm.errors} errorId={pwFields.confirm.errorId}>
              <input {...getInputProps(pwFields.confirm, { type: "password" })} autoComplete="new-password" />
            </Field>
            <div className="form-actions">
              <button type="submit" className="button" disabled={navigation.state === "submitting"}>
                Save my new password
              </button>
            </div>
          </Form>
        )
      ) : null}
    </section>
  );
}
