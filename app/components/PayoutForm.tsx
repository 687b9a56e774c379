/**
 * The payout (merchant details) form (docs/product/screens.md, "Settings and payout"), used by /getpaid/ and Settings → Payout Info.
 * Conform + the shared Zod schema validate in the browser; the server validates again and its errors
 * (including the payment provider's) come back under each field and in an "Errors" dialog.
 */
import { getFormProps, getInputProps, useForm, type FieldMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useNavigation,
} from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { PAYOUT_FIELD_LABELS, payoutDetailsSchema, type PayoutField } from "../../domain/payout";
import { ErrorList, Field } from "~/components/forms";
import { NOTICES } from "~/components/shell-data";
import type { PayoutActionData, payoutLoader } from "~/utils/payout.server";

type LoaderData = Awaited<ReturnType<typeof payoutLoader>>;

/** A payout field: the forms module's Field with the payout label and the field's name on its error. */
function PayoutRow({
  field,
  name,
  hint,
  children,
}: {
  field: FieldMetadata<unknown>;
  name: PayoutField;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Field
      label={PAYOUT_FIELD_LABELS[name]}
      htmlFor={field.id}
      errors={field.errors}
      errorId={field.errorId}
      name={name}
      hint={hint}
    >
      {children}
    </Field>
  );
}

function ErrorsDialog({ errors }: { errors: string[] }) {
  const [open, setOpen] = useState(true);
  useEffect(() => setOpen(true), [errors]);
  if (!open || errors.length === 0) return null;
  return (
    <dialog
      open
      className="alert alert-danger payout-errors"
      aria-labelledby="payout-errors-title"
      data-testid="payout-errors"
    >
      <div className="alert-body">
        <h2 id="payout-errors-title">Errors</h2>
        <ul>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="button button-small button-outline"
        onClick={() => setOpen(false)}
      >
        Close
      </button>
    </dialog>
  );
}

