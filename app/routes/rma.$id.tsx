/**
 * /rma/:id (docs/product/screens.md, "RMA page"): an RMA as its two retailers see it, each the
 * other only as retailer-00{id}: the stage, the original order, each line with its reason and staff's
 * decision, and the money (what the victim gets back, what the perpetrator is charged) once staff decided.
 * While the return ships, the victim gets its return label and packing slip and the date to ship by.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getOrderDetail } from "../../db/queries/order-views/order-detail";
import { getRmaView, markRmaSeenByPerpetrator } from "../../db/queries/rmas";
import { displayRetailer } from "../../domain/anonymity";
import {
  PAYMENT_QUEUED,
  RMA_CANCELLED_NOTHING_PAID,
  RMA_PRINTED_TEXTS,
} from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { TRANSACTION_TYPE } from "../../domain/states";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { ShipmentsList, ShippingPapers } from "~/components/orders/OrderParts";
import ordersCss from "~/components/orders/orders.css";
import { RmaLinesTable } from "~/components/rma/RmaLines";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { Conversation } from "~/components/orders/Conversation";
import { conversationFor } from "~/utils/messages.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: pageTitle(d ? `RMA ${d.rma.externalId}` : "RMA") },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const auth = await requireRetailer(request);
  const idRaw = params.id ?? "";
  if (!/^\d{1,9}$/.test(idRaw)) throw new Response("Not found", { status: 404 });
  const rma = await getRmaView(db, Number(idRaw), { withOriginal: false });
  const me = auth.retailer.id;
  if (!rma || (rma.victimId !== me && rma.perpetratorId !== me))
    throw new Response("Not found", { status: 404 });
  const detail = await getOrderDetail(db, rma.id, { retailerId: me, isStaff: false });
  const role = rma.victimId === me ? ("victim" as const) : ("perpetrator" as const);
  // The perpetrator has now seen every step so far: its bell alert goes (docs/product/screens.md, "Alerts").
  if (role === "perpetrator" && !auth.user.isStaff) await markRmaSeenByPerpetrator(db, me, rma.id);
  return {
    // The victim's contact for the return is for staff and the victim only (anonymity, as everywhere).
    rma:
      role === "victim"
        ? rma
        : { ...rma, contact: { name: null, email: null, phone: null, packingSlipName: null } },
    role,
    other: displayRetailer({ id: role === "victim" ? rma.perpetratorId : rma.victimId }, false, me),
    orderLink: rma.rmaForId
      ? `/transaction/${rma.rmaForTransactionType === TRANSACTION_TYPE.SWAP ? "swap" : "buy"}/${rma.rmaForId}`
      : null,
    shipments: detail?.shipments ?? [],
    // The RMA's conversation between its two retailers (its provider is the victim, its receiver the perpetrator).
    conversation: await conversationFor(
      {
        id: rma.id,
        externalId: rma.externalId,
        transactionType: TRANSACTION_TYPE.RMA,
        providerId: rma.victimId,
        receiverId: rma.perpetratorId,
      },
      {
        retailerId: me,
        isStaff: auth.user.isStaff,
        role: role === "victim" ? "provider" : "receiver",
      },
    ),
  };
}

export default function RmaPage() {
  const tz = useMarketplaceZone();
  const { rma, role, other, orderLink, shipments, conversation } = useLoaderData<typeof loader>();
  const decided = rma.lines.some((l) => l.approved !== null);
  const ledger = rma.ledger ?? {};
  const parcel = shipments.at(-1) ?? null;
  return (
    <section className="page" data-testid="rma-page" data-stage={rma.stage}>
      <h1>
        RMA {rma.externalId}{" "}
        <span className="pill" data-testid="rma-status">
          {rma.displayStatus}
        </span>
      </h1>
      <dl className="facts">
        <dt>Original order</dt>
        <dd>{orderLink ? <Link to={orderLink}>{rma.rmaForExternalId}</Link> : "—"}</dd>
        <dt>{role === "victim" ? "Returned to" : "Requested by"}</dt>
        <dd data-testid="counterparty">{other}</dd>
        <dt>Requested</dt>
        <dd>{formatDate(rma.createdAt, tz)}</dd>
      </dl>
      <RmaLinesTable lines={rma.lines} />
      {rma.stage === "rmacancelled" ? (
        <p data-testid="rma-money">{RMA_CANCELLED_NOTHING_PAID}</p>
      ) : decided ? (
        <p data-testid="rma-money">
          {role === "victim" ? "Returned to you: " : "Charged to you: "}
          <strong>
            {formatCents(
              Number(
                role === "victim"
                  ? (ledger.victimRefundCents ?? 0)
                  : (ledger.perpetratorChargeCents ?? 0),
              ),
            )}
          </strong>
          {rma.stage === "shipping" ? " (when the return is delivered)" : ""}
          {role === "perpetrator" && ledger.chargeQueued === true ? (
            <span data-testid="rma-charge-queued"> {PAYMENT_QUEUED}</span>
          ) : null}
        </p>
      ) : (
        <p className="muted">{RMA_PRINTED_TEXTS.staffReply}</p>
      )}
      {role === "victim" && rma.stage === "shipping" && parcel ? (
        <div className="order-panel" data-testid="rma-return">
          <h2>Ship the return</h2>
          <p>
            {RMA_PRINTED_TEXTS.returnShipping}
            {rma.deadlines?.shipBy ? ` Ship by ${formatDate(rma.deadlines.shipBy, tz)}.` : ""}
          </p>
          <ShippingPapers
            externalId={rma.externalId}
            labelUrl={parcel.status === "pickup_scheduled" ? parcel.labelUrl : null}
          />
        </div>
      ) : null}
      {shipments.length > 0 ? (
        <>
          <h2>Return shipping</h2>
          <ShipmentsList shipments={shipments} />
        </>
      ) : null}
      <Conversation c={conversation} />
    </section>
  );
}
