/**
 * The payout (merchant details) form (docs/product/screens.md, "Settings and payout"), used by /getpaid/ and Settings → Payout Info.
 * Conform + the shared Zod schema validate every field in the browser. Then the bank account, the company with
 * its tax id and the representative with the date of birth become the payment provider's tokens (Stripe.js's
 * createToken, or the sandbox's stand-in: ADR 0050), and the form posts the tokens and the other fields only;
 * a detail the provider refuses is shown under its field without a post. The server validates what it gets
 * again and its errors (the provider's too) come back under each field and in an "Errors" dialog.
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
  useSubmit,
} from "@remix-run/react";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import {
  lastFour,
  PAYOUT_FIELD_LABELS,
  payoutDetailsSchema,
  type PayoutDetails,
  type PayoutField,
} from "../../domain/payout";
import {
  accountTokenData,
  bankAccountTokenData,
  fieldForParam,
  PAYOUT_PROVIDER_ONLY_FIELDS,
  PAYOUT_TOKEN_FIELDS,
  PAYOUT_TOKEN_MESSAGES,
  payoutErrorList,
  personTokenData,
} from "../../domain/payout-tokens";
import { ErrorList, Field } from "~/components/forms";
import { NOTICES } from "~/components/shell-data";
import { useStripeTokens, type StripeTokensJs } from "~/components/stripe-elements";
import type { PayoutActionData, payoutLoader } from "~/utils/payout.server";

/** Errors of the provider's token step: per field, "" for the form. */
type TokenErrors = Partial<Record<PayoutField | "", string[]>>;

/** The provider's refusals, shown under their fields beside the form's own messages. */
const ProviderErrors = createContext<TokenErrors>({});

/**
 * The provider's three tokens for `details`, or the refusals by field. Each createToken resolves to a token or
 * Stripe's `{ error }`; its parameter path names the field.
 */
async function providerTokens(
  stripe: StripeTokensJs,
  details: PayoutDetails,
): Promise<{ ok: true; ids: Record<string, string> } | { ok: false; errors: TokenErrors }> {
  const kinds = [
    ["account", accountTokenData(details)],
    ["person", personTokenData(details)],
    ["bank_account", bankAccountTokenData(details)],
  ] as const;
  const answers = await Promise.all(
    kinds.map(([kind, data]) =>
      stripe.createToken(kind, data).catch(() => ({ token: undefined, error: undefined })),
    ),
  );
  const errors: TokenErrors = {};
  const ids: Record<string, string> = {};
  answers.forEach((answer, i) => {
    if (answer.token?.id) ids[PAYOUT_TOKEN_FIELDS[kinds[i][0]]] = answer.token.id;
    else
      (errors[fieldForParam(answer.error?.param) ?? ""] ??= []).push(
        answer.error?.message ?? PAYOUT_TOKEN_MESSAGES.providerUnavailable,
      );
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, ids };
}

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
  const errors = [...(field.errors ?? []), ...(useContext(ProviderErrors)[name] ?? [])];
  return (
    <Field
      label={PAYOUT_FIELD_LABELS[name]}
      htmlFor={field.id}
      errors={errors.length > 0 ? errors : undefined}
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
  const submit = useSubmit();
  const { stripe, failed } = useStripeTokens(loaderData.tokenizer);
  const [tokenErrors, setTokenErrors] = useState<TokenErrors>({});
  const [tokenizing, setTokenizing] = useState(false);
  const submitting = navigation.state === "submitting" || tokenizing;

  /** Valid in the browser: the provider's tokens first, then a post without the provider-only fields. */
  async function tokenizeAndPost(details: PayoutDetails, formData: FormData) {
    setTokenErrors({});
    if (!stripe) {
      setTokenErrors({ "": [PAYOUT_TOKEN_MESSAGES.providerUnavailable] });
      return;
    }
    setTokenizing(true);
    try {
      const tokens = await providerTokens(stripe, details);
      if (!tokens.ok) {
        setTokenErrors(tokens.errors);
        return;
      }
      const post = new FormData();
      for (const [name, value] of formData)
        if (!(PAYOUT_PROVIDER_ONLY_FIELDS as readonly string[]).includes(name))
          post.append(name, value);
      for (const [name, id] of Object.entries(tokens.ids)) post.set(name, id);
      post.set("bustax_id_last4", lastFour(details.bustax_id));
      submit(post, { method: "post" });
    } finally {
      setTokenizing(false);
    }
  }

  const [form, fields] = useForm({
    id: "payout-form",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: loaderData.defaultValue,
    constraint: getZodConstraint(payoutDetailsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: payoutDetailsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onSubmit(event, { formData, submission }) {
      event.preventDefault();
      if (submission?.status === "success") void tokenizeAndPost(submission.value, formData);
    },
  });
  const submissionId = actionData?.submissionId ?? loaderData.submissionId;
  const text = (name: Exclude<PayoutField, "tos_accepted">, extra: Record<string, string> = {}) => (
    <input {...getInputProps(fields[name], { type: "text" })} {...extra} />
  );
  /** A field for the provider only: typed once its Stripe.js is there (so it is never posted to us). */
  const providerOnly = (
    name: (typeof PAYOUT_PROVIDER_ONLY_FIELDS)[number],
    extra: Record<string, string> = {},
  ) => <input {...getInputProps(fields[name], { type: "text" })} {...extra} disabled={!stripe} />;
  const idle = navigation.state === "idle";
  const errorList = useMemo(
    () => [...(idle ? (actionData?.errors ?? []) : []), ...payoutErrorList(tokenErrors)],
    [idle, actionData, tokenErrors],
  );
  if (actionData?.next) return <PayoutSaved next={actionData.next} />;

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
      {errorList.length > 0 ? <ErrorsDialog errors={errorList} /> : null}
      {failed || !loaderData.tokenizer ? (
        <div className="alert alert-warning" role="status">
          <p>{PAYOUT_TOKEN_MESSAGES.providerUnavailable}</p>
        </div>
      ) : null}
      <noscript>
        <p className="alert alert-warning">
          Your bank account, tax ID and date of birth go straight to our payment provider from this
          page, which needs JavaScript for it.
        </p>
      </noscript>

      <ProviderErrors.Provider value={tokenErrors}>
        <Form
          method="post"
          {...getFormProps(form)}
          className="form-stack"
          data-testid="payout-form"
        >
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
                {providerOnly("date_of_birth", { placeholder: "MM/DD/YYYY", inputMode: "numeric" })}
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
              {providerOnly("bustax_id", {
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
                {providerOnly("account_number", { inputMode: "numeric", autoComplete: "off" })}
              </PayoutRow>
              <PayoutRow field={fields.routing_number} name="routing_number">
                {providerOnly("routing_number", {
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
      </ProviderErrors.Provider>
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
