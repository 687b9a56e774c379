/**
 * /join/:token: an invitation into a store's team (docs/product/teams.md). The invited person sees the store and
 * the roles, sets a password, and signs in with its new account. A used, withdrawn, expired or unknown link
 * answers 404 with the message.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { acceptInvitation, findInvitation } from "../../db/queries/team";
import { ResetConfirmSchema } from "../../domain/accounts";
import { ROLE_LABELS, TEAM_MSG, type StoreRole } from "../../domain/teams";
import { ErrorList, InputField } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { hashPassword } from "~/utils/password.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Join your store's team") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ params }: LoaderFunctionArgs) {
  const inv = await findInvitation(db, params.token ?? "");
  if (!inv) throw new Response(TEAM_MSG.invitationGone, { status: 404 });
  return {
    email: inv.email,
    store: inv.storeName,
    roles: inv.roles.map((r) => ROLE_LABELS[r as StoreRole] ?? r),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: ResetConfirmSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // A wrong link is refused before any password is hashed (hashing is the costly part).
  if (!(await findInvitation(db, params.token ?? "")))
    return data({ result: formError(TEAM_MSG.invitationGone) }, { status: 404 });
  const r = await acceptInvitation(db, {
    token: params.token ?? "",
    passwordHash: await hashPassword(submission.value.new_password),
  });
  if (!r.ok) return data({ result: formError(r.message) }, { status: r.status });
  throw redirect("/signin?joined=1");
}

export default function Join() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "join",
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetConfirmSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <section className="page narrow" data-testid="join">
      <h1>Join {d.store}</h1>
      <p>
        {d.store} invites <strong>{d.email}</strong> to its team, as:
      </p>
      <ul>
        {d.roles.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <ErrorList kind="form" errors={form.errors} />
        <InputField
          meta={fields.new_password}
          label="Password"
          type="password"
          autoComplete="new-password"
        />
        <InputField
          meta={fields.confirm}
          label="Password again"
          type="password"
          autoComplete="new-password"
        />
        <div className="form-actions">
          <button type="submit" className="button">
            Join the team
          </button>
        </div>
      </Form>
    </section>
  );
}
