/**
 * Settings → Two-factor sign-in (docs/product/screens.md, "Two-factor sign-in"; ADR 0041): the user's own
 * two-factor. Set up (the secret and its otpauth URI as text, confirmed with a first code), the ten recovery
 * codes shown once, turned off with a current code. Retailers may turn it on; staff need it in production.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MSG, TwoFactorCodeSchema } from "../../domain/accounts";
import { ErrorList, InputField } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireUser } from "~/utils/auth.server";
import { clientIp } from "~/utils/throttle.server";
import { twoFactorAction, twoFactorLoader } from "./settings.two-factor.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Two-factor sign-in") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return twoFactorLoader(await requireUser(request));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return twoFactorAction(request, await requireUser(request), clientIp(context));
}

export default function SettingsTwoFactor() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `two-factor-${d.status}`,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";
  const codeField = (
    <InputField
      meta={fields.code}
      label="Code"
      autoComplete="one-time-code"
      inputMode="numeric"
      spellCheck={false}
      maxLength={64}
    />
  );
  return (
    <div>
      <h2>Two-factor sign-in</h2>
      {d.required ? (
        <p className="alert alert-warning" role="status" data-testid="two-factor-required">
          {MSG.twoFactorRequired}
        </p>
      ) : null}
      <p className="muted">
        With two-factor sign-in on, signing in asks for your password and then a 6-digit code from
        an authenticator app on your phone.
      </p>
      {actionData?.recoveryCodes ? (
        <div className="flash flash-success" role="status" data-testid="recovery-codes">
          <p>
            Two-factor sign-in is on, and you were signed out everywhere else. Keep these recovery
            codes somewhere safe: each one signs you in once if you lose your phone. They are shown
            only this once.
          </p>
          <ul>
            {actionData.recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {d.status === "on" ? (
        <>
          <p data-testid="two-factor-status">
            Two-factor sign-in is <strong>on</strong> (since {d.since}). Recovery codes left:{" "}
            {d.codesLeft}.
          </p>
          <Form method="post" {...getFormProps(form)} className="form-stack">
            <ErrorList kind="form" errors={form.errors} />
            <p>
              To turn it off, enter a current code or a recovery code. You will be signed out
              everywhere else.
            </p>
            {codeField}
            <div className="form-actions">
              <button
                type="submit"
                name="intent"
                value="disable"
                className="button"
                disabled={busy}
              >
                Turn off two-factor sign-in
              </button>
            </div>
          </Form>
        </>
      ) : d.status === "pending" ? (
        <>
          <p>
            Add this account to your authenticator app: enter the key by hand, or open the link on
            the phone that has the app. Then enter the 6-digit code the app shows.
          </p>
          <dl>
            <dt>Key</dt>
            <dd>
              <code data-testid="totp-secret">{d.secret}</code>
            </dd>
            <dt>Link</dt>
            <dd>
              <code data-testid="totp-uri">{d.uri}</code>
            </dd>
          </dl>
          <Form method="post" {...getFormProps(form)} className="form-stack">
            <ErrorList kind="form" errors={form.errors} />
            {codeField}
            <div className="form-actions">
              <button type="submit" name="intent" value="enable" className="button" disabled={busy}>
                Turn on two-factor sign-in
              </button>
            </div>
          </Form>
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value="start"
              className="button button-outline"
              disabled={busy}
            >
              Start over with a new key
            </button>
          </Form>
        </>
      ) : (
        <>
          <p data-testid="two-factor-status">
            Two-factor sign-in is <strong>off</strong>.
          </p>
          <Form method="post">
            <ErrorList kind="form" errors={form.errors} />
            <button type="submit" name="intent" value="start" className="button" disabled={busy}>
              Set up two-factor sign-in
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
