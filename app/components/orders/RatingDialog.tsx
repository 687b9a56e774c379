/**
 * The rating page's dialogs (docs/product/screens.md, "Rating"): "Rate this Transaction" with its four star
 * criteria and comments (the package is confirmed from inside it too), and "Rating saved!" before the page
 * moves on; and the "I received the package" button (action 222).
 */
import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  type FieldMetadata,
  type FormMetadata,
} from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { z } from "zod";
import { RATE_THIS_TRANSACTION, RATING_SAVED } from "../../../domain/messages";
import { ErrorList } from "~/components/forms";
import { RATING_FIELDS, type RatingSchema } from "~/components/orders/schemas";

type Rating = z.input<typeof RatingSchema>;

/** "I received the package" (action 222): on the page, and inside the rating dialog while it is open. */
export function ConfirmReceived({ inDialog = false }: { inDialog?: boolean }) {
  return (
    <Form method="post" action={inDialog ? "?rate=1" : undefined}>
      <input type="hidden" name="intent" value="confirm_received" />
      <button type="submit" className="button button-outline" data-testid="confirm-received">
        I received the package
      </button>
    </Form>
  );
}

/** The rating form in its dialog; `confirmErrors` (the confirm button's refusal) shows only when given. */
export function RatingDialog({
  form,
  fields,
  message,
  confirmErrors,
  canConfirm,
  submitting,
}: {
  form: FormMetadata<Rating, string[]>;
  fields: { [K in keyof Rating]-?: FieldMetadata<Rating[K], Rating, string[]> };
  message?: string;
  confirmErrors: string[] | undefined | null;
  canConfirm: boolean;
  submitting: boolean;
}) {
  return (
    <div
      className="modal"
      role="dialog"
      aria-modal="true"
      aria-labelledby="rate-title"
      data-testid="rating-modal"
    >
      <div className="modal-box">
        <h2 id="rate-title">{RATE_THIS_TRANSACTION}</h2>
        {/* The dialog covers the page: the package is confirmed from inside it (docs/product/screens.md, "Rating"). */}
        {message ? (
          <div className="alert alert-success" role="status" data-testid="modal-confirmed">
            {message}
          </div>
        ) : null}
        {confirmErrors !== null ? (
          <ErrorList kind="form" testId="modal-confirm-error" errors={confirmErrors} />
        ) : null}
        {canConfirm ? <ConfirmReceived inDialog /> : null}
        <ErrorList kind="form" testId="rate-error" errors={form.errors} />
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="rate" />
          {RATING_FIELDS.map((f) => {
            const field = fields[f.name];
            return (
              <fieldset key={f.name} data-testid={`stars-${f.name}`}>
                <legend>{f.label}</legend>
                <span className="stars">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <label key={n}>
                      <input {...getInputProps(field, { type: "radio", value: String(n) })} /> {n}
                    </label>
                  ))}
                </span>
                <ErrorList kind="list" errors={field.errors?.slice(0, 1)} />
              </fieldset>
            );
          })}
          <label>
            Comments
            <textarea
              {...getTextareaProps(fields.comments)}
              rows={3}
              data-testid="rating-comments"
            />
          </label>
          <div className="form-actions">
            <button
              type="submit"
              className="button"
              data-testid="submit-rating"
              disabled={submitting}
            >
              Save rating
            </button>
            <Link
              to="."
              replace
              preventScrollReset
              className="button button-outline"
              data-testid="cancel-rating"
            >
              Cancel
            </Link>
          </div>
        </Form>
      </div>
    </div>
  );
}

/** "Rating saved!", with a link to where the page goes after the delay. */
export function RatingSavedDialog({ to }: { to: string }) {
  return (
    <div className="modal" role="dialog" aria-modal="true" data-testid="rating-saved">
      <div className="modal-box">
        <h2>{RATING_SAVED}</h2>
        <p>
          <Link to={to}>Continue</Link>
        </p>
      </div>
    </div>
  );
}
