/**
 * /admin/staff-users/:id (staff with the Staff users permission; docs/product/screens.md, "Staff users"): one
 * staff account: grant or revoke each entry of the permissions map, deactivate or reactivate it, send it a
 * password e-mail, and read every change made to it (who, when, what), newest first.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { staffChangeText, StaffPermissionsSchema } from "../../domain/staff-users";
import { ErrorList } from "~/components/forms";
import { formatDateTime, useMarketplaceZone } from "~/components/orders/format";
import { DoneNotice, PermissionBoxes } from "~/components/staff-users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { staffUserAction, staffUserPage } from "~/utils/staff-users.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Staff user") }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  staffUserPage(request, params.id);

export const action = ({ request, params }: ActionFunctionArgs) =>
  staffUserAction(request, params.id);

type Reply =
  | { form?: "permissions" | "active" | "reset"; result?: SubmissionResult<string[]> }
  | undefined;

export default function StaffUser() {
  const d = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  const reply = useActionData<typeof action>() as Reply;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const idle = navigation.state === "idle";
  const answer = (f: NonNullable<Reply>["form"]) =>
    idle && reply?.form === f ? reply?.result : null;
  const u = d.user;
  const self = u.id === d.me;
  return (
    <section className="page">
      <p>
        <Link to="/admin/staff-users">Staff users</Link>
      </p>
      <h1>{u.email}</h1>
      <DoneNotice notice={d.notice} />
      <p data-testid="staff-state">
        {u.deactivatedAt ? `Deactivated on ${formatDateTime(u.deactivatedAt, tz)}.` : "Active."}{" "}
        Last sign-in: {u.lastLoginAt ? formatDateTime(u.lastLoginAt, tz) : "never"}.
        {self ? " This is you." : ""}
      </p>
      <PermissionsForm
        key={u.permissions.join(",")}
        granted={u.permissions}
        choices={d.permissions}
        lastResult={answer("permissions")}
      />
      <h2>Account</h2>
      <ErrorList
        kind="form"
        errors={answer("active")?.error?.[""] ?? answer("reset")?.error?.[""]}
        testId="account-error"
      />
      <div className="inline-form">
        <Form method="post" className="inline-form">
          <input
            type="hidden"
            name="intent"
            value={u.deactivatedAt ? "reactivate" : "deactivate"}
          />
          <button type="submit" className="button button-outline" disabled={busy}>
            {u.deactivatedAt ? "Reactivate account" : "Deactivate account"}
          </button>
        </Form>{" "}
        {u.deactivatedAt ? null : (
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="send-reset" />
            <button type="submit" className="button button-outline" disabled={busy}>
              Send password e-mail
            </button>
          </Form>
        )}
      </div>
      <h2>Changes</h2>
      {d.changes.length === 0 ? <p className="muted">No changes recorded.</p> : null}
      <ol className="plain-list" data-testid="staff-audit">
        {d.changes.map((c) => (
          <li key={c.id} data-testid="staff-audit-row">
            {formatDateTime(c.at, tz)}: {c.actorEmail ?? "a deleted user"}{" "}
            {staffChangeText(c.action, c.permission)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function PermissionsForm({
  granted,
  choices,
  lastResult,
}: {
  granted: string[];
  choices: { name: string; label: string }[];
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm<
    z.input<typeof StaffPermissionsSchema>,
    z.output<typeof StaffPermissionsSchema>
  >({
    id: "staff-permissions",
    lastResult,
    defaultValue: { permissions: granted },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StaffPermissionsSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="form-stack"
      data-testid="staff-permissions"
    >
      <h2>Permissions</h2>
      <p className="muted">Ticked: granted. Unticking an entry revokes it when you save.</p>
      <ErrorList kind="form" errors={form.errors} />
      <input type="hidden" name="intent" value="permissions" />
      <PermissionBoxes meta={fields.permissions} choices={choices} legend="Permissions map" />
      <button type="submit" className="button" disabled={navigation.state === "submitting"}>
        Save permissions
      </button>
    </Form>
  );
}
