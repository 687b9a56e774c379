/** The store and contact fields shared by the account pages (setup wizard, settings, staff's retailer tabs). */
import type { FieldMetadata } from "@conform-to/react";
import { InputField, SelectField } from "~/components/forms";
import { JOB_TITLES } from "../../domain/accounts";

type TextField = FieldMetadata<string | undefined>;
type StoreFieldName =
  | "store_name"
  | "store_email"
  | "store_phone"
  | "business_name"
  | "address1"
  | "city"
  | "state"
  | "postal_code"
  | "resale_number";
type ContactFieldName =
  | "celphone"
  | "first_name"
  | "last_name"
  | "job_title"
  | "job_title_other"
  | "phone";

/** The store fields of the setup wizard's Retailer step and of Settings → Store Info (RetailerStepSchema). */
export function StoreInfoFields({ fields }: { fields: Record<StoreFieldName, TextField> }) {
  return (
    <>
      <InputField meta={fields.store_name} label="Store name" autoComplete="organization" />
      <div className="form-row">
        <InputField meta={fields.store_email} label="Store email" type="email" />
        <InputField
          meta={fields.store_phone}
          label="Store phone"
          type="tel"
          hint="+1-###-###-####"
        />
      </div>
      <InputField
        meta={fields.business_name}
        label="Business name"
        hint="The legal name of the business."
      />
      <InputField meta={fields.address1} label="Shipping Address" autoComplete="address-line1" />
      <div className="form-row">
        <InputField meta={fields.city} label="City" autoComplete="address-level2" />
        <InputField
          meta={fields.state}
          label="State"
          hint="2 letters, e.g. NY"
          autoComplete="address-level1"
        />
        <InputField
          meta={fields.postal_code}
          label="Postal code"
          hint="##### or #####-####"
          autoComplete="postal-code"
        />
      </div>
      <InputField meta={fields.resale_number} label="Resale number" hint="##-##########-#" />
    </>
  );
}

/**
 * The contact fields of the setup wizard's Contact step and of Settings → Contact Info (ContactStepSchema):
 * the cell phone first (the field the "Action Required!" banner asks for), then name, job title (with the
 * free text when "Other"), phone.
 */
export function ContactInfoFields({
  fields,
  jobIsOther,
}: {
  fields: Record<ContactFieldName, TextField>;
  jobIsOther: boolean;
}) {
  return (
    <>
      <InputField
        meta={fields.celphone}
        label="Cell phone"
        type="tel"
        hint="We text you when you have orders to approve."
        autoComplete="tel"
      />
      <div className="form-row">
        <InputField meta={fields.first_name} label="First name" autoComplete="given-name" />
        <InputField meta={fields.last_name} label="Last name" autoComplete="family-name" />
      </div>
      <SelectField
        meta={fields.job_title}
        label="Job title"
        placeholder="Choose…"
        options={JOB_TITLES.map((t) => ({ value: t, label: t }))}
      />
      {jobIsOther || fields.job_title_other.errors ? (
        <InputField meta={fields.job_title_other} label="Job title (other)" />
      ) : null}
      <InputField
        meta={fields.phone}
        label="Phone"
        type="tel"
        hint="+1-###-###-####"
        autoComplete="tel"
      />
    </>
  );
}
