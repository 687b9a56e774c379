/**
 * A markdown schedule's fields (docs/product/markdowns.md): step kind and size, every N days, floor kind and
 * value, end date, named as domain/markdown.ts MarkdownFormSchema reads them. One component for the edit page's
 * panel (MarkdownPanel) and the listing wizard's last stage, each field with its own error under it.
 */
import type { FieldMetadata } from "@conform-to/react";
import { InputField, SelectField } from "~/components/forms";

const STEP_KINDS = [
  { value: "percent", label: "Percent of the catalogue price" },
  { value: "amount", label: "Amount in dollars" },
];
const FLOOR_KINDS = [
  { value: "percent", label: "Percent of the catalogue price" },
  { value: "price", label: "Price in dollars" },
];

export type MarkdownFieldName =
  | "stepKind"
  | "step"
  | "everyDays"
  | "floorKind"
  | "floor"
  | "endDate";

/** The defaults a new schedule starts from (the wizard's; the panel starts from the listing's schedule). */
export const MARKDOWN_FIELD_DEFAULTS: Partial<Record<MarkdownFieldName, string>> = {
  stepKind: "percent",
  everyDays: "7",
  floorKind: "percent",
};

export function MarkdownFields({
  fields: all,
}: {
  /** The form's fields (Conform's `fields`), among them the six named MarkdownFieldName, each a string. */
  fields: object;
}) {
  // Conform types a form's fields by its schema; the panel's and the wizard's schemas differ beside these six.
  const fields = all as Record<MarkdownFieldName, FieldMetadata<string | undefined>>;
  return (
    <>
      <SelectField meta={fields.stepKind} label="Step" options={STEP_KINDS} />
      <InputField meta={fields.step} label="Step size" hint="A whole percent, or dollars" />
      <InputField meta={fields.everyDays} label="Every (days)" type="number" min={1} />
      <SelectField meta={fields.floorKind} label="Floor" options={FLOOR_KINDS} />
      <InputField meta={fields.floor} label="Floor value" hint="Below the current price" />
      <InputField meta={fields.endDate} label="End date (optional)" placeholder="YYYY-MM-DD" />
    </>
  );
}
