/**
 * The form pieces of every screen (after the Epic Stack's app/components/forms.tsx): one error list and one
 * field family that read Conform's field metadata. Every action answers with `submission.reply()` (parsed by
 * `parseSubmission`, app/utils/form.server.ts), every component reads it with `useForm({ lastResult })` and
 * shows what it answered here: a field's error under the field, the form's errors above the form
 * (docs/product/screens.md says which message each screen shows).
 */
import {
  getCollectionProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from "@conform-to/react";
import type { ReactNode } from "react";

/** What Conform (or an action) gives as a field's or a form's errors. */
export type ListOfErrors = ReadonlyArray<string | null | undefined> | string | null | undefined;

/** The errors to show: without blanks and repeats, in order. */
export function errorsOf(errors: ListOfErrors): string[] {
  const list = typeof errors === "string" ? [errors] : (errors ?? []);
  return [...new Set(list.filter((e): e is string => typeof e === "string" && e !== ""))];
}

/**
 * The one error list.
 * - `kind="field"` (default): a field's first error, red, under its field (`div.field-error`, or a `span` when
 *   `inline`, in a table cell). `name` marks which field it belongs to (`data-field-error`).
 * - `kind="form"`: every error of the form in a red alert above it (`data-testid` "form-error" unless given).
 * - `kind="list"`: every error of a field in a red alert under it (staff's resource forms; `id` is the field's
 *   id, the list's is `${id}-error`, which the field's `aria-describedby` names).
 */
export function ErrorList({
  errors,
  kind = "field",
  id,
  name,
  testId,
  inline,
  children,
}: {
  errors: ListOfErrors;
  kind?: "field" | "form" | "list";
  id?: string;
  name?: string;
  testId?: string;
  inline?: boolean;
  children?: ReactNode;
}) {
  const list = errorsOf(errors);
  if (kind === "form") {
    if (list.length === 0 && !children) return null;
    return (
      <div id={id} className="alert alert-danger" role="alert" data-testid={testId ?? "form-error"}>
        <div className="alert-body">
          {list.map((e) => (
            <p key={e}>{e}</p>
          ))}
          {children}
        </div>
      </div>
    );
  }
  if (list.length === 0) return null;
  if (kind === "list") {
    return (
      <div
        id={id ? `${id}-error` : undefined}
        className="alert alert-danger field-alert"
        role="alert"
        data-testid={testId ?? "field-error"}
      >
        {list.map((e) => (
          <div key={e}>{e}</div>
        ))}
      </div>
    );
  }
  const Tag = inline ? "span" : "div";
  return (
    <Tag id={id} className="field-error" role="alert" data-field-error={name} data-testid={testId}>
      {list[0]}
    </Tag>
  );
}

/**
 * A labelled field: the label, the control (children), a hint, and the field's error under it. The field
 * family below builds on it; a control Conform does not describe (a chooser, a file) goes in as children.
 */
export function Field({
  label,
  htmlFor,
  errors,
  errorId,
  name,
  hint,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  errors?: ListOfErrors;
  errorId?: string;
  /** Marks the error with the field's name (`data-field-error`), where a screen's tests look for it. */
  name?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`field${errorsOf(errors).length ? " field-invalid" : ""}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint ? <div className="field-hint muted">{hint}</div> : null}
      <ErrorList id={errorId} errors={errors} name={name} />
    </div>
  );
}

type Meta = FieldMetadata<string | undefined> | FieldMetadata<string | number | undefined>;
type Common = { meta: Meta; label: ReactNode; hint?: ReactNode; autoComplete?: string };

/** A text, e-mail, phone, number or password input of Conform's field `meta`. */
export function InputField({
  meta,
  label,
  type = "text",
  hint,
  autoComplete,
  ...rest
}: Common & { type?: "text" | "email" | "tel" | "number" | "password" } & Omit<
    JSX.IntrinsicElements["input"],
    "type" | "name" | "id"
  >) {
  return (
    <Field label={label} htmlFor={meta.id} errors={meta.errors} errorId={meta.errorId} hint={hint}>
      <input
        {...getInputProps(meta as FieldMetadata<string | undefined>, { type })}
        autoComplete={autoComplete}
        {...rest}
      />
    </Field>
  );
}

/** A textarea of Conform's field `meta`. */
export function TextareaField({
  meta,
  label,
  hint,
  ...rest
}: Common & Omit<JSX.IntrinsicElements["textarea"], "name" | "id">) {
  return (
    <Field label={label} htmlFor={meta.id} errors={meta.errors} errorId={meta.errorId} hint={hint}>
      <textarea {...getTextareaProps(meta as FieldMetadata<string | undefined>)} {...rest} />
    </Field>
  );
}

/** A select of Conform's field `meta`, with a first blank option (`placeholder`) and `options`. */
export function SelectField({
  meta,
  label,
  hint,
  placeholder,
  options,
}: Common & { placeholder?: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <Field label={label} htmlFor={meta.id} errors={meta.errors} errorId={meta.errorId} hint={hint}>
      <select {...getSelectProps(meta as FieldMetadata<string | undefined>)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A group of checkboxes of Conform's list field `meta`, one per option (several may be chosen). */
export function CheckboxGroupField({
  meta,
  legend,
  hint,
  options,
}: {
  meta: FieldMetadata<string[] | undefined>;
  legend: ReactNode;
  hint?: ReactNode;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const boxes = getCollectionProps(meta, {
    type: "checkbox",
    options: options.map((o) => o.value),
  });
  return (
    <fieldset className={`field${errorsOf(meta.errors).length ? " field-invalid" : ""}`}>
      <legend>{legend}</legend>
      {boxes.map((box, i) => (
        <label key={box.key ?? box.value} className="checkbox">
          <input {...box} key={undefined} /> {options[i].label}
        </label>
      ))}
      {hint ? <div className="field-hint muted">{hint}</div> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} name={meta.name} />
    </fieldset>
  );
}
