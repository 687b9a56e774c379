/**
 * The RMA wizard's four steps (docs/product/screens.md, "RMA wizard"), each a form that posts the whole draft
 * so far (hidden fields, app/utils/rma-draft.ts) with its own answers: Select Unit(s), Pictures, Contact
 * Info, Confirm. Errors come from the action's reply (app/routes/create-rma.($id).server.ts) by field name.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { OrderLineView } from "../../../db/queries/order-views/order-detail";
import { PICTURE_REQUIRED } from "../../../domain/messages";
import { formatCents } from "../../../domain/money";
import {
  RMA_MAX_PICTURES_PER_ITEM,
  RMA_REASON_OTHER,
  RMA_REASONS,
  rmaReasonNeedsPictures,
} from "../../../domain/reasons";
import { ErrorList, type ListOfErrors } from "~/components/forms";
import { sizesText } from "~/components/orders/format";
import { draftFields, type RmaDraft, type RmaStepData, type RmaStepName } from "~/utils/rma-draft";

type Errors = Record<string, ListOfErrors>;

function Hidden({ fields }: { fields: [string, string][] }) {
  return (
    <>
      {fields.map(([k, v], i) => (
        <input key={`${k}:${i}`} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

function BackButton({ to }: { to: RmaStepName }) {
  return (
    <button type="submit" name="back" value={to} className="button button-outline" formNoValidate>
      Back
    </button>
  );
}

type StepProps = {
  s: RmaStepData;
  errors: Errors;
  lines: OrderLineView[];
  busy: boolean;
  chosen: OrderLineView[];
};

const reasonLabel = (r: number | null) => RMA_REASONS.find((x) => x.value === r)?.label ?? "";

/** The step `s` shows, with the fields' errors of the action's last answer. */
export function RmaStep({
  s,
  errors,
  lines,
}: {
  s: RmaStepData;
  errors: Errors;
  lines: OrderLineView[];
}) {
  const busy = useNavigation().state !== "idle";
  const chosen = lines.filter((l) => (s.draft.lines[l.contributionId]?.quantity ?? 0) > 0);
  const props: StepProps = { s, errors, lines, busy, chosen };
  if (s.step === "units") return <UnitsStep {...props} />;
  if (s.step === "pictures") return <PicturesStep {...props} />;
  if (s.step === "contact") return <ContactStep {...props} />;
  return <ConfirmStep {...props} />;
}

