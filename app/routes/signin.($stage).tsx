import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MSG, SignInSchema, safeNextPath } from "../../domain/accounts";
import { findUserByEmail, touchLastLogin } from "../../db/queries/users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { commitSession, getAuth, landingPath, readFormData } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { verifyAgainstDummy, verifyPassword } from "~/utils/password.server";
import {
  checkLoginThrottle,
  clientIp,
  noteLoginAttempt,
  retryAfterHeaders,
  throttleConfig,
} from "~/utils/throttle.server";
import { ErrorList, Field } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Sign in") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** Pass the throttle's Retry-After through to the document response. */
export const headers = retryAfterHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  // /signin/:stage/: the sign-up and reset stages live on their own pages.
  if (params.stage === "register") throw redirect("/register");
  if (params.stage === "forgot" || params.stage === "password-reset")
    throw redirect("/password-reset");
  const url = new URL(request.url);
  const next = safeNextPath(url.searchParams.get("next"));
  const auth = await getAuth(request);
  if (auth) throw redirect(landingPath(auth, next));
  const env = getEnv();
  return { next, supportPhone: env.SUPPORT_PHONE, chatEnabled: !!env.CHAT_WIDGET_SNIPPET };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
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
  const env = getEnv();
  const ip = clientIp(context);
  const verdict = await checkLoginThrottle(db, throttleConfig(env), { email, ip });
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
  const setCookie = await commitSession(user.id);
  return redirect(landingPath({ user: { isStaff: user.isStaff } }, next), {
    headers: { "Set-Cookie": setCookie },
  });
}

export default function SignIn() {
  const { next, supportPhone, chatEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "signin",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const showFailure = !!actionData?.loginFailed && navigation.state === "idle";
  return (
    <section className="page auth-page">
      <h1>Sign in</h1>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        {showFailure ? (
          <div className="alert alert-danger" role="alert" data-testid="login-failed">
            <p>
              <strong>{MSG.loginFailed}</strong>
            </p>
            <p>
              For the best experience, please use a desktop browser. Need help? Call us at{" "}
              <a href={`tel:${supportPhone.replace(/[^\d+]/g, "")}`}>{supportPhone}</a>
              {chatEnabled
                ? " or chat with us using the help button at the bottom of the page."
                : " or chat with us once you are signed in."}
            </p>
          </div>
        ) : (
          <ErrorList kind="form" errors={form.errors} />
        )}
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <Field
          label="Email"
          htmlFor={fields.email.id}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        >
          <input
            {...getInputProps(fields.email, { type: "email" })}
            autoComplete="username"
            autoFocus
          />
        </Field>
        <Field
          label="Password"
          htmlFor={fields.password.id}
          errors={fields.password.errors}
          errorId={fields.password.errorId}
        >
          <input
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete="current-password"
          />
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Sign in
          </button>
          <Link to="/password-reset">Forgot password</Link>
        </div>
      </Form>
      <p>
        New to the marketplace? <Link to="/register">Register my store</Link>
      </p>
    </section>
  );
}
