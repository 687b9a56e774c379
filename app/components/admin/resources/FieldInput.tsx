/**
 * One field of the generic form (docs/product/screens.md, "Staff: generic lists and forms"), rendered from its FieldDef through
 * widgetFor(): the same rules the unit test checks. Server field errors show in red under the field.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ErrorList } from "~/components/forms";
import { applyMask, widgetFor, type FieldDef, type Widget } from "../../../../domain/resources";
import type { ChooserOption, FormValue } from "~/utils/resource-form.server";

type Props = {
  field: FieldDef;
  value: FormValue | undefined;
  errors?: string[];
  today: string;
  /** Relationship fields: the first options and the chosen row's label. */
  chooser?: { options: ChooserOption[]; label?: string };
  /** Values of the other fields (a filtered chooser reads its parent's). */
  values: Record<string, FormValue | undefined>;
  onChange?: (name: string, value: string) => void;
  images?: { id: number; url: string; thumbnailUrl: string }[];
};

const asString = (v: FormValue | undefined) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

export function FieldInput({
  field,
  value,
  errors,
  today,
  chooser,
  values,
  onChange,
  images,
}: Props) {
  const widget = widgetFor(field, { today });
  const id = `field-${field.name}`;
  const described = errors?.length ? `${id}-error` : field.help_text ? `${id}-help` : undefined;
  const common = {
    id,
    name: field.name,
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": described,
    disabled: field.read_only,
  };
  const label =
    widget.kind === "checkbox" ? null : (
      <label htmlFor={id} className="field-label">
        {field.label}
        {field.required ? " *" : ""}
      </label>
    );
  return (
    <div className="form-field" data-field={field.name} data-widget={widget.kind}>
      {label}
      <Control
        widget={widget}
        field={field}
        common={common}
        value={value}
        chooser={chooser}
        values={values}
        onChange={onChange}
        images={images}
      />
      {field.help_text ? (
        <small id={`${id}-help`} className="muted">
          {field.help_text}
        </small>
      ) : null}
      <ErrorList kind="list" id={id} errors={errors} />
    </div>
  );
}

type ControlProps = Omit<Props, "errors" | "today"> & {
  widget: Widget;
  common: {
    id: string;
    name: string;
    disabled?: boolean;
    "aria-invalid"?: boolean;
    "aria-describedby"?: string;
  };
};

function Control({
  widget,
  field,
  common,
  value,
  chooser,
  values,
  onChange,
  images,
}: ControlProps) {
  const str = asString(value);
  switch (widget.kind) {
    case "text":
    case "email":
      return <input {...common} type={widget.inputType} defaultValue={str} />;
    case "textarea":
      return (
        <textarea
          {...common}
          rows={widget.minRows}
          data-max-rows={widget.maxRows}
          style={{ maxHeight: `${widget.maxRows * 1.6}em` }}
          defaultValue={str}
        />
      );
    case "masked":
      return (
        <MaskedInput
          common={common}
          mask={widget.mask}
          inputType={widget.inputType}
          initial={str}
        />
      );
    case "number":
      return (
        <input
          {...common}
          type="number"
          step={widget.step}
          min={widget.min}
          max={widget.max}
          defaultValue={str}
        />
      );
    case "select":
      return (
        <select {...common} defaultValue={str}>
          <option value="">—</option>
          {(field.choices ?? []).map((c) => (
            <option key={c.value} value={c.value}>
              {c.display_name}
            </option>
          ))}
        </select>
      );
    case "stars":
      return (
        <fieldset className="stars" id={common.id} aria-label={field.label} data-max={widget.max}>
          {Array.from({ length: widget.max }, (_, i) => String(i + 1)).map((n) => (
            <label key={n} title={`${n} of ${widget.max}`}>
              <input
                type="radio"
                name={field.name}
                value={n}
                defaultChecked={str === n}
                disabled={field.read_only}
              />
              ★
            </label>
          ))}
        </fieldset>
      );
    case "checkboxes": {
      const chosen = new Set(Array.isArray(value) ? value : value ? [value] : []);
      return (
        <fieldset className="checkbox-list" id={common.id} aria-label={field.label}>
          {(field.choices ?? []).map((c) => (
            <label key={c.value}>
              <input
                type="checkbox"
                name={field.name}
                value={c.value}
                defaultChecked={chosen.has(c.value)}
                disabled={field.read_only}
              />{" "}
              {c.display_name}
            </label>
          ))}
        </fieldset>
      );
    }
    case "image":
      return (
        <div className="thumbnails" id={common.id}>
          {(images ?? []).length === 0 ? <span className="muted">No images.</span> : null}
          {(images ?? []).map((img) => (
            <img
              key={img.id}
              src={img.thumbnailUrl || img.url}
              alt=""
              width={80}
              height={80}
              className="thumbnail"
            />
          ))}
        </div>
      );
    case "checkbox":
      return (
        <label className="checkbox-label">
          <input {...common} type="checkbox" defaultChecked={str === "true" || str === "on"} />{" "}
          {widget.label}
        </label>
      );
    case "date":
      return <input {...common} type="date" min={widget.min} defaultValue={str} />;
    case "chooser":
      return (
        <Chooser
          field={field}
          common={common}
          value={str}
          chooser={chooser}
          values={values}
          onChange={onChange}
        />
      );
  }
}

