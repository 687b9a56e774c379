/**
 * Settings → Contact Info (spec 000 §2): celphone, first_name, last_name, job_title, job_title_other,
 * phone. The same schema as the setup wizard's contact step (domain/accounts.ts ContactStepSchema): the
 * cell phone is required ("Contact cell phone required", spec 001 §5). Once it is set, the cell-phone
 * "Action Required!" banner is gone (the shell reads the contact on every request).
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ContactStepSchema, JOB_TITLES } from "../../domain/accounts";
import { updateContactInfo } from "../../db/queries/settings";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { Field, FormErrors } from "./__accounts-ui";

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
  const submission = parseWithZod(form, { schema: ContactStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  // A retailer edits its own contact; staff acting as the retailer edit the retailer's contact.
  const who = auth.user.isStaff ? { userId: auth.contact?.userId ?? null, email: auth.contact?.email ?? "" } : { userId: auth.user.id, email: auth.user.email };
  await updateContactInfo(db, auth.retailer.id, who, {
    firstName: v.first_name,
    lastName: v.last_name,
    jobTitle: v.job_title,
    jobTitleOther: v.job_title === "Other" ? (v.job_title_other ?? "") : "",
    phone: v.phone,
    celphone: v.celphone,
  });
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
        <FormErrors errors={form.errors} />
        <Field
          label="Cell phone"
          htmlFor={fields.celphone.id}
          errors={fields.celphone.errors}
          errorId={fields.celphone.errorId}
          hint="We text you when you have orders to approve."
        >
          <input {...getInputProps(fields.celphone, { type: "tel" })} autoComplete="tel" />
        </Field>
        <div className="form-row">
          <Field label="First name" htmlFor={fields.first_name.id} errors={fields.first_name.errors}>
            <input {...getInputProps(fields.first_name, { type: "text" })} autoComplete="given-name" />
          </Field>
          <Field label="Last name" htmlFor={fields.last_name.id} errors={fields.last_name.errors}>
            <input {...getInputProps(fields.last_name, { type: "text" })} autoComplete="family-name" />
          </Field>
        </div>
        <Field label="Job title" htmlFor={fields.job_title.id} errors={fields.job_title.errors}>
          <select {...getSelectProps(fields.job_title)}>
            <option value="">Choose…</option>
            {JOB_TITLES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
        {jobIsOther || fields.job_title_other.errors ? (
          <Field label="Job title (other)" htmlFor={fields.job_title_other.id} errors={fields.job_title_other.errors}>
            <input {...getInputProps(fields.job_title_other, { type: "text" })} />
          </Field>
        ) : null}
        <Field label="Phone" htmlFor={fields.phone.id} errors={fields.phone.errors} hint="+1-###-###-####">
          <input {...getInputProps(fields.phone, { type: "tel" })} autoComplete="tel" />
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save contact info
          </button>
        </div>
      </Form>
    </div>
  );
}
