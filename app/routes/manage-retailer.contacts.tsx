/**
 * /manage-retailer/contacts?id=: the retailer's contacts; a contact's edit (or a new one) in a modal
 * (?edit=<id>|new), and "Send PW reset" to a contact with a login.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import type { z } from "zod";
import { ContactEditSchema } from "../../domain/retailer-admin";
import { ErrorList, Field } from "~/components/forms";
import { DataTable, type Column } from "~/components/manage-retailer/DataTable";
import { Modal, SaveCancel, TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import {
  contactsTab,
  readTabAction,
  refuse,
  requireChosenRetailer,
  saveContact,
  sendReset,
} from "~/utils/manage-retailer.server";
import { listTeam } from "../../db/queries/team";
import { roleNames } from "../../domain/teams";
import { db } from "~/utils/db.server";
import { ContactInfoFields } from "~/components/account-fields";

export const handle: TabHandle = { tab: "contacts" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer, url } = await requireChosenRetailer(request);
  const [contacts, team] = await Promise.all([contactsTab(retailer.id), listTeam(db, retailer.id)]);
  return {
    retailerId: retailer.id,
    contacts,
    // The store's people and their roles (docs/product/teams.md): staff see them, read only.
    members: team.members.map((m) => ({
      userId: m.userId,
      email: m.email,
      roles: roleNames(m.roles),
      removed: m.removedAt !== null,
    })),
    edit: url.searchParams.get("edit"),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const c = await readTabAction(request, "contacts");
  if (!("form" in c)) return c;
  switch (c.form.get("intent")) {
    case "contact":
      return saveContact(c);
    case "send-reset":
      return sendReset(c);
    default:
      return refuse(400, "Unknown action.");
  }
}

type Contact = Awaited<ReturnType<typeof contactsTab>>[number];

export default function ContactsTab() {
  const d = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  const editing = d.edit === "new" ? "new" : d.contacts.find((c) => String(c.id) === d.edit);
  const columns: Column<Contact>[] = [
    { head: "first_name", cell: (c) => c.first_name },
    { head: "last_name", cell: (c) => c.last_name },
    { head: "email", cell: (c) => c.email },
    {
      head: "job_title",
      cell: (c) => (c.job_title === "Other" ? c.job_title_other || "Other" : c.job_title),
    },
    { head: "phone", cell: (c) => c.phone },
    { head: "celphone", cell: (c) => c.celphone },
    {
      head: "",
      className: "row-actions",
      cell: (c) => (
        <>
          <Link
            to={`/manage-retailer/contacts?id=${d.retailerId}&edit=${c.id}`}
            className="button button-small button-outline"
          >
            Edit
          </Link>{" "}
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="send-reset" />
            <input type="hidden" name="contact_id" value={c.id} />
            <button
              type="submit"
              className="button button-small"
              disabled={busy || !c.hasLogin}
              title={c.hasLogin ? undefined : "This contact has no login yet"}
            >
              Send PW reset
            </button>
          </Form>
        </>
      ),
    },
  ];
  return (
    <>
      <TabNotices />
      <DataTable
        testId="contacts"
        columns={columns}
        rows={d.contacts}
        rowKey={(c) => c.id}
        rowTestId={(c) => `contact-${c.id}`}
      />
      {d.contacts.length === 0 ? <p className="muted">No contacts yet.</p> : null}
      <p>
        <Link to={`/manage-retailer/contacts?id=${d.retailerId}&edit=new`}>Add a contact</Link>
      </p>
      <h3>Team</h3>
      <table className="table" data-testid="store-members">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Roles</th>
          </tr>
        </thead>
        <tbody>
          {d.members.map((m) => (
            <tr key={m.userId} data-member={m.email}>
              <td>{m.email}</td>
              <td>{m.removed ? "Removed" : m.roles}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing ? (
        <ContactModal retailerId={d.retailerId} contact={editing === "new" ? null : editing} />
      ) : null}
    </>
  );
}

function ContactModal({ retailerId, contact }: { retailerId: number; contact: Contact | null }) {
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<
    z.input<typeof ContactEditSchema>,
    z.output<typeof ContactEditSchema>
  >({
    id: `contact-${contact?.id ?? "new"}`,
    lastResult: navigation.state === "idle" ? lastResult : null,
    defaultValue: contact ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactEditSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [params] = useSearchParams();
  return (
    <Modal
      testId="contact-modal"
      title={contact ? `Edit ${contact.first_name} ${contact.last_name}` : "Add a contact"}
    >
      <Form
        method="post"
        action={`?${new URLSearchParams({ id: params.get("id") ?? String(retailerId) })}`}
        {...getFormProps(form)}
        className="form-stack"
      >
        <input type="hidden" name="intent" value="contact" />
        {contact ? <input type="hidden" name="contact_id" value={contact.id} /> : null}
        <ErrorList kind="form" errors={form.errors} />
        <Field label="E-mail" htmlFor={fields.email.id} errors={fields.email.errors}>
          <input
            id={fields.email.id}
            name={fields.email.name}
            type="email"
            defaultValue={contact?.email ?? ""}
          />
        </Field>
        <ContactInfoFields fields={fields} jobIsOther={fields.job_title.value === "Other"} />
        <SaveCancel
          label="Save contact"
          back={`/manage-retailer/contacts?id=${retailerId}`}
          disabled={navigation.state === "submitting"}
        />
      </Form>
    </Modal>
  );
}
