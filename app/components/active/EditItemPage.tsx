/**
 * The edit screens /updatelisting/{id} and /updaterequest/{id} (docs/product/screens.md, "My Listings and
 * Requests"): size counters
 * (integers, min 0), the listing type (listings), the reason, the reason for the change (required, never
 * "none"); Delete = every size at zero with a reason; a listing with pending transactions asks first
 * ("This listing has pending transactions.") and OK sends the form again with pendingok=on.
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ErrorList } from "~/components/forms";
import { formatCents } from "../../../domain/money";
import { editSchemaFor } from "~/utils/item-edit-schema";
import type { EditActionData, EditLoaderData } from "~/utils/my-items.server";
import type { MarkdownActionData } from "~/utils/markdown.server";
import { MarkdownPanel } from "./MarkdownPanel";
import { HIDDEN_UNTIL_PAYOUT } from "./MyItemsPage";

type EditFormShape = {
  sizes: number[];
  listing_type?: "sell" | "swap";
  reason: string;
  modified_reason: string;
  intent?: "save" | "delete";
  pendingok?: "on";
};

export function EditItemPage() {
  const d = useLoaderData() as unknown as EditLoaderData;
  const answered = useActionData() as Partial<EditActionData & MarkdownActionData> | undefined;
  // The markdown panel's answers are its own (app/utils/markdown.server.ts); the edit form reads the rest.
  const actionData = answered?.markdown ? undefined : (answered as EditActionData | undefined);
  const navigation = useNavigation();
  const isListing = d.item.kind === "listings";
  const schema = editSchemaFor(d.item.kind);
  const noun = isListing ? "listing" : "request";
  const [form, fields] = useForm<EditFormShape>({
    id: `edit-${noun}-${d.item.id}`,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: d.defaultValue,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => {
      if (formData.get("intent") === "delete")
        d.item.sizeLabels.forEach((_, i) => formData.set(`sizes[${i}]`, "0"));
      return parseWithZod(formData, { schema });
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const sizeFields = fields.sizes.getFieldList();
  const formRef = useRef<HTMLFormElement>(null);
  const [total, setTotal] = useState(d.item.totalUnits);
  const [pendingOpen, setPendingOpen] = useState(false);
  useEffect(() => setPendingOpen(Boolean(actionData?.pending)), [actionData]);

  const recount = () => {
    const el = formRef.current;
    if (!el) return;
    let sum = 0;
    el.querySelectorAll<HTMLInputElement>("input[data-size-input]").forEach((i) => {
      const n = Number(i.value);
      if (Number.isInteger(n) && n > 0) sum += n;
    });
    setTotal(sum);
  };
  const step = (i: number, delta: number) => {
    const input = formRef.current?.querySelector<HTMLInputElement>(`input[data-size-input="${i}"]`);
    if (!input) return;
    const n = Number(input.value);
    const next = Math.max(0, (Number.isInteger(n) ? n : 0) + delta);
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    setter?.call(input, String(next));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    recount();
  };

  const submitting = navigation.state === "submitting";
  const title = isListing ? "Update Listing" : "Update Request";
  const back = isListing ? "/active/listings" : "/active/requests";
  return (
    <section className="page edit-item" data-kind={d.item.kind}>
      <p>
        <Link to={back}>← {isListing ? "My Listings" : "My Requests"}</Link>
      </p>
      <h1>{title}</h1>
      {d.notice ? (
        <div className="alert alert-success" role="status" data-testid="edit-notice">
          <p>{d.notice}</p>
        </div>
      ) : null}
      {d.correctedNotice ? (
        <div className="alert alert-warning" role="alert" data-testid="corrected-notice">
          <p>{d.correctedNotice}</p>
        </div>
      ) : null}
      {d.asAdmin ? (
        <div className="alert alert-warning" role="status">
          <p>
            You are editing as staff: saving marks this {noun} as corrected, and its retailer is
            asked to re-list it.
          </p>
        </div>
      ) : null}

      <div className="edit-item-summary">
        {d.item.imageUrl ? (
          <img src={d.item.imageUrl} alt={`${d.item.productName}, ${d.item.color}`} />
        ) : null}
        <dl>
          <dt>Brand</dt>
          <dd>{d.item.brandName}</dd>
          <dt>Product</dt>
          <dd data-testid="edit-product-name">{d.item.productName}</dd>
          <dt>Product code</dt>
          <dd data-testid="edit-sku">{d.item.sku}</dd>
          <dt>Colour</dt>
          <dd>{d.item.color}</dd>
          <dt>Wholesale cost</dt>
          <dd>{formatCents(d.item.priceCents)}</dd>
          {d.ownerName ? (
            <>
              <dt>{isListing ? "Listed by" : "Requested by"}</dt>
              <dd>{d.ownerName}</dd>
            </>
          ) : null}
          {d.item.status === "payoutneeded" ? (
            <>
              <dt>Status</dt>
              <dd>
                <span className="badge badge-warning">{HIDDEN_UNTIL_PAYOUT}</span>
              </dd>
            </>
          ) : null}
        </dl>
      </div>

      <Form
        method="post"
        {...getFormProps(form)}
        ref={formRef}
        className="form-stack edit-form"
        data-testid="edit-form"
        onInput={recount}
      >
        <input type="hidden" name="id" value={d.item.id} />
        <ErrorList kind="form" testId="edit-form-errors" errors={form.errors} />
        <fieldset className="size-counters">
          <legend>Sizes</legend>
          {sizeFields.map((f, i) => {
            const label = d.item.sizeLabels[i] ?? `#${i + 1}`;
            return (
              <div className="size-counter" key={f.key}>
                <label htmlFor={f.id}>{label}</label>
                <div className="counter">
                  <button
                    type="button"
                    aria-label={`One less ${label}`}
                    onClick={() => step(i, -1)}
                  >
                    −
                  </button>
                  <input
                    {...getInputProps(f, { type: "number" })}
                    min={0}
                    step={1}
                    inputMode="numeric"
                    data-size-input={i}
                    data-size-label={label}
                  />
                  <button type="button" aria-label={`One more ${label}`} onClick={() => step(i, 1)}>
                    +
                  </button>
                </div>
                <ErrorList id={f.errorId} errors={f.errors} name={`sizes[${i}]`} />
              </div>
            );
          })}
        </fieldset>
        <p>
          Total Units: <strong data-testid="edit-total">{total}</strong>
        </p>

        {isListing ? (
          <div className="field">
            <span className="field-label">Listing type</span>
            <div className="choice-row">
              <label>
                <input
                  type="radio"
                  name={fields.listing_type.name}
                  value="sell"
                  defaultChecked={fields.listing_type.initialValue === "sell"}
                />{" "}
                Sell
              </label>
              <label>
                <input
                  type="radio"
                  name={fields.listing_type.name}
                  value="swap"
                  defaultChecked={fields.listing_type.initialValue === "swap"}
                />{" "}
                Swap
              </label>
            </div>
            <ErrorList
              id={fields.listing_type.errorId}
              errors={fields.listing_type.errors}
              name="listing_type"
            />
          </div>
        ) : null}

        <div className="field">
          <label htmlFor={fields.reason.id}>
            {isListing ? "Reason for listing" : "Reason for request"}
          </label>
          <select {...getSelectProps(fields.reason)}>
            <option value="">Choose a reason</option>
            {d.reasons.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} name="reason" />
        </div>

        <div className="field">
          <label htmlFor={fields.modified_reason.id}>Reason for this change</label>
          <select {...getSelectProps(fields.modified_reason)}>
            {d.modifiedReasons.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <ErrorList
            id={fields.modified_reason.errorId}
            errors={fields.modified_reason.errors}
            name="modified_reason"
          />
        </div>

        <div className="edit-buttons">
          <button type="submit" name="intent" value="save" className="button" disabled={submitting}>
            Save
          </button>
          <button
            type="submit"
            name="intent"
            value="delete"
            className="button button-danger"
            disabled={submitting}
          >
            Delete
          </button>
          <Link to={back} className="button button-outline">
            Cancel
          </Link>
        </div>
        <p className="muted">
          Delete sets every size to zero; choose the reason for the change first.
        </p>

        {actionData?.pending && pendingOpen ? (
          <div
            className="pending-dialog"
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="pending-title"
            data-testid="pending-dialog"
          >
            <h2 id="pending-title">{actionData.pending.message}</h2>
            <p className="muted">
              {actionData.pending.count === 1
                ? "1 order is"
                : `${actionData.pending.count} orders are`}{" "}
              waiting for your answer on this listing. Save anyway?
            </p>
            <input type="hidden" name="pendingok" value="on" />
            <div className="edit-buttons">
              <button
                type="submit"
                name="intent"
                value={actionData.pending.intent}
                className="button"
                data-testid="pending-ok"
              >
                OK
              </button>
              <button
                type="button"
                className="button button-outline"
                onClick={() => setPendingOpen(false)}
              >
                Cancel
              </button>
            </div>
          </div>
        ) : null}
      </Form>
      {d.markdown ? (
        <MarkdownPanel listingId={d.item.id} panel={d.markdown} action={answered?.markdown} />
      ) : null}
      {d.imports.length > 0 ? (
        <section data-testid="import-history">
          <h2>Changed by stock imports</h2>
          <ul>
            {d.imports.map((h) => (
              <li key={`${h.importId}-${h.at}`}>
                {h.at}: {IMPORT_ACTION_WORDS[h.action] ?? "units set"} ({h.units} units) by import{" "}
                {importLink(d.asAdmin, h.importId, h.fileName)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

/** What an import did to the listing, in the history's words ("kept": withdrawn when its orders end, ADR 0029). */
const IMPORT_ACTION_WORDS: Record<string, string> = {
  create: "listed",
  withdraw: "withdrawn",
  kept: "marked to be withdrawn when its order ends",
};

/** The import's name, linked to its results for the owner (staff see the name only: the page is the retailer's). */
function importLink(asAdmin: boolean, importId: number, fileName: string) {
  return asAdmin ? (
    <span>
      #{importId} {fileName}
    </span>
  ) : (
    <Link to={`/stock-import?import=${importId}`}>
      #{importId} {fileName}
    </Link>
  );
}
