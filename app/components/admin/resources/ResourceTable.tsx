/**
 * The generic list screen's table (docs/product/screens.md, "Staff: generic lists and forms"): columns from the resource's list fields,
 * sortable headers, per-row edit / delete / activate-deactivate, and for products expandable rows with their
 * variations and the add-variation modal. Every button is a plain form post to the list's action.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { useRef } from "react";
import { formatCents } from "../../../../domain/money";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import type { FieldDef, ResourceDef } from "../../../../domain/resources";
import { ErrorList } from "~/components/forms";

type Row = Record<string, unknown>;

/** What a row action did (the ?done= of its redirect, app/utils/resource-list.server.ts). */
export const ROW_ACTION_DONE: Record<string, string> = {
  deleted: "Deleted.",
  activated: "Activated.",
  deactivated: "Deactivated.",
  "variation-added": "Variation added.",
};
export type VariationRow = {
  id: number;
  productId: number;
  sku: string;
  color: string;
  priceCents: number;
  isActive: boolean;
};

function show(
  f: FieldDef,
  row: Row,
  labels: Record<string, Record<string, string>>,
  tz: string,
): string {
  const v = row[f.name];
  if (v === null || v === undefined || v === "") return "—";
  if (f.type === "field") return labels[f.name]?.[String(v)] ?? `#${v}`;
  if (f.type === "decimal" && typeof v === "number") return formatCents(v);
  if (f.type === "boolean") return v ? "yes" : "no";
  // A calendar date (YYYY-MM-DD) has no zone; an instant shows as its date in the marketplace time zone.
  if (f.type === "datetime") {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(v));
    return day ? `${day[2]}/${day[3]}/${day[1]}` : formatDate(String(v), tz) || String(v);
  }
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

export function ResourceTable({
  def,
  rows,
  labels,
  variations,
  lastResult,
}: {
  def: ResourceDef;
  rows: Row[];
  labels: Record<string, Record<string, string>>;
  variations?: VariationRow[];
  /** The list action's answer (Conform's reply); an add-variation refused with field errors opens its product's modal. */
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const tz = useMarketplaceZone();
  const [params] = useSearchParams();
  const columns = def.fields.filter((f) => f.list);
  const refusedProduct = Object.keys(lastResult?.error ?? {}).some((k) => k !== "")
    ? Number(lastResult?.initialValue?.product_id)
    : null;
  const sort = params.get("sort") ?? "id";
  const dir = params.get("dir") ?? "desc";
  const sortLink = (f: FieldDef) => {
    const p = new URLSearchParams(params);
    p.set("sort", f.name);
    p.set("dir", sort === f.name && dir === "asc" ? "desc" : "asc");
    p.delete("page");
    return `?${p}`;
  };
  return (
    <table className="table resource-table" data-testid="resource-table">
      <thead>
        <tr>
          {def.name === "product" ? <th aria-label="Details" /> : null}
          {columns.map((f) => (
            <th
              key={f.name}
              aria-sort={sort === f.name ? (dir === "asc" ? "ascending" : "descending") : undefined}
            >
              {f.sortable ? (
                <Link to={sortLink(f)}>
                  {f.label}
                  {sort === f.name ? (dir === "asc" ? " ▲" : " ▼") : ""}
                </Link>
              ) : (
                f.label
              )}
            </th>
          ))}
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length + 2} className="muted">
              Nothing found.
            </td>
          </tr>
        ) : null}
        {rows.map((row) => {
          const id = Number(row.id);
          const own = variations?.filter((v) => v.productId === id);
          return (
            <tr key={id} data-testid={`row-${id}`}>
              {own ? (
                <td>
                  <details
                    data-testid={`details-${id}`}
                    open={refusedProduct === id ? true : undefined}
                  >
                    <summary>details</summary>
                    <VariationsPanel
                      productId={id}
                      variations={own}
                      lastResult={refusedProduct === id ? lastResult : null}
                    />
                  </details>
                </td>
              ) : null}
              {columns.map((f) => (
                <td key={f.name} data-col={f.name}>
                  {f.name === "id" ? (
                    <Link to={`/admin/${def.name}/${id}/`}>{id}</Link>
                  ) : (
                    show(f, row, labels, tz)
                  )}
                </td>
              ))}
              <td className="row-actions">
                <Link
                  to={`/admin/${def.name}/${id}/`}
                  className="button button-small button-outline"
                >
                  Edit
                </Link>
                {def.has_active ? (
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="id" value={id} />
                    <button
                      type="submit"
                      name="intent"
                      value={row.is_active ? "deactivate" : "activate"}
                      className="button button-small button-outline"
                    >
                      {row.is_active ? "Deactivate" : "Activate"}
                    </button>
                  </Form>
                ) : null}
                {def.can_delete ? (
                  <Form
                    method="post"
                    className="inline-form"
                    onSubmit={(e) => {
                      if (!window.confirm(`Delete ${def.label.toLowerCase()} #${id}?`))
                        e.preventDefault();
                    }}
                  >
                    <input type="hidden" name="id" value={id} />
                    <button
                      type="submit"
                      name="intent"
                      value="delete"
                      className="button button-small button-danger"
                    >
                      Delete
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A product's variations and the add-variation modal (option (color), value, price). */
export function VariationsPanel({
  productId,
  variations,
  lastResult,
}: {
  productId: number;
  variations: VariationRow[];
  /** A refused add-variation of this product. */
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [, fields] = useForm<{ option: string; value: string; price: string }>({
    id: `add-variation-${productId}`,
    lastResult,
  });
  return (
    <div className="variations">
      <ul>
        {variations.length === 0 ? <li className="muted">No variations.</li> : null}
        {variations.map((v) => (
          <li key={v.id}>
            <Link to={`/admin/productvariationmanagement/${v.id}`}>
              {v.sku} {v.color}
            </Link>{" "}
            {formatCents(v.priceCents)} {v.isActive ? "" : <span className="pill">inactive</span>}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button-small"
        onClick={() => dialog.current?.showModal()}
      >
        add variation
      </button>
      <dialog
        ref={dialog}
        open={lastResult ? true : undefined}
        aria-label="Add variation"
        data-testid={`add-variation-${productId}`}
      >
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="add-variation" />
          <input type="hidden" name="product_id" value={productId} />
          <h3>Add variation</h3>
          {(
            [
              ["option", "Option (color)", "text", "color"],
              ["value", "Value", "text", ""],
              ["price", "Price", "number", ""],
            ] as const
          ).map(([name, label, type, placeholder]) => (
            <div className="form-field" key={name}>
              <label htmlFor={`av-${productId}-${name}`}>{label} *</label>
              <input
                id={`av-${productId}-${name}`}
                name={name}
                type={type}
                step={type === "number" ? "0.01" : undefined}
                placeholder={placeholder}
                defaultValue={name === "option" ? "color" : ""}
              />
              <ErrorList kind="list" id={`av-${productId}-${name}`} errors={fields[name].errors} />
            </div>
          ))}
          <div className="form-actions">
            <button type="submit" className="button">
              Add
            </button>
            <button
              type="button"
              className="button button-outline"
              onClick={() => dialog.current?.close()}
            >
              Cancel
            </button>
          </div>
        </Form>
      </dialog>
    </div>
  );
}
