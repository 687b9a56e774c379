/**
 * Settings → Card On File (docs/product/screens.md, "Settings and payout"): shows the saved card
 * (type and last four) and saves a new one through the payment port (cardOnFileWorkflow).
 * - Sandbox (default): a card form that accepts only the provider's documented test card numbers
 *   (4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined: "Sorry but this card was declined.
 *   Please try another."). The number is never stored: only the card type and the last four.
 * - Stripe keys configured (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY): Stripe Elements collects the card
 *   in the browser and the form posts only the PaymentMethod id, which the server attaches.
 */
import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ElementsCardForm } from "~/components/stripe-elements";
import { CardFields } from "~/components/CardFields";
import { ErrorList } from "~/components/forms";
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
  const [form] = useForm({
    id: "card-on-file",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
  });
  const shown = navigation.state === "idle" && actionData;
  const submissionId = actionData?.submissionId ?? d.submissionId;
  return (
    <div>
      <h2>Card On File</h2>
      {d.card ? (
        <p className="alert alert-success" data-testid="card-on-file">
          Card on file: <strong>{d.card.description}</strong> ending in{" "}
          <strong>{d.card.lastFour}</strong>
        </p>
      ) : (
        <p data-testid="no-card">
          You have no card on file. Sellers need one when they approve a sale.
        </p>
      )}
      <ErrorList kind="form" testId="card-error" errors={shown ? form.errors : null} />
      <h3>{d.card ? "Replace your card" : "Add a card"}</h3>
      {d.mode === "elements" && d.publishableKey ? (
        <ElementsCardForm
          publishableKey={d.publishableKey}
          hidden={{ submission_id: submissionId }}
          testId="card-elements-form"
        >
          Save
        </ElementsCardForm>
      ) : (
        <Form method="post" className="form-stack" data-testid="card-form" autoComplete="off">
          <input type="hidden" name="submission_id" value={submissionId} readOnly />
          <CardFields provider={d.provider} errors={shown ? form.allErrors : {}} />
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
