import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  BRAND_INTERESTS,
  BrandsStepSchema,
  ContactStepSchema,
  PASSWORD_MIN,
  RegisterSchema,
  RetailerStepSchema,
  SETUP_WIZARD_STEPS as ORDER,
  type SetupWizardStep,
} from "../../domain/accounts";
import { SignOutForm } from "~/components/AccountStatusPage";
import { ErrorList, Field } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { ContactInfoFields, StoreInfoFields } from "~/components/account-fields";
import { setupAction, setupPageData } from "./retailer-setup.server";

/** No slide-out menu or navbar on the setup wizard (docs/product/screens.md); the shell's root reads this. */
export const handle = { hideChrome: true };
export const meta: MetaFunction = () => [{ title: pageTitle("Retailer setup") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

const LABELS: Record<SetupWizardStep, string> = {
  user: "User",
  retailer: "Retailer",
  contact: "Retailer Contact",
  brands: "Request Brands",
};

export async function loader({ request }: LoaderFunctionArgs) {
  return setupPageData(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return setupAction(request);
}

function Steps({
  isStaff,
  step,
  current,
  userId,
}: {
  isStaff: boolean;
  step: SetupWizardStep;
  current: SetupWizardStep;
  userId: number | null;
}) {
  const steps = ORDER.filter((s) => isStaff || s !== "user");
  return (
    <ol className="wizard-steps" aria-label="Setup steps">
      {steps.map((s) => {
        const done = ORDER.indexOf(s) < ORDER.indexOf(current);
        const canGo = done && s !== "user";
        const href = `/retailer-setup/?${userId && isStaff ? `user=${userId}&` : ""}step=${s}`;
        return (
          <li
            key={s}
            aria-current={s === step ? "step" : undefined}
            className={done ? "done" : undefined}
          >
            {canGo && s !== step ? <Link to={href}>{LABELS[s]}</Link> : LABELS[s]}
          </li>
        );
      })}
    </ol>
  );
}

export default function RetailerSetup() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page wizard-page">
      <div className="form-actions" style={{ justifyContent: "space-between" }}>
        <h1>Set up your store</h1>
        <SignOutForm buttonClass="link-button" />
      </div>
      {d.isStaff && d.targetUser ? (
        <p className="muted">Staff: setting up the retailer of {d.targetUser.email}.</p>
      ) : null}
      <Steps
        isStaff={d.isStaff}
        step={d.step}
        current={d.current}
        userId={d.targetUser?.id ?? null}
      />
      {d.step === "user" ? <UserStep /> : null}
      {d.step === "retailer" ? <RetailerStep key="retailer" /> : null}
      {d.step === "contact" ? <ContactStep key="contact" /> : null}
      {d.step === "brands" ? <BrandsStep key="brands" /> : null}
    </section>
  );
}

function useLastResult() {
  const actionData = useActionData<typeof action>();
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

function TargetInput() {
  const d = useLoaderData<typeof loader>();
  return d.isStaff && d.targetUser ? (
    <input type="hidden" name="user" value={d.targetUser.id} />
  ) : null;
}

function UserStep() {
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

function RetailerStep() {
  const d = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "setup-retailer",
    lastResult: useLastResult(),
    defaultValue: d.retailer ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Retailer</h2>
      <input type="hidden" name="step" value="retailer" />
      <TargetInput />
      <ErrorList kind="form" errors={form.errors} />
      <StoreInfoFields fields={fields} />
      <StepFooter label="Next" />
    </Form>
  );
}

function ContactStep() {
  const d = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "setup-contact",
    lastResult: useLastResult(),
    defaultValue: d.contact ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const jobIsOther = (fields.job_title.value ?? d.contact?.job_title) === "Other";
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Retailer Contact</h2>
      <input type="hidden" name="step" value="contact" />
      <TargetInput />
      <ErrorList kind="form" errors={form.errors} />
      <ContactInfoFields fields={fields} jobIsOther={jobIsOther} />
      <StepFooter label="Next" />
    </Form>
  );
}

function BrandsStep() {
  const d = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "setup-brands",
    lastResult: useLastResult(),
    defaultValue: { brand_ids: [] as string[], requests: [{}] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BrandsStepSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const requests = fields.requests.getFieldList();
  const brandOptions = d.brands.map((b) => String(b.id));
  const nameOf = (id: string) => d.brands.find((b) => String(b.id) === id)?.name ?? id;
  return (
    <Form method="post" {...getFormProps(form)} className="form-stack">
      <h2>Request Brands</h2>
      <p>
        Choose the brands you are an authorized retailer of, and tell us about any brand that is not
        listed yet.
      </p>
      <input type="hidden" name="step" value="brands" />
      <TargetInput />
      <ErrorList kind="form" errors={form.errors} />
      <fieldset className="request">
        <legend>Brands on the marketplace</legend>
        {d.brands.length === 0 ? (
          <p className="muted">No brands yet: request yours below.</p>
        ) : null}
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
