/**
 * Settings → Contact Info (docs/product/screens.md, "Settings and payout"): celphone, first_name, last_name, job_title, job_title_other,
 * phone. The same schema as the setup wizard's contact step (domain/accounts.ts ContactStepSchema): the
 * cell phone is required ("Contact cell phone required"). Once it is set, the cell-phone
 * "Action Required!" banner is gone (the shell reads the contact on every request).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { contactColumns, ContactStepSchema } from "../../domain/accounts";
import { updateContactInfo } from "../../db/queries/settings";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { ContactInfoFields } from "~/components/account-fields";
import { ErrorList } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Contact Info") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { contact: c } = await requireRetailer(request);
  return {
    contact: {
      celphone: c?.celphone ?? "",
      first_name: c?.firstName ?? "",
      last_name: c?.lastName ?? "",
      job_title: c?.jobTitle ?? "",
      job_title_other: c?.jobTitleOther ?? "",
      phone: c?.phone ?? "",
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireRetailer(request);
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: ContactStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A retailer edits its own contact; staff acting as the retailer edit the retailer's contact.
  const who = auth.user.isStaff
    ? { userId: auth.contact?.userId ?? null, email: auth.contact?.email ?? "" }
    : { userId: auth.user.id, email: auth.user.email };
  await updateContactInfo(db, auth.retailer.id, who, contactColumns(submission.value));
  return redirect("/settings/contact?ref=contactSaved", 303);
}

export default function SettingsContactInfo() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "settings-contact",
    lastResult: navigation.state === "idle" ? actionData : null,
    defaultValue: d.contact,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const jobIsOther = (fields.job_title.value ?? d.contact.job_title) === "Other";
  return (
    <div>
      <h2>Contact Info</h2>
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="contact-form">
        <ErrorList kind="form" errors={form.errors} />
        <ContactInfoFields fields={fields} jobIsOther={jobIsOther} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save contact info
          </button>
        </div>
      </Form>
    </div>
  );
}
