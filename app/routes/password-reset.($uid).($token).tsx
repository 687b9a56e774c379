import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MSG, PASSWORD_MIN, ResetConfirmSchema, ResetRequestSchema } from "../../domain/accounts";
import { ErrorList, Field } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData } from "~/utils/auth.server";
import { clientIp, retryAfterHeaders } from "~/utils/throttle.server";
import { requestReset, resetStage, setNewPassword } from "./password-reset.($uid).($token).server";

export const meta: MetaFunction = () => [{ title: pageTitle("Reset your password") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];
/** Pass the throttle's Retry-After through to the document response. */
export const headers = retryAfterHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  return resetStage(request, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  return params.uid === undefined
    ? requestReset(formData, clientIp(context))
    : setNewPassword(formData, params, clientIp(context));
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
          <p>
            Enter the email address you sign in with and we will send you a link to choose a new
            password.
          </p>
          <ErrorList kind="form" errors={emailForm.errors} />
          <Field
            label="Email"
            htmlFor={emailFields.email.id}
            errors={emailFields.email.errors}
            errorId={emailFields.email.errorId}
          >
            <input
              {...getInputProps(emailFields.email, { type: "email" })}
              autoComplete="email"
              autoFocus
            />
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
              <input
                {...getInputProps(pwFields.new_password, { type: "password" })}
                autoComplete="new-password"
                autoFocus
              />
            </Field>
            <Field
              label="Confirm new password"
              htmlFor={pwFields.confirm.id}
              errors={pwFields.confirm.errors}
              errorId={pwFields.confirm.errorId}
            >
              <input
                {...getInputProps(pwFields.confirm, { type: "password" })}
                autoComplete="new-password"
              />
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
