/**
 * The steps of the retailer setup wizard (/retailer-setup, docs/product/screens.md): each a form posting its
 * `step` (and, for staff, the `user` it sets up) to the page's action, checked by Conform with the Zod schema
 * the server uses.
 */
import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import {
  BRAND_INTERESTS,
  BrandsStepSchema,
  ContactStepSchema,
  PASSWORD_MIN,
  RegisterSchema,
  RetailerStepSchema,
  type storeInfoFormValues,
} from "../../../domain/accounts";
import { ContactInfoFields, StoreInfoFields } from "~/components/account-fields";
import { ErrorList, Field } from "~/components/forms";

/** The staff's target user (the `user` field each later step posts), or null for a retailer's own setup. */
type Target = { target: number | null };
export type SetupContactValues = {
  first_name: string;
  last_name: string;
  job_title: string;
  job_title_other: string;
  phone: string;
  celphone: string;
};

function useLastResult() {
  const actionData = useActionData() as SubmissionResult<string[]> | undefined;
  const navigation = useNavigation();
  return navigation.state === "idle" ? actionData : null;
}

function StepFooter({ label }: { label: string }) {
  const navigation = useNavigation();
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={navigation.state === "submitting"}>
        {label}
      </button>
    </div>
  );
}

function TargetInput({ target }: Target) {
  return target !== null ? <input type="hidden" name="user" value={target} /> : null;
}

export function UserStep() {
  const [form, fields] = useForm({
    id: "setup-user",
    lastResult: useLastResult(),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>User</h2>
      <p>Create the login of the retailer you are setting up.</p>
      <input type="hidden" name="step" value="user" />
      <ErrorList kind="form" errors={form.errors} />
      <Field
        label="Email"
        htmlFor={fields.email.id}
        errors={fields.email.errors}
        errorId={fields.email.errorId}
      >
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
      </Field>
      <Field
        label="Password"
        htmlFor={fields.password.id}
        errors={fields.password.errors}
        hint={`At least ${PASSWORD_MIN} characters.`}
      >
        <input
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="new-password"
        />
      </Field>
      <Field label="Confirm password" htmlFor={fields.confirm.id} errors={fields.confirm.errors}>
        <input
          {...getInputProps(fields.confirm, { type: "password" })}
          autoComplete="new-password"
        />
      </Field>
      <StepFooter label="Next" />
    </Form>
  );
}

export function RetailerStep({
  target,
  retailer,
}: Target & { retailer: ReturnType<typeof storeInfoFormValues> | null }) {
  const [form, fields] = useForm({
    id: "setup-retailer",
    lastResult: useLastResult(),
    defaultValue: retailer ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Retailer</h2>
      <input type="hidden" name="step" value="retailer" />
      <TargetInput target={target} />
      <ErrorList kind="form" errors={form.errors} />
      <StoreInfoFields fields={fields} />
      <StepFooter label="Next" />
    </Form>
  );
}

export function ContactStep({ target, contact }: Target & { contact: SetupContactValues | null }) {
  const [form, fields] = useForm({
    id: "setup-contact",
    lastResult: useLastResult(),
    defaultValue: contact ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const jobIsOther = (fields.job_title.value ?? contact?.job_title) === "Other";
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Retailer Contact</h2>
      <input type="hidden" name="step" value="contact" />
      <TargetInput target={target} />
      <ErrorList kind="form" errors={form.errors} />
      <ContactInfoFields fields={fields} jobIsOther={jobIsOther} />
      <StepFooter label="Next" />
    </Form>
  );
}

export function BrandsStep({
  target,
  brands,
}: Target & { brands: { id: number; name: string }[] }) {
  const [form, fields] = useForm({
    id: "setup-brands",
    lastResult: useLastResult(),
    defaultValue: { brand_ids: [] as string[], requests: [{}] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BrandsStepSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const requests = fields.requests.getFieldList();
  const brandOptions = brands.map((b) => String(b.id));
  const nameOf = (id: string) => brands.find((b) => String(b.id) === id)?.name ?? id;
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Request Brands</h2>
      <p>
        Choose the brands you are an authorized retailer of, and tell us about any brand that is not
        listed yet.
      </p>
      <input type="hidden" name="step" value="brands" />
      <TargetInput target={target} />
      <ErrorList kind="form" errors={form.errors} />
      <fieldset className="request">
        <legend>Brands on the marketplace</legend>
        {brands.length === 0 ? <p className="muted">No brands yet: request yours below.</p> : null}
        <div className="checkbox-list">
          {getCollectionProps(fields.brand_ids, { type: "checkbox", options: brandOptions }).map(
            ({ key, ...props }) => (
              <label key={key} htmlFor={props.id}>
                <input {...props} /> {nameOf(props.value)}
              </label>
            ),
          )}
        </div>
        <ErrorList errors={fields.brand_ids.errors} />
      </fieldset>
      {requests.map((req, i) => {
        const r = req.getFieldset();
        return (
          <fieldset className="request" key={req.key}>
            <legend>Brand request {requests.length > 1 ? i + 1 : ""}</legend>
            <div className="form-row">
              <Field label="Brand name" htmlFor={r.brand_name.id} errors={r.brand_name.errors}>
                <input {...getInputProps(r.brand_name, { type: "text" })} />
              </Field>
              <Field
                label="Yearly purchases with this brand ($)"
                htmlFor={r.brand_purchase_amount.id}
                errors={r.brand_purchase_amount.errors}
              >
                <input
                  {...getInputProps(r.brand_purchase_amount, { type: "text" })}
                  inputMode="decimal"
                />
              </Field>
            </div>
            <div className="field">
              <span>Your interest in this brand</span>
              <div className="checkbox-list">
                {getCollectionProps(r.your_interest_in_this_brand, {
                  type: "checkbox",
                  options: BRAND_INTERESTS.map((x) => x.value),
                }).map(({ key, ...props }) => (
                  <label key={key} htmlFor={props.id}>
                    <input {...props} />{" "}
                    {BRAND_INTERESTS.find((x) => x.value === props.value)?.label}
                  </label>
                ))}
              </div>
            </div>
            <div className="form-row">
              <Field
                label="Brand contact name"
                htmlFor={r.brand_contact_name.id}
                errors={r.brand_contact_name.errors}
              >
                <input {...getInputProps(r.brand_contact_name, { type: "text" })} />
              </Field>
              <Field
                label="Brand contact email"
                htmlFor={r.brand_contact_email.id}
                errors={r.brand_contact_email.errors}
              >
                <input {...getInputProps(r.brand_contact_email, { type: "email" })} />
              </Field>
            </div>
            {requests.length > 1 ? (
              <button
                className="link-button"
                {...form.remove.getButtonProps({ name: fields.requests.name, index: i })}
              >
                Remove this request
              </button>
            ) : null}
          </fieldset>
        );
      })}
      <div className="form-actions">
        <button
          className="button button-outline"
          {...form.insert.getButtonProps({ name: fields.requests.name, defaultValue: {} })}
        >
          Request another brand
        </button>
      </div>
      <StepFooter label="Finish" />
    </Form>
  );
}
