/**
 * Settings → API tokens (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"): the retailer's
 * tokens for POST /api/stock-import: create one with a name (the token is shown once), see when each was last
 * used, revoke one.
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
import { TokenNameSchema } from "../../domain/api-tokens";
import { ErrorList, InputField } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireRetailer } from "~/utils/auth.server";
import { apiTokensAction, apiTokensLoader } from "./settings.api.server";

export const meta: MetaFunction = () => [{ title: pageTitle("API tokens") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return apiTokensLoader(await requireRetailer(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return apiTokensAction(request, await requireRetailer(request));
}

export default function SettingsApiTokens() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "settings-api-token",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TokenNameSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div>
      <h2>API tokens</h2>
      <p className="muted">
        A token lets your store's own system send its stock file to{" "}
        <code>POST /api/stock-import</code>, the same import as{" "}
        <a href="/stock-import">Import a stock file</a> (see{" "}
        <a href="/api/openapi.json">the API's description</a>). A token can only import your stock.
      </p>
      <p data-testid="store-number">
        Your store number for the API: <strong>{d.store}</strong> (send it as{" "}
        <code>?store={d.store}</code> to have a token of another store refused).
      </p>
      {actionData?.created ? (
        <div className="flash flash-success" role="status" data-testid="new-token">
          <p>Token “{actionData.created.name}” created. Copy it now: it is shown only this once.</p>
          <code data-testid="token-value">{actionData.created.token}</code>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="token-form">
        <ErrorList kind="form" errors={form.errors} />
        <InputField
          meta={fields.name}
          label="Token name"
          hint="What will use it, e.g. “Point of sale, nightly”."
          maxLength={60}
        />
        <div className="form-actions">
          <button
            type="submit"
            name="intent"
            value="create"
            className="button"
            disabled={navigation.state === "submitting"}
          >
            Create token
          </button>
        </div>
      </Form>
      {d.tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <table className="table" data-testid="tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Token</th>
              <th>Created</th>
              <th>Last used</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {d.tokens.map((t) => (
              <tr key={t.id} data-testid={`token-${t.id}`}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>{t.createdAt}</td>
                <td>{t.lastUsedAt ?? "Never"}</td>
                <td>
                  {t.revokedAt ? (
                    `Revoked ${t.revokedAt}`
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="token" value={t.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="revoke"
                        className="button button-secondary"
                      >
                        Revoke
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
