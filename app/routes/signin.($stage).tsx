import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MSG, SignInSchema, TwoFactorCodeSchema, safeNextPath } from "../../domain/accounts";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { getAuth, landingPath, readFormData } from "~/utils/auth.server";
import { getEnv } from "~/utils/env.server";
import { clientIp, retryAfterHeaders } from "~/utils/throttle.server";
import { codeStage, codeStep, passwordStep } from "./signin.($stage).server";
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
  const shared = { next, supportPhone: env.SUPPORT_PHONE, chatEnabled: !!env.CHAT_WIDGET_SNIPPET };
  // /signin/code: the second step of a user with two-factor on (docs/product/screens.md, "Two-factor sign-in").
  if (params.stage === "code") return { ...shared, code: await codeStage(request) };
  return { ...shared, code: null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const ip = clientIp(context);
  return params.stage === "code" ? codeStep(request, formData, ip) : passwordStep(formData, ip);
}

export default function SignIn() {
  const { code } = useLoaderData<typeof loader>();
  return code ? <CodeForm email={code.email} /> : <PasswordForm />;
}

function CodeForm({ email }: { email: string }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "signin-code",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="page auth-page">
      <h1>Enter your code</h1>
      <p>
        Signing in as {email}. Enter the 6-digit code from your authenticator app, or one of your
        recovery codes.
      </p>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <ErrorList kind="form" errors={form.errors} />
        <Field
          label="Code"
          htmlFor={fields.code.id}
          errors={fields.code.errors}
          errorId={fields.code.errorId}
        >
          <input
            {...getInputProps(fields.code, { type: "text" })}
            autoComplete="one-time-code"
            autoFocus
            spellCheck={false}
          />
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Verify
          </button>
          <Link to="/signin">Start over</Link>
        </div>
      </Form>
    </section>
  );
}

function PasswordForm() {
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
