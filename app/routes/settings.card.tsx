/**
 * Settings → Card On File (spec 000 §2; spec 001 §2 card details, §8 card_declined): shows the saved card
 * (type and last four) and saves a new one through the payment port (cardOnFileWorkflow).
 * - Sandbox (default): a card form that accepts only the provider's documented test card numbers
 *   (4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined: "Sorry but this card was declined.
 *   Please try another."). The number is never stored: only the card type and the last four.
 * - Stripe keys configured (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY): Stripe Elements collects the card
 *   in the browser and the form posts only the PaymentMethod id, which the server attaches.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { StripeCardField, useStripeCardElement } from "~/components/stripe-elements";
import { CardFields } from "~/components/CardFields";
import { pageTitle } from "~/components/title";
import { cardAction, cardLoader, type CardActionData } from "~/utils/card.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Card On File") }];

export async function loader({ request }: LoaderFunctionArgs) {
  return cardLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return cardAction(request);
}

export default function SettingsCardOnFile() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<CardActionData>();
  const navigation = useNavigation();
  const errors = navigation.state === "idle" && actionData ? actionData.errors : {};
  const submissionId = actionData?.submissionId ?? d.submissionId;
  return (
    <div>
      <h2>Card On File</h2>
      {d.card ? (
        <p className="alert alert-success" data-testid="card-on-file">
          Card on file: <strong>{d.card.description}</strong> ending in <strong>{d.card.lastFour}</strong>
        </p>
      ) : (
        <p data-testid="no-card">You have no card on file. Sellers need one when they approve a sale.</p>
      )}
      {errors[""] ? (
        <div className="alert alert-danger" role="alert" data-testid="card-error">
          {errors[""]}
        </div>
      ) : null}
      <h3>{d.card ? "Replace your card" : "Add a card"}</h3>
      {d.mode === "elements" && d.publishableKey ? (
        <ElementsForm publishableKey={d.publishableKey} submissionId={submissionId} />
      ) : (
        <Form method="post" className="form-stack" data-testid="card-form" autoComplete="off">
          <input type="hidden" name="submission_id" value={submissionId} readOnly />
          <CardFields provider={d.provider} errors={errors} />
          <div className="form-actions">
            <button type="submit" className="button" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Saving…" : "Save"}
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}

/** Stripe Elements: the card never touches our server; the form posts the PaymentMethod id. */
function ElementsForm({ publishableKey, submissionId }: { publishableKey: string; submissionId: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const pmRef = useRef<HTMLInputElement>(null);
  const { mountRef, stripeRef, error, setError, ready } = useStripeCardElement(publishableKey);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    if (pmRef.current?.value) return; // second pass: the id is set, let the form post
    e.preventDefault();
    const s = stripeRef.current;
    if (!s) return;
    const result = await s.stripe.createPaymentMethod({ type: "card", card: s.card });
    if (result.error || !result.paymentMethod) {
      setError(result.error?.message ?? "The card could not be read. Please try again.");
      return;
    }
    if (pmRef.current) pmRef.current.value = result.paymentMethod.id;
    formRef.current?.requestSubmit();
    // The submit event ran synchronously (the form data is taken): a retry after a decline needs a new id.
    if (pmRef.current) pmRef.current.value = "";
  }

  return (
    <Form method="post" ref={formRef} onSubmit={onSubmit} className="form-stack" data-testid="card-elements-form">
      <input type="hidden" name="submission_id" value={submissionId} readOnly />
      <input type="hidden" name="payment_method_id" ref={pmRef} defaultValue="" />
      <StripeCardField mountRef={mountRef} error={error} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={!ready}>
          Save
        </button>
      </div>
    </Form>
  );
}
