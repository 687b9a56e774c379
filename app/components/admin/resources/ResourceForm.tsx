/**
 * The generic form screen (docs/product/screens.md, "Staff: generic lists and forms"): every field of the
 * resource rendered by FieldInput; the action's reply (Conform's) puts the fields' errors under their fields
 * and the form's own error as a danger alert.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { ResourceDef } from "../../../../domain/resources";
import { ErrorList } from "~/components/forms";
import type { ChooserOption, FormValue, FormValues } from "~/utils/resource-form.server";
import { FieldInput } from "./FieldInput";

/** What a refused form sent (Conform's reply's initialValue) as the form's values: lists as lists, a checkbox as "true" or "". */
function sentValues(def: ResourceDef, sent: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const f of def.fields) {
    const v = sent[f.name];
    const all = (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).filter(
      (x): x is string => typeof x === "string",
    );
    out[f.name] =
      f.type === "multiplechoice" || f.type === "list"
        ? all
        : f.type === "boolean"
          ? all.length
            ? "true"
            : ""
          : (all[0] ?? "");
  }
  return out;
}

export type ResourceFormProps = {
  def: ResourceDef;
  /** The row's values (or a new row's prefill). */
  values: FormValues;
  /** The action's answer to a refused save (saveResourceForm): the fields' and the form's errors, what was sent. */
  lastResult?: SubmissionResult<string[]> | null;
  choosers: Record<string, { options: ChooserOption[]; label?: string }>;
  images?: { id: number; url: string; thumbnailUrl: string }[];
  today: string;
  mode: "new" | "edit";
  saved?: boolean;
  /** The submit button's text [Create {label} / Save]. */
  submitLabel?: string;
};

export function ResourceForm({
  def,
  values: rowValues,
  lastResult,
  choosers,
  images,
  today,
  mode,
  saved,
  submitLabel,
}: ResourceFormProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: `resource-${def.name}`,
    lastResult,
  });
  const values = lastResult?.initialValue ? sentValues(def, lastResult.initialValue) : rowValues;
  const [live, setLive] = useState<Record<string, FormValue>>(values);
  const shown = def.fields.filter((f) => !(mode === "new" && f.read_only));
  return (
    <Form
      method="post"
      noValidate
      className="resource-form"
      data-testid="resource-form"
      key={JSON.stringify(values)}
    >
      {/* The current answer's errors only: after a redirect (a save, the wizard's next step) the form is clean again. */}
      <ErrorList kind="form" errors={lastResult ? form.errors : null} />
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
          errors={lastResult ? fields[f.name]?.errors : undefined}
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
