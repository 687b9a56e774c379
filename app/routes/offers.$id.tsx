/**
 * /offers/:id, an offer as its buyer or its seller sees it (docs/product/offers.md): the price on the table, the
 * units, whose turn it is and until when, the moves so far, and the answers the viewer may give now (accept,
 * decline, counter, withdraw). The other side is only retailer-00{id}.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "../../domain/date-format";
import { formatCents } from "../../domain/money";
import { OFFER_MESSAGES, OfferAnswerFormSchema } from "../../domain/offers";
import { ErrorList } from "~/components/forms";
import { useMarketplaceZone } from "~/components/orders/format";
import { pageTitle } from "~/components/title";
import { offerAction, offerLoader } from "./offers.$id.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Offer") }];

export function loader({ request, params }: LoaderFunctionArgs) {
  return offerLoader(request, params);
}

export function action({ request, params }: ActionFunctionArgs) {
  return offerAction(request, params);
}

const STATUS: Record<string, string> = {
  open: "Open",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  withdrawn: "Withdrawn",
};

export default function OfferPage() {
  const { offer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const tz = useMarketplaceZone();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferAnswerFormSchema }),
  });
  const yourTurn = offer.status === "open" && offer.turn === offer.side;
  return (
    <section className="page" data-testid="offer-page" data-status={offer.status}>
      <h1>
        Offer {offer.side === "buyer" ? "to" : "from"} {offer.counterpart}
      </h1>
      <p data-testid="offer-summary">
        {STATUS[offer.status]}: {offer.units} unit{offer.units === 1 ? "" : "s"} (
        {Object.entries(offer.sizes)
          .map(([s, n]) => `${s} × ${n}`)
          .join(", ")}
        ) at <strong>{formatCents(offer.agreedUnitCents ?? offer.tableUnitCents)}</strong> a unit;
        listed at {formatCents(offer.listedUnitCents)}.
      </p>
      {offer.endReason === "units_taken" ? (
        <p className="alert alert-warning" role="status">
          {OFFER_MESSAGES.unitsTaken}
        </p>
      ) : null}
      {offer.status === "open" ? (
        <p data-testid="offer-turn">
          {yourTurn ? "Your answer is due" : `Waiting for ${offer.counterpart} until`}{" "}
          {yourTurn ? "by " : ""}
          {formatDateTime(offer.deadline, tz)}.
        </p>
      ) : null}
      {offer.orderId ? (
        <p>
          It became <Link to={`/transaction/buy/${offer.orderId}`}>a purchase</Link>.
        </p>
      ) : null}
      <ol data-testid="offer-moves">
        {offer.moves.map((m, i) => (
          <li key={i}>
            {m.by === offer.side ? "You" : offer.counterpart}: {m.kind}
            {m.unitPriceCents !== null ? ` at ${formatCents(m.unitPriceCents)}` : ""} (
            {formatDateTime(m.at, tz)})
          </li>
        ))}
      </ol>
      <ErrorList id={form.errorId} errors={form.errors} />
      {offer.choices.counter ? (
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="counter" />
          <label htmlFor="counter-price">Counter with a price per unit ($)</label>
          <input id="counter-price" name="price" inputMode="decimal" />
          <ErrorList id={fields.price.errorId} errors={fields.price.errors} />
          <button type="submit" className="btn">
            Counter
          </button>
        </Form>
      ) : null}
      {(["accept", "decline", "withdraw"] as const)
        .filter((intent) => offer.choices[intent])
        .map((intent) => (
          <Form method="post" key={intent}>
            <input type="hidden" name="intent" value={intent} />
            <button type="submit" className="btn" data-testid={`offer-${intent}`}>
              {intent === "accept" ? "Accept" : intent === "decline" ? "Decline" : "Withdraw"}
            </button>
          </Form>
        ))}
    </section>
  );
}
