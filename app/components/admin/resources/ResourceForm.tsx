/**
 * The generic form screen (issue 12, spec 002 §2.14): every field of the resource rendered by FieldInput;
 * server field errors under their fields, the form's own error (non_field_errors) as a danger alert.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { ResourceDef } from "../../../../domain/resources";
import { FieldInput, type ChooserOption, type FormValue } from "./FieldInput";

export type ResourceFormProps = {
  def: ResourceDef;
  values: Record<string, FormValue>;
  errors?: Record<string, string[]>;
  formError?: string;
  choosers: Record<string, { options: ChooserOption[]; label?: string }>;
  images?: { id: number; url: string; thumbnailUrl: string }[];
  today: string;
  mode: "new" | "edit";
  saved?: boolean;
  /** The submit button's text [Create {label} / Save]. */
  submitLabel?: string;
};

export function ResourceForm({ def, values, errors, formError, choosers, images, today, mode, saved, submitLabel }: ResourceFormProps) {
  const busy = useNavigation().state === "submitting";
  const [live, setLive] = useState<Record<string, FormValue>>(values);
  const shown = def.fields.filter((f) => !(mode === "new" && f.read_only));
  return (
    <Form method="post" noValidate className="resource-form" data-testid="resource-form" key={JSON.stringify(values)}>
      {formError ? (
        <p className="alert alert-danger" role="alert" data-testid="form-error">
          {formError}
        </p>
      ) : null}
      {saved ? (
        <p className="alert alert-success" role="status">
          Saved.
        </p>
      ) : null}
      {shown.map((f) => (
        <FieldInput
          key={f.name}
          field={f}
          value={values[f.name]}
          errors={errors?.[f.name]}
          today={today}
          chooser={choosers[f.name]}
          values={live}
          images={images}
          onChange={(name, v) => setLive((prev) => ({ ...prev, [name]: v }))}
        />
      ))}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {submitLabel ?? (mode === "new" ? `Create ${def.label.toLowerCase()}` : "Save")}
        </button>
        <Link to={`/admin/${def.name}`} className="button button-outline">
          Back to {def.plural.toLowerCase()}
        </Link>
      </div>
    </Form>
  );
}