/** Select Unit(s): units ≤ received and a reason per chosen line ("Other" with its text). */
function UnitsStep({ s, errors, lines, busy }: StepProps) {
  return (
    <Form method="post" className="form-stack" data-testid="rma-units-form">
      <Hidden fields={draftFields(s.draft, "units")} />
      <input type="hidden" name="step" value="units" />
      <table className="table">
        <thead>
          <tr>
            <th>Product</th>
            <th>Received</th>
            <th>Units to return</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => {
            const x = s.draft.lines[l.contributionId];
            return (
              <tr key={l.contributionId} data-testid="rma-line">
                <td>
                  {l.productCode} {l.displayName} ({l.color}) {sizesText(l.sizes)}
                </td>
                <td>{l.quantity}</td>
                <td>
                  <input
                    type="number"
                    min={0}
                    max={l.quantity}
                    step={1}
                    name={`q.${l.contributionId}`}
                    defaultValue={x?.quantity || ""}
                    aria-label={`Units of ${l.productCode} to return`}
                    style={{ width: "5rem" }}
                  />
                  <ErrorList
                    inline
                    testId={`error-q.${l.contributionId}`}
                    errors={errors[`q.${l.contributionId}`]}
                  />
                </td>
                <td>
                  <select
                    name={`r.${l.contributionId}`}
                    defaultValue={x?.reason ?? ""}
                    aria-label={`Reason for ${l.productCode}`}
                  >
                    <option value="">Choose a reason</option>
                    {RMA_REASONS.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                  <ErrorList
                    inline
                    testId={`error-r.${l.contributionId}`}
                    errors={errors[`r.${l.contributionId}`]}
                  />
                  <input
                    type="text"
                    name={`o.${l.contributionId}`}
                    defaultValue={x?.other ?? ""}
                    maxLength={500}
                    placeholder={`If "${reasonLabel(RMA_REASON_OTHER)}": describe it`}
                    aria-label={`Other reason for ${l.productCode}`}
                  />
                  <ErrorList
                    inline
                    testId={`error-o.${l.contributionId}`}
                    errors={errors[`o.${l.contributionId}`]}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="submit" className="button" disabled={busy} data-testid="rma-next">
        Next
      </button>
    </Form>
  );
}

/** Pictures: three for reasons 0, 1 and 3 ('* picture required'), up to three per item. */
function PicturesStep({ s, errors, busy, chosen }: StepProps) {
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="form-stack"
      data-testid="rma-pictures-form"
    >
      <Hidden fields={draftFields(s.draft, "pictures").filter(([k]) => !k.startsWith("p."))} />
      <input type="hidden" name="step" value="pictures" />
      {chosen.map((l) => {
        const x = s.draft.lines[l.contributionId];
        const needs = x.reason !== null && rmaReasonNeedsPictures(x.reason);
        return (
          <fieldset key={l.contributionId} className="field" data-testid="rma-picture-line">
            <legend>
              {l.productCode} × {x.quantity}: {reasonLabel(x.reason)}{" "}
              {needs && x.pictures.length < RMA_MAX_PICTURES_PER_ITEM ? (
                <span className="field-error">{PICTURE_REQUIRED}</span>
              ) : null}
            </legend>
            {x.pictures.map((p) => (
              <span key={p} style={{ marginRight: "0.5rem" }}>
                <input type="hidden" name={`p.${l.contributionId}`} value={p} />
                <img
                  src={s.pictureUrls[p]}
                  alt={`Picture of ${l.productCode}`}
                  width={64}
                  height={64}
                />
                <button
                  type="submit"
                  name="remove"
                  value={p}
                  className="button button-small button-outline"
                >
                  Remove
                </button>
              </span>
            ))}
            {x.pictures.length < RMA_MAX_PICTURES_PER_ITEM ? (
              <label>
                Add pictures (.jpg, .jpeg, .png; up to {RMA_MAX_PICTURES_PER_ITEM}){" "}
                <input
                  type="file"
                  name={`photos.${l.contributionId}`}
                  accept=".jpg,.jpeg,.png,image/jpeg,image/png"
                  multiple
                />
              </label>
            ) : null}
            <ErrorList
              inline
              testId={`error-p.${l.contributionId}`}
              errors={errors[`p.${l.contributionId}`]}
            />
          </fieldset>
        );
      })}
      <div className="form-actions">
        <BackButton to="units" />
        <button
          type="submit"
          name="intent"
          value="upload"
          className="button button-outline"
          disabled={busy}
          data-testid="rma-upload"
        >
          Upload
        </button>
        <button
          type="submit"
          name="intent"
          value="continue"
          className="button"
          disabled={busy}
          data-testid="rma-next"
        >
          Next
        </button>
      </div>
    </Form>
  );
}

/** Contact Info: all four fields required. */
function ContactStep({ s, errors, busy }: StepProps) {
  const fields: [keyof RmaDraft["contact"], string, string][] = [
    ["contact_name", "Contact name", "text"],
    ["contact_email", "Contact e-mail", "email"],
    ["contact_phone", "Contact phone", "tel"],
    ["packing_slip_name", "Name on the packing slip", "text"],
  ];
  return (
    <Form method="post" className="form-stack" data-testid="rma-contact-form">
      <Hidden fields={draftFields(s.draft, "contact")} />
      <input type="hidden" name="step" value="contact" />
      {fields.map(([name, label, type]) => (
        <div key={name} className="field">
          <label htmlFor={`rma-${name}`}>{label}</label>
          <input
            id={`rma-${name}`}
            name={name}
            type={type}
            defaultValue={s.draft.contact[name]}
            required
            maxLength={200}
          />
          <ErrorList inline testId={`error-${name}`} errors={errors[name]} />
        </div>
      ))}
      <div className="form-actions">
        <BackButton to="pictures" />
        <button type="submit" className="button" disabled={busy} data-testid="rma-next">
          Next
        </button>
      </div>
    </Form>
  );
}

/** Confirm: the lines, the contact and 'Amount You Will Receive'; then Process RMA. */
function ConfirmStep({ s, busy, chosen }: StepProps) {
  return (
    <Form method="post" className="form-stack" data-testid="rma-confirm-form">
      <Hidden fields={draftFields(s.draft, "confirm")} />
      <input type="hidden" name="step" value="confirm" />
      <table className="table" data-testid="rma-summary">
        <thead>
          <tr>
            <th>Product</th>
            <th>Units</th>
            <th>Reason</th>
            <th>Pictures</th>
          </tr>
        </thead>
        <tbody>
          {chosen.map((l) => {
            const x = s.draft.lines[l.contributionId];
            return (
              <tr key={l.contributionId}>
                <td>{l.productCode}</td>
                <td>{x.quantity}</td>
                <td>
                  {x.reason === RMA_REASON_OTHER
                    ? `${reasonLabel(x.reason)}: ${x.other}`
                    : reasonLabel(x.reason)}
                </td>
                <td>{x.pictures.length}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        Contact: {s.draft.contact.contact_name}, {s.draft.contact.contact_email},{" "}
        {s.draft.contact.contact_phone}; packing slip: {s.draft.contact.packing_slip_name}
      </p>
      <p>
        Amount You Will Receive:{" "}
        <strong data-testid="rma-amount">{formatCents(s.amountCents)}</strong> (staff review every
        line within five business days)
      </p>
      <div className="form-actions">
        <BackButton to="contact" />
        <button type="submit" className="button" disabled={busy} data-testid="rma-process">
          Process RMA
        </button>
      </div>
    </Form>
  );
}
