/**
 * Pieces of the staff-users screens (docs/product/screens.md, "Staff users"): the permissions map's
 * checkboxes (Conform's collection props, so a refused form keeps what was ticked) and the notice after a change.
 */
import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { ErrorList } from "~/components/forms";

export type PermissionChoice = { name: string; label: string };

export function PermissionBoxes({
  meta,
  choices,
  legend,
}: {
  meta: FieldMetadata<string[] | undefined>;
  choices: readonly PermissionChoice[];
  legend: string;
}) {
  const labelOf = (name: string) => choices.find((c) => c.name === name)?.label ?? name;
  return (
    <fieldset className="field" data-testid="permission-boxes">
      <legend>{legend}</legend>
      <div className="checkbox-list">
        {getCollectionProps(meta, { type: "checkbox", options: choices.map((c) => c.name) }).map(
          ({ key, ...props }) => (
            <label key={key} htmlFor={props.id}>
              <input {...props} /> {labelOf(props.value)}
            </label>
          ),
        )}
      </div>
      <ErrorList errors={meta.errors} />
    </fieldset>
  );
}

export function DoneNotice({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <div className="alert alert-success" role="status" data-testid="staff-notice">
      {notice}
    </div>
  );
}
