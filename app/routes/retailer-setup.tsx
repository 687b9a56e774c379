import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  BRAND_INTERESTS,
  BrandsStepSchema,
  ContactStepSchema,
  MSG,
  PASSWORD_MIN,
  RegisterSchema,
  RetailerStepSchema,
  setupStepFor,
  storeInfoColumns,
  storeInfoFormValues,
  type SetupStep,
} from "../../domain/accounts";
import {
  getBrandsByIds,
  getContact,
  getRetailer,
  listBrandChoices,
  saveBrandsStep,
  saveContactStep,
  saveRetailerStep,
} from "../../db/queries/retailers";
import { createUser, findUserById, type UserRow } from "../../db/queries/users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireUser, type AuthContext } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { ContactInfoFields, StoreInfoFields } from "./__accounts-ui";
import { ErrorList, Field } from "~/components/forms";

/** No slide-out menu or navbar on the setup wizard (spec 000 §2); the shell's root reads this. */
export const handle = { hideChrome: true };
export const meta: MetaFunction = () => [{ title: pageTitle("Retailer setup") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

type WizardStep = "user" | Exclude<SetupStep, "done">;
const ORDER: WizardStep[] = ["user", "retailer", "contact", "brands"];
const LABELS: Record<WizardStep, string> = { user: "User", retailer: "Retailer", contact: "Retailer Contact", brands: "Request Brands" };

/** Whose setup this is: the signed-in retailer's, or for staff the user chosen with ?user=. */
async function resolveTarget(auth: AuthContext, userParam: string | null): Promise<UserRow | null> {
  if (!auth.user.isStaff) return findUserById(db, auth.user.id);
  if (!userParam || !/^\d{1,9}$/.test(userParam)) return null;
  const u = await findUserById(db, Number(userParam));
  if (!u || u.isStaff) throw redirect("/retailer-setup/");
  return u;
}

async function wizardState(auth: AuthContext, userParam: string | null) {
  const target = await resolveTarget(auth, userParam);
  if (!target) return { target: null, retailer: null, contact: null, current: "user" as WizardStep };
  const retailer = target.retailerId !== null ? await getRetailer(db, target.retailerId) : null;
  const contact = retailer ? await getContact(db, retailer.id, target.id) : null;
  const step = setupStepFor({ hasRetailer: !!retailer, hasContact: !!contact, setupComplete: !!retailer?.setupCompletedAt });
  if (step === "done" || (retailer && retailer.status !== "pending")) {
    if (auth.user.isStaff) throw redirect("/admin/retailers");
    throw redirect(retailer?.status === "denied" ? "/retailer-denied/" : retailer?.status === "pending" ? "/wait-for-activation/" : "/");
  }
  return { target, retailer, contact, current: step as WizardStep };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  const url = new URL(request.url);
  const userParam = url.searchParams.get("user");
  const { target, retailer, contact, current } = await wizardState(auth, userParam);
  // ?step= lets the user go back to an earlier step; never forward past the current one.
  const asked = url.searchParams.get("step") as WizardStep | null;
  const step: WizardStep = asked && ORDER.includes(asked) && ORDER.indexOf(asked) <= ORDER.indexOf(current) && asked !== "user" ? asked : current;
  const brands = step === "brands" ? await listBrandChoices(db) : [];
  return {
    isStaff: auth.user.isStaff,
    step,
    current,
    targetUser: target ? { id: target.id, email: target.email } : null,
    retailer: retailer ? storeInfoFormValues(retailer) : null,
    contact: contact
      ? {
          first_name: contact.firstName,
          last_name: contact.lastName,
          job_title: contact.jobTitle,
          job_title_other: contact.jobTitleOther,
          phone: contact.phone,
          celphone: contact.celphone,
        }
      : null,
    brands: brands.map((b) => ({ id: b.id, name: b.displayName || b.name })),
  };
}

/** A form-level error in Conform's reply shape (what the step forms read as `form.errors`). */
function refuse(message: string, status: number) {
  return data({ status: "error" as const, error: { "": [message] } }, { status });
}

/** Largest id a Postgres integer column holds: larger numbers are not ids (and would make the query fail). */
const MAX_ID = 2_147_483_647;

export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireUser(request);
  const url = new URL(request.url);
  const formData = await readFormData(request);
  const rawUser = formData.get("user") || url.searchParams.get("user");
  const userParam = typeof rawUser === "string" ? rawUser : null;
  const step = String(formData.get("step") ?? "");
  // Tampered or stale input is answered with a 4xx, never a redirect that hides it.
  if (!ORDER.includes(step as WizardStep)) return refuse("Unknown setup step.", 400);
  if (step === "user" && !auth.user.isStaff) return refuse("Only staff create logins for retailers.", 403);
  if (auth.user.isStaff && userParam) {
    const u = /^\d{1,9}$/.test(userParam) ? await findUserById(db, Number(userParam)) : null;
    if (!u || u.isStaff) return refuse("That user does not exist.", 404);
  }
  const { target, retailer, current } = await wizardState(auth, userParam);
  const query = (extra = "") => (auth.user.isStaff && target ? `?user=${target.id}${extra}` : extra ? `?${extra.slice(1)}` : "");

  if (step === "user") {
    const submission = parseSubmission(formData, { schema: RegisterSchema });
    if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "confirm"] }), { status: 400 });
    const created = await createUser(db, { email: submission.value.email, passwordHash: await hashPassword(submission.value.password) });
    if (!created.ok) {
      return data(submission.reply({ hideFields: ["password", "confirm"], fieldErrors: { email: [MSG.alreadyRegistered] } }), { status: 409 });
    }
    return redirect(`/retailer-setup/?user=${created.user.id}`);
  }
  if (!target) throw redirect("/retailer-setup/");
  if (!ORDER.includes(step as WizardStep) || ORDER.indexOf(step as WizardStep) > ORDER.indexOf(current)) {
    throw redirect(`/retailer-setup/${query()}`);
  }

  if (step === "retailer") {
    const submission = parseSubmission(formData, { schema: RetailerStepSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const v = submission.value;
    await saveRetailerStep(db, target.id, storeInfoColumns(v));
    return redirect(`/retailer-setup/${query()}`);
  }
  if (!retailer) throw redirect(`/retailer-setup/${query()}`);

  if (step === "contact") {
    const submission = parseSubmission(formData, { schema: ContactStepSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const v = submission.value;
    await saveContactStep(db, retailer.id, { id: target.id, email: target.email }, {
      firstName: v.first_name,
      lastName: v.last_name,
      jobTitle: v.job_title,
      jobTitleOther: v.job_title === "Other" ? v.job_title_other ?? "" : "",
      phone: v.phone,
      celphone: v.celphone,
    });
    return redirect(`/retailer-setup/${query()}`);
  }

  // step === "brands"
  const submission = parseSubmission(formData, { schema: BrandsStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // Ids that cannot exist are ignored like ids that do not exist (then "choose at least one brand").
  const chosen = await getBrandsByIds(db, [...new Set(submission.value.brand_ids ?? [])].filter((id) => id <= MAX_ID));
  const typed = (submission.value.requests ?? []).filter((r) => !!r.brand_name);
  if (chosen.length === 0 && typed.length === 0) {
    return data(submission.reply({ fieldErrors: { brand_ids: [MSG.brandsRequired] } }), { status: 400 });
  }
  await saveBrandsStep(db, retailer.id, [
    ...chosen.map((b) => ({ brandName: b.displayName || b.name, brandId: b.id })),
    ...typed.map((r) => ({
      brandName: r.brand_name!,
      brandPurchaseAmountCents: r.brand_purchase_amount,
      yourInterestInThisBrand: r.your_interest_in_this_brand ?? [],
      brandContactEmail: r.brand_contact_email ?? "",
      brandContactName: r.brand_contact_name ?? "",
    })),
  ]);
  throw redirect(auth.user.isStaff ? "/admin/retailers" : "/wait-for-activation/");
}

function Steps({ isStaff, step, current, userId }: { isStaff: boolean; step: WizardStep; current: WizardStep; userId: number | null }) {
  const steps = ORDER.filter((s) => isStaff || s !== "user");
  return (
    <ol className="wizard-steps" aria-label="Setup steps">
      {steps.map((s) => {
        const done = ORDER.indexOf(s) < ORDER.indexOf(current);
        const canGo = done && s !== "user";
        const href = `/retailer-setup/?${userId && isStaff ? `user=${userId}&` : ""}step=${s}`;
        return (
          <li key={s} aria-current={s === step ? "step" : undefined} className={done ? "done" : undefined}>
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
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            Sign out
          </button>
        </Form>
      </div>
      {d.isStaff && d.targetUser ? <p className="muted">Staff: setting up the retailer of {d.targetUser.email}.</p> : null}
      <Steps isStaff={d.isStaff} step={d.step} current={d.current} userId={d.targetUser?.id ?? null} />
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
  return d.isStaff && d.targetUser ? <input type="hidden" name="user" value={d.targetUser.id} /> : null;
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
      <Field label="Email" htmlFor={fields.email.id} errors={fields.email.errors} errorId={fields.email.errorId}>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
      </Field>
      <Field label="Password" htmlFor={fields.password.id} errors={fields.password.errors} hint={`At least ${PASSWORD_MIN} characters.`}>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
      </Field>
      <Field label="Confirm password" htmlFor={fields.confirm.id} errors={fields.confirm.errors}>
        <input {...getInputProps(fields.confirm, { type: "password" })} autoComplete="new-password" />
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
      <p>Choose the brands you are an authorized retailer of, and tell us about any brand that is not listed yet.</p>
      <input type="hidden" name="step" value="brands" />
      <TargetInput />
      <ErrorList kind="form" errors={form.errors} />
      <fieldset className="request">
        <legend>Brands on the marketplace</legend>
        {d.brands.length === 0 ? <p className="muted">No brands yet: request yours below.</p> : null}
        <div className="checkbox-list">
          {getCollectionProps(fields.brand_ids, { type: "checkbox", options: brandOptions }).map(({ key, ...props }) => (
            <label key={key} htmlFor={props.id}>
              <input {...props} /> {nameOf(props.value)}
            </label>
          ))}
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
                <input {...getInputProps(r.brand_purchase_amount, { type: "text" })} inputMode="decimal" />
              </Field>
            </div>
            <div className="field">
              <span>Your interest in this brand</span>
              <div className="checkbox-list">
                {getCollectionProps(r.your_interest_in_this_brand, { type: "checkbox", options: BRAND_INTERESTS.map((x) => x.value) }).map(
                  ({ key, ...props }) => (
                    <label key={key} htmlFor={props.id}>
                      <input {...props} /> {BRAND_INTERESTS.find((x) => x.value === props.value)?.label}
                    </label>
                  ),
                )}
              </div>
            </div>
            <div className="form-row">
              <Field label="Brand contact name" htmlFor={r.brand_contact_name.id} errors={r.brand_contact_name.errors}>
                <input {...getInputProps(r.brand_contact_name, { type: "text" })} />
              </Field>
              <Field label="Brand contact email" htmlFor={r.brand_contact_email.id} errors={r.brand_contact_email.errors}>
                <input {...getInputProps(r.brand_contact_email, { type: "email" })} />
              </Field>
            </div>
            {requests.length > 1 ? (
              <button className="link-button" {...form.remove.getButtonProps({ name: fields.requests.name, index: i })}>
                Remove this request
              </button>
            ) : null}
          </fieldset>
        );
      })}
      <div className="form-actions">
        <button className="button button-outline" {...form.insert.getButtonProps({ name: fields.requests.name, defaultValue: {} })}>
          Request another brand
        </button>
      </div>
      <StepFooter label="Finish" />
    </Form>
  );
}
