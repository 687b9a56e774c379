/**
 * /create-rma/:id (spec 001 §3 "RMA wizard"; decisions.md "Returns (RMA)"): the retailer asks to return goods
 * it received on order :id, in four steps: Select Unit(s) (units ≤ received, a reason per chosen line, free
 * text for "Other"), Pictures (three for reasons 0, 1 and 3: '* picture required'; up to 3 per item; .jpg,
 * .jpeg, .png checked by content), Contact Info (all four required), Confirm ('Amount You Will Receive'; the
 * process button only once every step is complete). Then the RMA is written and its workflow started, and the
 * retailer lands on /?rma=complete. Only within 48 hours of the delivery of what it received, and only when
 * no RMA exists for the order; otherwise the page says why. Works without JavaScript: each step posts the
 * draft so far (app/utils/rma.server.ts).
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getOrderDetail, type OrderDetail, type OrderLineView } from "../../db/queries/order-views/order-detail";
import { PICTURE_REQUIRED, RMA_COMPLETE_QUERY } from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { RMA_MAX_PICTURES_PER_ITEM, RMA_REASON_OTHER, RMA_REASONS, rmaReasonNeedsPictures } from "../../domain/reasons";
import { ErrorList } from "~/components/forms";
import { sizesText } from "~/components/orders/format";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { readFormData, requireTradingRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { draftFields, RMA_STEP_LABELS, RMA_STEPS, type RmaDraft, type RmaErrors, type RmaStepName } from "~/components/rma/draft";
import {
  checkContact,
  checkPictures,
  checkUnits,
  draftAmount,
  draftFromForm,
  firstIncomplete,
  readPicturesForm,
  receivedLines,
  rmaEligibility,
  storeLinePictures,
  submitRma,
} from "~/utils/rma.server";
import { photoUrl } from "~/utils/uploads.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Request a return (RMA)") }];

async function load(request: Request, idRaw: string | undefined) {
  const auth = await requireTradingRetailer(request);
  if (!idRaw || !/^\d{1,9}$/.test(idRaw)) throw new Response("Not found", { status: 404 });
  const order = await getOrderDetail(db, Number(idRaw), { retailerId: auth.retailer.id, isStaff: false });
  if (!order || !order.role || order.transactionType === 3) throw new Response("Not found", { status: 404 });
  return { auth, order, lines: receivedLines(order) };
}

function emptyDraft(lines: OrderLineView[]): RmaDraft {
  return {
    lines: Object.fromEntries(lines.map((l) => [l.contributionId, { quantity: 0, reason: null, other: "", pictures: [] }])),
    contact: { contact_name: "", contact_email: "", contact_phone: "", packing_slip_name: "" },
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, order, lines } = await load(request, params.id);
  const eligible = await rmaEligibility(order, auth.retailer.id);
  return { order, lines, eligible, step: "units" as RmaStepName, draft: emptyDraft(lines), errors: {} as RmaErrors, amountCents: 0, pictureUrls: {} as Record<string, string> };
}

type StepData = { step: RmaStepName; draft: RmaDraft; errors: RmaErrors; amountCents: number; pictureUrls: Record<string, string>; message?: string };

function stepReply(order: OrderDetail, lines: OrderLineView[], step: RmaStepName, draft: RmaDraft, errors: RmaErrors, status = 200, message?: string) {
  const pictureUrls = Object.fromEntries(Object.values(draft.lines).flatMap((l) => l.pictures.map((p) => [p, photoUrl(p)])));
  return data<StepData>({ step, draft, errors, amountCents: draftAmount(order, lines, draft), pictureUrls, message }, { status });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, order, lines } = await load(request, params.id);
  const eligible = await rmaEligibility(order, auth.retailer.id);
  if (!eligible.ok) return data<StepData>({ step: "units", draft: emptyDraft(lines), errors: { "": eligible.message }, amountCents: 0, pictureUrls: {} }, { status: 409 });
  const multipart = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
  const form = multipart ? await readPicturesForm(request) : await readFormData(request);
  const step = String(form.get("step") ?? "");
  const back = String(form.get("back") ?? "");
  const draft = draftFromForm(form, lines);
  if ((RMA_STEPS as readonly string[]).includes(back)) return stepReply(order, lines, back as RmaStepName, draft, {});
  switch (step) {
    case "units": {
      const errors = checkUnits(draft, lines);
      if (Object.keys(errors).length) return stepReply(order, lines, "units", draft, errors, 400);
      return stepReply(order, lines, "pictures", draft, {});
    }
    case "pictures": {
      if (firstIncomplete(draft, lines) === "units") return stepReply(order, lines, "units", draft, checkUnits(draft, lines), 400);
      const stored = await storeLinePictures(form, draft, auth.user.id);
      if (Object.keys(stored).length) return stepReply(order, lines, "pictures", draft, stored, 400);
      if (form.get("intent") !== "continue") return stepReply(order, lines, "pictures", draft, {});
      const errors = checkPictures(draft);
      if (Object.keys(errors).length) return stepReply(order, lines, "pictures", draft, errors, 400);
      return stepReply(order, lines, "contact", draft, {});
    }
    case "contact": {
      const errors = checkContact(draft);
      if (Object.keys(errors).length) return stepReply(order, lines, "contact", draft, errors, 400);
      return stepReply(order, lines, firstIncomplete(draft, lines), draft, {});
    }
    case "confirm": {
      const first = firstIncomplete(draft, lines);
      if (first !== "confirm") return stepReply(order, lines, first, draft, first === "units" ? checkUnits(draft, lines) : first === "pictures" ? checkPictures(draft) : checkContact(draft), 400);
      const sent = await submitRma(order, draft, auth.retailer.id, auth.user.id);
      if (!sent.ok) return stepReply(order, lines, "confirm", draft, { "": sent.message }, sent.status);
      throw redirect(`/?${RMA_COMPLETE_QUERY}`, 303);
    }
    default:
      return stepReply(order, lines, "units", draft, { "": "Unknown step." }, 400);
  }
}

export default function CreateRma() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as StepData | undefined;
  const s: StepData = a ?? { step: d.step, draft: d.draft, errors: d.errors, amountCents: d.amountCents, pictureUrls: d.pictureUrls };
  const o = d.order;
  return (
    <section className="page" data-testid="rma-wizard" data-step={s.step}>
      <p>
        <Link to={`/transaction/${o.ttype}/${o.id}`}>← Back to the order</Link>
      </p>
      <h1>Request a return (RMA) for order {o.externalId}</h1>
      {!d.eligible.ok ? (
        <div className="alert alert-danger" role="alert" data-testid="rma-not-possible">
          {d.eligible.message}
          {d.eligible.rmaId ? (
            <>
              {" "}
              <Link to={`/rma/${d.eligible.rmaId}`}>See the RMA</Link>
            </>
          ) : null}
        </div>
      ) : (
        <>
          <ol className="wizard-steps" aria-label="Steps">
            {RMA_STEPS.map((st) => (
              <li key={st} aria-current={st === s.step ? "step" : undefined} className={st === s.step ? "active" : ""}>
                {RMA_STEP_LABELS[st]}
              </li>
            ))}
          </ol>
          {s.errors[""] ? (
            <div className="alert alert-danger" role="alert" data-testid="rma-error">
              {s.errors[""]}
            </div>
          ) : null}
          <Step s={s} lines={d.lines} />
        </>
      )}
    </section>
  );
}

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

type StepProps = { s: StepData; lines: OrderLineView[]; busy: boolean; chosen: OrderLineView[] };

const reasonLabel = (r: number | null) => RMA_REASONS.find((x) => x.value === r)?.label ?? "";

function Step({ s, lines }: { s: StepData; lines: OrderLineView[] }) {
  const busy = useNavigation().state !== "idle";
  const chosen = lines.filter((l) => (s.draft.lines[l.contributionId]?.quantity ?? 0) > 0);
  const props: StepProps = { s, lines, busy, chosen };
  if (s.step === "units") return <UnitsStep {...props} />;
  if (s.step === "pictures") return <PicturesStep {...props} />;
  if (s.step === "contact") return <ContactStep {...props} />;
  return <ConfirmStep {...props} />;
}

/** Select Unit(s): units ≤ received and a reason per chosen line ("Other" with its text). */
function UnitsStep({ s, lines, busy }: StepProps) {
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
                  <input type="number" min={0} max={l.quantity} step={1} name={`q.${l.contributionId}`} defaultValue={x?.quantity || ""} aria-label={`Units of ${l.productCode} to return`} style={{ width: "5rem" }} />
                  <ErrorList inline testId={`error-q.${l.contributionId}`} errors={s.errors[`q.${l.contributionId}`]} />
                </td>
                <td>
                  <select name={`r.${l.contributionId}`} defaultValue={x?.reason ?? ""} aria-label={`Reason for ${l.productCode}`}>
                    <option value="">Choose a reason</option>
                    {RMA_REASONS.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                  <ErrorList inline testId={`error-r.${l.contributionId}`} errors={s.errors[`r.${l.contributionId}`]} />
                  <input type="text" name={`o.${l.contributionId}`} defaultValue={x?.other ?? ""} maxLength={500} placeholder={`If "${reasonLabel(RMA_REASON_OTHER)}": describe it`} aria-label={`Other reason for ${l.productCode}`} />
                  <ErrorList inline testId={`error-o.${l.contributionId}`} errors={s.errors[`o.${l.contributionId}`]} />
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
function PicturesStep({ s, busy, chosen }: StepProps) {
  return (
    <Form method="post" encType="multipart/form-data" className="form-stack" data-testid="rma-pictures-form">
      <Hidden fields={draftFields(s.draft, "pictures").filter(([k]) => !k.startsWith("p."))} />
      <input type="hidden" name="step" value="pictures" />
      {chosen.map((l) => {
        const x = s.draft.lines[l.contributionId];
        const needs = x.reason !== null && rmaReasonNeedsPictures(x.reason);
        return (
          <fieldset key={l.contributionId} className="field" data-testid="rma-picture-line">
            <legend>
              {l.productCode} × {x.quantity}: {reasonLabel(x.reason)} {needs && x.pictures.length < RMA_MAX_PICTURES_PER_ITEM ? <span className="field-error">{PICTURE_REQUIRED}</span> : null}
            </legend>
            {x.pictures.map((p) => (
              <span key={p} style={{ marginRight: "0.5rem" }}>
                <input type="hidden" name={`p.${l.contributionId}`} value={p} />
                <img src={s.pictureUrls[p]} alt={`Picture of ${l.productCode}`} width={64} height={64} />
                <button type="submit" name="remove" value={p} className="button button-small button-outline">
                  Remove
                </button>
              </span>
            ))}
            {x.pictures.length < RMA_MAX_PICTURES_PER_ITEM ? (
              <label>
                Add pictures (.jpg, .jpeg, .png; up to {RMA_MAX_PICTURES_PER_ITEM}){" "}
                <input type="file" name={`photos.${l.contributionId}`} accept=".jpg,.jpeg,.png,image/jpeg,image/png" multiple />
              </label>
            ) : null}
            <ErrorList inline testId={`error-p.${l.contributionId}`} errors={s.errors[`p.${l.contributionId}`]} />
          </fieldset>
        );
      })}
      <div className="form-actions">
        <BackButton to="units" />
        <button type="submit" name="intent" value="upload" className="button button-outline" disabled={busy} data-testid="rma-upload">
          Upload
        </button>
        <button type="submit" name="intent" value="continue" className="button" disabled={busy} data-testid="rma-next">
          Next
        </button>
      </div>
    </Form>
  );
}

/** Contact Info: all four fields required. */
function ContactStep({ s, busy }: StepProps) {
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
          <input id={`rma-${name}`} name={name} type={type} defaultValue={s.draft.contact[name]} required maxLength={200} />
          <ErrorList inline testId={`error-${name}`} errors={s.errors[name]} />
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
                <td>{x.reason === RMA_REASON_OTHER ? `${reasonLabel(x.reason)}: ${x.other}` : reasonLabel(x.reason)}</td>
                <td>{x.pictures.length}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        Contact: {s.draft.contact.contact_name}, {s.draft.contact.contact_email}, {s.draft.contact.contact_phone}; packing slip: {s.draft.contact.packing_slip_name}
      </p>
      <p>
        Amount You Will Receive: <strong data-testid="rma-amount">{formatCents(s.amountCents)}</strong> (staff review every line within five business days)
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