export function PayoutForm({ title }: { title: string }) {
  const loaderData = useLoaderData<LoaderData>();
  const actionData = useActionData<PayoutActionData>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [form, fields] = useForm({
    id: "payout-form",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: loaderData.defaultValue,
    constraint: getZodConstraint(payoutDetailsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: payoutDetailsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const submissionId = actionData?.submissionId ?? loaderData.submissionId;
  if (actionData?.next) return <PayoutSaved next={actionData.next} />;
  const text = (name: Exclude<PayoutField, "tos_accepted">, extra: Record<string, string> = {}) => (
    <input {...getInputProps(fields[name], { type: "text" })} {...extra} />
  );

  return (
    <div className="payout-page">
      <h2>{title}</h2>
      {loaderData.payoutSet ? (
        <div className="alert alert-success" role="status" data-testid="payout-already-set">
          <p>
            Payout is already set up
            {loaderData.saved ? ` (bank account ending in ${loaderData.saved.accountLast4})` : ""}.
            Submit the form again to change your details.
          </p>
        </div>
      ) : (
        <p className="lead">
          Your listings will not be shown to other retailers until you tell us where to send your
          payouts.
        </p>
      )}
      {loaderData.pending ? (
        <div className="alert alert-warning" role="status">
          <p>
            We are still setting up your payout account. Refresh this page in a moment to see the
            result.
          </p>
        </div>
      ) : null}
      {navigation.state === "idle" && actionData?.errors?.length ? (
        <ErrorsDialog errors={actionData.errors} />
      ) : null}

      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="payout-form">
        <input type="hidden" name="submission_id" value={submissionId} readOnly />
        <fieldset className="form-stack">
          <legend>Representative</legend>
          <div className="form-row">
            <PayoutRow field={fields.first_name} name="first_name">
              {text("first_name", { autoComplete: "given-name" })}
            </PayoutRow>
            <PayoutRow field={fields.last_name} name="last_name">
              {text("last_name", { autoComplete: "family-name" })}
            </PayoutRow>
          </div>
          <div className="form-row">
            <PayoutRow field={fields.email} name="email">
              <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
            </PayoutRow>
            <PayoutRow field={fields.date_of_birth} name="date_of_birth">
              {text("date_of_birth", { placeholder: "MM/DD/YYYY", inputMode: "numeric" })}
            </PayoutRow>
          </div>
          <PayoutRow field={fields.street_address} name="street_address">
            {text("street_address", { autoComplete: "address-line1" })}
          </PayoutRow>
          <div className="form-row">
            <PayoutRow field={fields.locality} name="locality">
              {text("locality", { autoComplete: "address-level2" })}
            </PayoutRow>
            <PayoutRow field={fields.region} name="region">
              {text("region", {
                maxLength: "2",
                placeholder: "NY",
                autoComplete: "address-level1",
              })}
            </PayoutRow>
            <PayoutRow field={fields.postal_code} name="postal_code">
              {text("postal_code", {
                inputMode: "numeric",
                maxLength: "5",
                autoComplete: "postal-code",
              })}
            </PayoutRow>
          </div>
        </fieldset>

        <fieldset className="form-stack">
          <legend>Business</legend>
          <PayoutRow field={fields.buslegal_name} name="buslegal_name">
            {text("buslegal_name", { autoComplete: "organization" })}
          </PayoutRow>
          <PayoutRow
            field={fields.bustax_id}
            name="bustax_id"
            hint={
              loaderData.saved
                ? `On file: ending in ${loaderData.saved.bustaxIdLast4}. Enter it again to save changes.`
                : "##-#######"
            }
          >
            {text("bustax_id", {
              placeholder: "12-3456789",
              inputMode: "numeric",
              autoComplete: "off",
            })}
          </PayoutRow>
          <PayoutRow field={fields.busstreet_address} name="busstreet_address">
            {text("busstreet_address")}
          </PayoutRow>
          <div className="form-row">
            <PayoutRow field={fields.buslocality} name="buslocality">
              {text("buslocality")}
            </PayoutRow>
            <PayoutRow field={fields.busregion} name="busregion">
              {text("busregion", { maxLength: "2", placeholder: "NY" })}
            </PayoutRow>
            <PayoutRow field={fields.buspostal_code} name="buspostal_code">
              {text("buspostal_code", { inputMode: "numeric", maxLength: "5" })}
            </PayoutRow>
          </div>
        </fieldset>

        <fieldset className="form-stack">
          <legend>Bank account for payouts</legend>
          <div className="form-row">
            <PayoutRow
              field={fields.account_number}
              name="account_number"
              hint={
                loaderData.saved
                  ? `On file: ending in ${loaderData.saved.accountLast4}. Enter it again to save changes.`
                  : undefined
              }
            >
              {text("account_number", { inputMode: "numeric", autoComplete: "off" })}
            </PayoutRow>
            <PayoutRow field={fields.routing_number} name="routing_number">
              {text("routing_number", {
                inputMode: "numeric",
                maxLength: "9",
                autoComplete: "off",
              })}
            </PayoutRow>
          </div>
          <div
            className={`field field-checkbox${fields.tos_accepted.errors?.length ? " field-invalid" : ""}`}
          >
            <label htmlFor={fields.tos_accepted.id}>
              <input {...getInputProps(fields.tos_accepted, { type: "checkbox" })} />{" "}
              {PAYOUT_FIELD_LABELS.tos_accepted} of the marketplace and of its payment provider.
            </label>
            <ErrorList
              id={fields.tos_accepted.errorId}
              errors={fields.tos_accepted.errors}
              name="tos_accepted"
            />
          </div>
        </fieldset>

        <div className="form-actions">
          <button type="submit" className="button" disabled={submitting}>
            {submitting ? "Saving…" : "Save payout details"}
          </button>
        </div>
      </Form>
    </div>
  );
}

/** After a save the page stays 2 s (docs/product/screens.md, "Settings and payout"), then moves on. */
export const PAYOUT_SAVED_MS = 2_000;

/** The saved page: the notice, then `next` after PAYOUT_SAVED_MS (a timer; without scripts a refresh). */
function PayoutSaved({ next }: { next: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const id = window.setTimeout(() => navigate(next), PAYOUT_SAVED_MS);
    return () => window.clearTimeout(id);
  }, [navigate, next]);
  return (
    <div className="alert alert-success" role="status" data-testid="payout-saved">
      <p>{NOTICES.payoutSaved}</p>
      <p>
        <Link to={next}>Continue</Link>
      </p>
      <noscript>
        <meta httpEquiv="refresh" content={`${PAYOUT_SAVED_MS / 1000};url=${next}`} />
      </noscript>
    </div>
  );
}
