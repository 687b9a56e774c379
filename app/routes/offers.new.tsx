/**
 * /offers/new?listing=:id, "Make an offer" on a sell listing (docs/product/offers.md, "Making an offer"): a price
 * per unit below the listed one and the units per size; the buyer's default card is pre-authorised for the
 * quote at that price. Refusals show the rule's message.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatCents } from "../../domain/money";
import { MakeOfferFormSchema } from "../../domain/offers";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import { newOfferAction, newOfferLoader } from "./offers.new.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Make an offer") }];

export function loader({ request }: LoaderFunctionArgs) {
  return newOfferLoader(request);
}

export function action({ request }: ActionFunctionArgs) {
  return newOfferAction(request);
}

export default function NewOffer() {
  const { listing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MakeOfferFormSchema }),
  });
  if (!listing)
    return (
      <section className="page" data-testid="offer-new">
        <h1>Make an offer</h1>
        <ErrorList id={form.errorId} errors={form.errors} />
        <p>This listing is not available for an offer.</p>
      </section>
    );
  return (
    <section className="page" data-testid="offer-new">
      <h1>Make an offer</h1>
      <p>
        Listed by {listing.sellerLabel} at <strong>{formatCents(listing.priceCents)}</strong> a
        unit. Offer a lower price per unit for the units you choose; your card is pre-authorised for
        it, and the seller has 2 business days to answer.
      </p>
      <Form method="post" action={`/offers/new?listing=${listing.id}`} {...getFormProps(form)}>
        <input type="hidden" name="listing" value={listing.id} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <label htmlFor="offer-price">Your price per unit ($)</label>
        <input id="offer-price" name="price" inputMode="decimal" required />
        <ErrorList id={fields.price.errorId} errors={fields.price.errors} />
        <fieldset>
          <legend>Units</legend>
          {Object.entries(listing.sizes).map(([size, n]) => (
            <label key={size}>
              {size} (of {n}){" "}
              <input
                type="number"
                name={`sizes.${size}`}
                min={0}
                max={n}
                defaultValue={0}
                data-testid={`offer-size-${size}`}
              />
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary">
          Make the offer
        </button>
      </Form>
    </section>
  );
}
