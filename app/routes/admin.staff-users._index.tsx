/**
 * /admin/staff-users (staff with the Staff users permission; docs/product/screens.md, "Staff users"): every
 * staff account with its state and permissions, and the invitation of a new one.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { StaffInviteSchema } from "../../domain/staff-users";
import { ErrorList, Field } from "~/components/forms";
import { formatDateTime, useMarketplaceZone } from "~/components/orders/format";
import { DoneNotice, PermissionBoxes } from "~/components/staff-users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { invite, staffUsersList } from "~/utils/staff-users.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Staff users") }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export const loader = ({ request }: LoaderFunctionArgs) => staffUsersList(request);

export const action = ({ request }: ActionFunctionArgs) => invite(request);

export default function StaffUsers() {
  const d = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>Staff users</h1>
      <DoneNotice notice={d.notice} />
      <table className="table" data-testid="staff-users">
        <thead>
          <tr>
            <th>E-mail</th>
            <th>State</th>
            <th>Permissions</th>
            <th>Last sign-in</th>
          </tr>
        </thead>
        <tbody>
          {d.users.map((u) => (
            <tr key={u.id} data-testid={`staff-user-${u.id}`}>
              <td>
                <Link to={`/admin/staff-users/${u.id}`}>{u.email}</Link>
                {u.id === d.me ? " (you)" : null}
              </td>
              <td>{u.deactivatedAt ? "Deactivated" : "Active"}</td>
              <td>
                {u.permissions.length === 0
                  ? "None"
                  : d.permissions.every((p) => u.permissions.includes(p.name))
                    ? "All"
                    : d.permissions
                        .filter((p) => u.permissions.includes(p.name))
                        .map((p) => p.label)
                        .join(", ")}
              </td>
              <td>{u.lastLoginAt ? formatDateTime(u.lastLoginAt, tz) : "Never"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <InviteForm permissions={d.permissions} />
    </section>
  );
}

function InviteForm({ permissions }: { permissions: { name: string; label: string }[] }) {
  const actionData = useActionData<typeof action>() as
    | { result?: SubmissionResult<string[]> }
    | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<
    z.input<typeof StaffInviteSchema>,
    z.output<typeof StaffInviteSchema>
  >({
    id: "staff-invite",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StaffInviteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="staff-invite">
      <h2>Invite a staff user</h2>
      <p className="muted">
        The new user gets an e-mail with a link to choose a password (it works once, for 7 days),
        then signs in with the permissions ticked here. Permissions can be changed later on the
        user&apos;s page.
      </p>
      <ErrorList kind="form" errors={form.errors} />
      <Field
        label="E-mail"
        htmlFor={fields.email.id}
        errors={fields.email.errors}
        errorId={fields.email.errorId}
      >
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
      </Field>
      <PermissionBoxes meta={fields.permissions} choices={permissions} legend="Permissions" />
      <button type="submit" className="button" disabled={navigation.state === "submitting"}>
        Invite
      </button>
    </Form>
  );
}