function MaskedInput({
  common,
  mask,
  inputType,
  initial,
}: {
  common: ControlProps["common"];
  mask: string;
  inputType: string;
  initial: string;
}) {
  const [v, setV] = useState(initial);
  return (
    <input
      {...common}
      type={inputType}
      placeholder={mask}
      value={v}
      onChange={(e) => setV(applyMask(mask, e.target.value))}
    />
  );
}

/**
 * The chooser (docs/product/screens.md, "Staff: generic lists and forms"): a search box with CLEAR, the options (from /admin/:resource/choices, filtered by the
 * parent field's value: disabled until it has one), a preview of the chosen row, and "or add {class}" (a new
 * tab on the create form of that class).
 */
function Chooser({
  field,
  common,
  value,
  chooser,
  values,
  onChange,
}: Pick<ControlProps, "field" | "common" | "chooser" | "values" | "onChange"> & { value: string }) {
  const fetcher = useFetcher<{ options: ChooserOption[] }>();
  const resource = field.relationship_resource ?? "";
  const parentValue = field.filter ? asString(values[field.filter.field]) : "";
  const blocked = field.filter ? parentValue === "" : false;
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState(value);
  const options = fetcher.data?.options ?? chooser?.options ?? [];
  const load = (q: string) => {
    const p = new URLSearchParams();
    if (q) p.set("search", q);
    if (field.filter && parentValue) p.set(field.filter.param, parentValue);
    for (const [k, v] of Object.entries(field.extra_filters ?? {})) p.set(k, v);
    fetcher.load(`/admin/${resource}/choices?${p}`);
  };
  // A filtered chooser reloads when its parent changes.
  useEffect(() => {
    if (field.filter && parentValue) load(search);
    // Only a new parent value reloads the choices (not every keystroke of the search).
  }, [parentValue]);
  const label =
    options.find((o) => String(o.id) === chosen)?.display_name ??
    (chosen === value ? chooser?.label : undefined);
  return (
    <div className="chooser" data-resource={resource}>
      {field.read_only ? null : (
        <div className="search-box">
          <input
            type="search"
            aria-label={`Search ${field.label}`}
            placeholder="Search"
            value={search}
            disabled={blocked}
            onChange={(e) => {
              setSearch(e.target.value);
              if (e.target.value.trim().length > 2) load(e.target.value.trim());
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                load(search.trim());
              }
            }}
          />
          <button
            type="button"
            className="button button-small button-outline"
            disabled={blocked}
            onClick={() => {
              setSearch("");
              load("");
            }}
          >
            CLEAR
          </button>
        </div>
      )}
      <select
        {...common}
        value={chosen}
        disabled={common.disabled || blocked}
        onChange={(e) => {
          setChosen(e.target.value);
          onChange?.(field.name, e.target.value);
        }}
      >
        <option value="">{blocked ? `Choose ${field.filter?.field} first` : "—"}</option>
        {chosen && !options.some((o) => String(o.id) === chosen) ? (
          <option value={chosen}>{label ?? `#${chosen}`}</option>
        ) : null}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.display_name}
          </option>
        ))}
      </select>
      {chosen ? (
        <span className="chooser-preview muted" data-testid={`preview-${field.name}`}>
          {label ?? `#${chosen}`} (#{chosen})
        </span>
      ) : null}
      {field.read_only ? null : (
        <a
          href={`/admin/${resource}/new/`}
          target="_blank"
          rel="noreferrer"
          className="chooser-add"
        >
          or add {resource}
        </a>
      )}
    </div>
  );
}
