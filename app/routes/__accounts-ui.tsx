/** Small form pieces shared by the account pages (not a route: "__" files are ignored by remix.config.js). */
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { HeadersFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { JOB_TITLES } from "../../domain/accounts";

export function FieldError({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="field-error" role="alert">
      {errors[0]}
    </div>
  );
}

export function FormErrors({ errors, children }: { errors?: string[] | null; children?: ReactNode }) {
  if ((!errors || errors.length === 0) && !children) return null;
  return (
    <div className="alert alert-danger" role="alert" data-testid="form-error">
      {errors?.map((e) => (
        <p key={e}>{e}</p>
      ))}
      {children}
    </div>
  );
}

export function Field({
  label,
  htmlFor,
  errors,
  errorId,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  errors?: string[] | null;
  errorId?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`field${errors && errors.length ? " field-invalid" : ""}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint ? <div className="field-hint muted">{hint}</div> : null}
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

/** Passes a throttled action's Retry-After through to the document response (sign-in, register, reset). */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const out = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) out.set("Retry-After", retryAfter);
  return out;
};

/** The client address Express put in the load context (empty when unknown). */
export function clientIp(context: unknown): string {
  const ip = (context as { clientIp?: unknown } | undefined)?.clientIp;
  return typeof ip === "string" ? ip : "";
}

type TextField = FieldMetadata<string | undefined>;
type StoreFieldName = "store_name" | "store_email" | "store_phone" | "business_name" | "address1" | "city" | "state" | "postal_code" | "resale_number";
type ContactFieldName = "celphone" | "first_name" | "last_name" | "job_title" | "job_title_other" | "phone";

function TextInput({ f, label, type = "text", hint, autoComplete }: { f: TextField; label: string; type?: "text" | "email" | "tel"; hint?: string; autoComplete?: string }) {
  return (
    <Field label={label} htmlFor={f.id} errors={f.errors} errorId={f.errorId} hint={hint}>
      <input {...getInputProps(f, { type })} autoComplete={autoComplete} />
    </Field>
  );
}

/** The store fields of the setup wizard's Retailer step and of Settings → Store Info (RetailerStepSchema). */
export function StoreInfoFields({ fields }: { fields: Record<StoreFieldName, TextField> }) {
  return (
    <>
      <TextInput f={fields.store_name} label="Store name" autoComplete="organization" />
      <div className="form-row">
        <TextInput f={fields.store_email} label="Store email" type="email" />
        <TextInput f={fields.store_phone} label="Store phone" type="tel" hint="+1-###-###-####" />
      </div>
      <TextInput f={fields.business_name} label="Business name" hint="The legal name of the business." />
      <TextInput f={fields.address1} label="Shipping Address" autoComplete="address-line1" />
      <div className="form-row">
        <TextInput f={fields.city} label="City" autoComplete="address-level2" />
        <TextInput f={fields.state} label="State" hint="2 letters, e.g. NY" autoComplete="address-level1" />
        <TextInput f={fields.postal_code} label="Postal code" hint="##### or #####-####" autoComplete="postal-code" />
      </div>
      <TextInput f={fields.resale_number} label="Resale number" hint="##-##########-#" />
    </>
  );
}

/**
 * The contact fields of the setup wizard's Contact step and of Settings → Contact Info (ContactStepSchema):
 * the cell phone first (the field the "Action Required!" banner asks for), then name, job title (with the
 * free text when "Other"), phone.
 */
export function ContactInfoFields({ fields, jobIsOther }: { fields: Record<ContactFieldName, TextField>; jobIsOther: boolean }) {
  return (
    <>
      <TextInput f={fields.celphone} label="Cell phone" type="tel" hint="We text you when you have orders to approve." autoComplete="tel" />
      <div className="form-row">
        <TextInput f={fields.first_name} label="First name" autoComplete="given-name" />
        <TextInput f={fields.last_name} label="Last name" autoComplete="family-name" />
      </div>
      <Field label="Job title" htmlFor={fields.job_title.id} errors={fields.job_title.errors} errorId={fields.job_title.errorId}>
        <select {...getSelectProps(fields.job_title)}>
          <option value="">Choose…</option>
          {JOB_TITLES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </Field>
      {jobIsOther || fields.job_title_other.errors ? <TextInput f={fields.job_title_other} label="Job title (other)" /> : null}
      <TextInput f={fields.phone} label="Phone" type="tel" hint="+1-###-###-####" autoComplete="tel" />
    </>
  );
}
