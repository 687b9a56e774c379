/**
 * Settings → Team (docs/product/teams.md): the store's owner sees its people with their roles, invites someone by
 * e-mail with roles, removes a member at once, and withdraws a waiting invitation. Other members do not see this tab (a 403 with the message if they come).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  INVITED_ROLES,
  InviteMemberSchema,
  MemberLimitsSchema,
  ROLE_LABELS,
} from "../../domain/teams";
import { CheckboxGroupField, ErrorList, InputField } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireRetailer } from "~/utils/auth.server";
import { teamAction, teamLoader } from "./settings.team.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Team") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return teamLoader(await requireRetailer(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return teamAction(request, await requireRetailer(request));
}

const ROLE_OPTIONS = INVITED_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

type Member = Awaited<ReturnType<typeof teamLoader>>["members"][number];

/** A member's limits: what it may buy an order and a month before a purchase waits for an approver. */
function LimitsForm({
  member,
  lastResult,
}: {
  member: Member;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useForm({
    id: `limits-${member.userId}`,
    lastResult,
    defaultValue: { orderLimit: member.orderLimit, monthLimit: member.monthLimit },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MemberLimitsSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} data-testid="limits-form">
      <p className="muted">{member.limits}</p>
      <ErrorList kind="form" errors={form.errors} />
      <input type="hidden" name="userId" value={member.userId} />
      <InputField meta={fields.orderLimit} label="Per order ($)" inputMode="decimal" />
      <InputField meta={fields.monthLimit} label="Per month ($)" inputMode="decimal" />
      <button type="submit" name="intent" value="limits" className="button button-small">
        Save limits
      </button>
    </Form>
  );
}

export default function SettingsTeam() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  // A limits form's answer names its member; the others are the invitation form's.
  const limitsAnswer = actionData && "forMember" in actionData ? actionData : null;
  const limitsFor = (userId: number) =>
    navigation.state === "idle" && limitsAnswer?.forMember === userId ? limitsAnswer.result : null;
  const [form, fields] = useForm({
    id: "team-invite",
    lastResult: navigation.state === "idle" && !limitsAnswer ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteMemberSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div>
      <h2>Team</h2>
      {actionData?.notice ? (
        <p className="flash flash-success" role="status" data-testid="team-notice">
          {actionData.notice}
        </p>
      ) : null}
      <table className="table" data-testid="team-members">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Roles</th>
            <th scope="col">Limits</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {d.members.map((m) => (
            <tr key={m.userId} data-member={m.email} data-removed={m.removed || undefined}>
              <td>
                {m.email}
                {m.userId === d.me ? " (you)" : ""}
              </td>
              <td>{m.removed ? "Removed" : m.roles}</td>
              <td data-testid="member-limits">
                {m.owner ? (
                  "No limit"
                ) : m.removed ? null : (
                  <LimitsForm member={m} lastResult={limitsFor(m.userId)} />
                )}
              </td>
              <td>
                {m.owner || m.removed ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="id" value={m.userId} />
                    <button
                      type="submit"
                      className="button button-small"
                      data-testid="remove-member"
                    >
                      Remove
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.invitations.length ? (
        <>
          <h3>Waiting invitations</h3>
          <ul data-testid="team-invitations">
            {d.invitations.map((i) => (
              <li key={i.id}>
                {i.email}: {i.roles}, until {i.until}{" "}
                <Form method="post" className="inline">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="id" value={i.id} />
                  <button type="submit" className="button button-small">
                    Withdraw
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Invite someone</h3>
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="invite-form">
        <ErrorList kind="form" errors={form.errors} />
        <InputField meta={fields.email} label="E-mail" type="email" autoComplete="off" />
        <CheckboxGroupField meta={fields.roles} legend="Roles" options={ROLE_OPTIONS} />
        <div className="form-actions">
          <button type="submit" name="intent" value="invite" className="button">
            Send the invitation
          </button>
        </div>
      </Form>
    </div>
  );
}
