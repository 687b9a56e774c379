/**
 * Settings → Password (docs/product/screens.md, "Settings and payout"): change the password with the current
 * one (every other session ends; ADR 0041), or have a reset link e-mailed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { ChangePasswordSchema } from "../../domain/accounts";
import { ErrorList, InputField } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireUser } from "~/utils/auth.server";
import { clientIp } from "~/utils/throttle.server";
import { changePasswordAction } from "./settings.password.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Password") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function action({ request, context }: ActionFunctionArgs) {
  return changePasswordAction(request, await requireUser(request), clientIp(context));
}

export default function SettingsPassword() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div>
      <h2>Password</h2>
      {actionData?.changed && navigation.state === "idle" ? (
        <p className="flash flash-success" role="status" data-testid="password-changed">
          Your password has been changed. You were signed out everywhere else.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <ErrorList kind="form" errors={form.errors} />
        <InputField
          meta={fields.current_password}
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
        <InputField
          meta={fields.new_password}
          label="New password"
          type="password"
          autoComplete="new-password"
        />
        <InputField
          meta={fields.confirm}
          label="New password again"
          type="password"
          autoComplete="new-password"
        />
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Change password
          </button>
        </div>
      </Form>
      <p>Forgot your current password? We e-mail you a link that lets you choose a new one.</p>
      <p>
        <Link to="/password-reset" className="button button-outline">
          Reset my password
        </Link>
      </p>
    </div>
  );
}
