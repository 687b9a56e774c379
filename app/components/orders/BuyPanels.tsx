/**
 * The action panels of a purchase on /transaction/buy/:id, chosen by the state name (domain/states
 * actionPanelFor; docs/product/screens.md "Order detail"): complete-checkout, provider-approve (approve / modify
 * / decline; the buyer's approve or decline of a modified purchase), shipment-pending (packing slip, shipper
 * checklist, label, cancel shipment) and the order summary (rating, RMA window). Their forms post to the
 * page's action (app/routes/transaction.$ttype.$id.server.ts), which answers with DetailActionData.
 */
import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo, useState } from "react";
import type { z } from "zod";
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import { formatCents } from "../../../domain/money";
import {
  CONFIRM_DECLINE_OTHERS,
  NOT_YET_RATED,
  RATE_THIS_TRANSACTION,
  SELLER_CARD_NEEDED,
  TRANSACTION_LABELS,
} from "../../../domain/messages";
import {
  BUYER_DECLINE_REASONS,
  CANCEL_SHIPMENT_REASONS,
  SELLER_DECLINE_REASONS,
} from "../../../domain/reasons";
import { canCancelShipment, canProviderModifySale } from "../../../domain/states";
import { TEAM_MSG } from "../../../domain/teams";
import type { MyRma } from "~/utils/rma.server";
import { CardFields } from "~/components/CardFields";
import { ErrorList } from "~/components/forms";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { ShippingPapers } from "~/components/orders/OrderParts";
import {
  CancelShipmentSchema,
  CHECKOUT_DECLINE_REASONS,
  DeclineCheckoutSchema,
  DeclineModifiedSchema,
  DeclineSaleSchema,
} from "~/components/orders/schemas";
import { RmaOffer } from "~/components/rma/RmaOffer";

/**
 * What the order page's action answers, a Conform reply for the intent it ran (`command`): a refusal (its errors by field,
 * "" for the form's), or a success with a message, a question (card, confirmation) or a delayed redirect.
 */
export type DetailActionData = SubmissionResult<string[]> & {
  /** The intent (form field) the answer is for. */
  command: string;
  message?: string;
  redirectTo?: string;
  delayMs?: number;
  need?: "payment_method" | "confirm_decline_others";
  resend?: Record<string, string>;
};
/** A refusal's errors by field name, as the page's useForm({ lastResult }) reads them; undefined after a success. */
export type DetailErrors = Record<string, string[] | undefined> | undefined;

type Rating = OrderDetail["ratings"][number];
/** The order summary's data: the order, both ratings and the viewer's RMA offer. */
export type SummaryData = {
  order: OrderDetail;
  myRating: Rating | null;
  otherRating: Rating | null;
  canRma: boolean;
  myRma: MyRma | null;
};

function Busy() {
  const n = useNavigation();
  return n.state === "submitting" ? (
    <span className="muted" data-testid="spinner">
      Working…
    </span>
  ) : null;
}

function ReasonSelect({
  id,
  intent,
  schema,
  choices,
  label,
  button,
  allowEmpty = false,
}: {
  id: string;
  intent: string;
  schema: z.ZodTypeAny;
  choices: readonly { value: number; label: string }[];
  label: string;
  button: string;
  allowEmpty?: boolean;
}) {
  const [form, fields] = useForm({
    id,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const reason = (
    fields as Record<
      string,
      { id: string; errors?: string[] } & Parameters<typeof getSelectProps>[0]
    >
  ).reason;
  return (
    <Form method="post" {...getFormProps(form)} data-testid={`form-${intent}`}>
      <input type="hidden" name="intent" value={intent} />
      <div className="form-row">
        <label htmlFor={reason.id}>{label}</label>
        <select {...getSelectProps(reason)} data-testid={`${intent}-reason`}>
          <option value="">{allowEmpty ? "(no reason given)" : "Choose a reason"}</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-outline" data-testid={`${intent}-submit`}>
          {button}
        </button>
      </div>
      <ErrorList kind="form" errors={reason.errors?.[0]} testId={`${intent}-error`} />
    </Form>
  );
}

export function WaitingFor({ who }: { who: string }) {
  return (
    <div className="order-panel" data-testid="panel-waiting">
      <p>Waiting for {who}.</p>
    </div>
  );
}

export function CompleteCheckoutPanel({
  o,
  a,
  errors,
}: {
  o: OrderDetail;
  a: DetailActionData | undefined;
  errors: DetailErrors;
}) {
  if (o.role !== "receiver") return <WaitingFor who="the other retailer to complete checkout" />;
  const cardErrors = a?.command === "complete_checkout" ? errors : undefined;
  return (
    <div className="order-panel" data-testid="panel-complete-checkout">
      <h2>Complete checkout</h2>
      <p>
        Your card is pre-authorised for {formatCents(o.amounts.receiverGrandTotalCents)} (goods, 10%
        fee and shipping)
        {o.requestId
          ? " and charged now: the other retailer already approved this order for your request."
          : " and charged only when the seller approves."}
      </p>
      <Form method="post" data-testid="form-complete_checkout">
        <input type="hidden" name="intent" value="complete_checkout" />
        <CardFields errors={cardErrors} />
        <button type="submit" className="button" data-testid="complete-checkout-submit">
          Complete checkout
        </button>{" "}
        <Busy />
      </Form>
      {o.requestId ? (
        <ReasonSelect
          id="decline-checkout"
          intent="decline_checkout"
          schema={DeclineCheckoutSchema}
          choices={CHECKOUT_DECLINE_REASONS}
          label="Or decline this order:"
          button={TRANSACTION_LABELS.decline}
        />
      ) : null}
    </div>
  );
}

/**
 * A purchase over its placer's limit, waiting for the buyer's store (docs/product/teams.md, "Limits and
 * approval"): an approver (or the owner) approves it (then the seller answers) or declines it; the placer and the
 * store's other people see what it waits for; the seller sees only that the buyer's store is deciding.
 */
export function StoreApprovalPanel({
  o,
  decision,
}: {
  o: OrderDetail;
  decision: "decide" | "own_order" | "not_allowed" | null;
}) {
  const tz = useMarketplaceZone();
  const what = o.ttype === "swap" ? "swap" : "purchase";
  if (o.role !== "receiver")
    return <WaitingFor who={`the other retailer's store to approve this ${what}`} />;
  const until = o.storeApprovalBy ? ` by ${formatDate(o.storeApprovalBy, tz)}` : "";
  return (
    <div className="order-panel" data-testid="panel-store-approval">
      <h2>Awaiting your store&apos;s approval</h2>
      <p>
        This {what} is over its buyer&apos;s limit. An approver of your store (or its owner)
        approves or declines it{until}; otherwise it is cancelled and the card&apos;s
        pre-authorization released. The other retailer sees it once approved.
      </p>
      {decision === "decide" ? (
        <div className="form-row">
          <Form method="post" data-testid="form-store_approve">
            <input type="hidden" name="intent" value="store_approve" />
            <button type="submit" className="button" data-testid="store-approve-submit">
              Approve {what}
            </button>
          </Form>
          <Form method="post" data-testid="form-store_decline">
            <input type="hidden" name="intent" value="store_decline" />
            <button
              type="submit"
              className="button button-outline"
              data-testid="store-decline-submit"
            >
              Decline {what}
            </button>
          </Form>
          <Busy />
        </div>
      ) : (
        <p className="muted" data-testid="store-approval-waiting">
          {decision === "own_order" ? TEAM_MSG.ownOrder : "Waiting for an approver of your store."}
        </p>
      )}
    </div>
  );
}

function ConfirmDeclineOthers({ resend }: { resend: Record<string, string> }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div className="modal" role="dialog" aria-modal="true" data-testid="confirm-decline-others">
      <div className="modal-box">
        <p>{CONFIRM_DECLINE_OTHERS}</p>
        <Form method="post" onSubmit={() => setOpen(false)}>
          {Object.entries(resend).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <input type="hidden" name="confirm_decline_others" value="1" />
          <div className="form-actions">
            <button type="submit" className="button" data-testid="confirm-yes">
              Yes I am sure
            </button>
            <button type="button" className="button button-outline" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </Form>
      </div>
    </div>
  );
}

function AddCardForm({
  a,
  errors,
  title,
  carry,
}: {
  a: DetailActionData | undefined;
  errors: DetailErrors;
  title: string;
  carry?: Record<string, string>;
}) {
  const cardErrors = a?.command === "add_card" ? errors : undefined;
  return (
    <Form method="post" data-testid="form-add_card">
      <h3>{title}</h3>
      <p>{SELLER_CARD_NEEDED}</p>
      <input type="hidden" name="intent" value="add_card" />
      {Object.entries(carry ?? {})
        .filter(([k]) => k.startsWith("units."))
        .map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
      <CardFields errors={cardErrors} />
      <button type="submit" className="button" data-testid="add-card-submit">
        Save card and approve
      </button>{" "}
      <Busy />
    </Form>
  );
}

export function ProviderApprovePanel({
  o,
  a,
  errors,
}: {
  o: OrderDetail;
  a: DetailActionData | undefined;
  errors: DetailErrors;
}) {
  const confirmResend = a?.need === "confirm_decline_others" ? a.resend : undefined;

  if (o.statename === "receiver_approve_modified_purchase") {
    if (o.role !== "receiver")
      return <WaitingFor who="the buyer to approve or decline your modified sale" />;
    return (
      <div className="order-panel" data-testid="panel-modified-purchase">
        <h2>Approve/Decline Modified Purchase</h2>
        <p>
          The other retailer changed the units of this order (see “Modified to” below). Approving
          charges your card for the modified order only.
        </p>
        <Form method="post" data-testid="form-approve_modified">
          <input type="hidden" name="intent" value="approve_modified" />
          <button type="submit" className="button" data-testid="approve-modified-submit">
            Approve modified purchase
          </button>{" "}
          <Busy />
        </Form>
        <ReasonSelect
          id="decline-modified"
          intent="decline_modified"
          schema={DeclineModifiedSchema}
          choices={BUYER_DECLINE_REASONS.filter((r) => r.value !== 30)}
          label="Or decline:"
          button={TRANSACTION_LABELS.decline}
          allowEmpty
        />
      </div>
    );
  }

  if (o.role !== "provider") return <WaitingFor who="the seller to approve this order" />;

  if (o.statename === "payment" || a?.need === "payment_method") {
    return (
      <div className="order-panel" data-testid="panel-payment">
        {confirmResend ? <ConfirmDeclineOthers resend={confirmResend} /> : null}
        <AddCardForm
          a={a}
          errors={errors}
          title="Add a card to approve this sale"
          carry={a?.need === "payment_method" ? a.resend : undefined}
        />
        {/* The seller sees Decline as well as Approve Sale, also while a card is asked for. */}
        <ReasonSelect
          id="decline-sale"
          intent="decline"
          schema={DeclineSaleSchema}
          choices={SELLER_DECLINE_REASONS}
          label="Or decline:"
          button={TRANSACTION_LABELS.decline}
        />
      </div>
    );
  }

  return (
    <div className="order-panel" data-testid="panel-provider-approve">
      {confirmResend ? <ConfirmDeclineOthers resend={confirmResend} /> : null}
      <h2>Approve this sale</h2>
      <p>
        You may lower the units you can ship (never more than requested). Approving charges the
        buyer and books the carrier pickup: the goods must be ready within two business days.
      </p>
      <RespondForm o={o} />
      <ReasonSelect
        id="decline-sale"
        intent="decline"
        schema={DeclineSaleSchema}
        choices={SELLER_DECLINE_REASONS}
        label="Or decline:"
        button={TRANSACTION_LABELS.decline}
      />
    </div>
  );
}

/** The seller's units per line and size (at most the requested): unchanged approves the sale, fewer submit a response. */
function RespondForm({ o }: { o: OrderDetail }) {
  const goods = o.lines.filter((l) => l.type === "goods");
  const initial = useMemo(() => {
    const m: Record<string, number> = {};
    for (const l of goods)
      for (const [s, n] of Object.entries(l.sizes)) m[`units.${l.contributionId}.${s}`] = n;
    return m;
  }, [goods]);
  const [units, setUnits] = useState<Record<string, number>>(initial);
  const modified = Object.entries(units).some(([k, v]) => initial[k] !== v);
  const canModify = canProviderModifySale(o.statename, false);
  return (
    <Form method="post" data-testid="form-respond">
      <input type="hidden" name="intent" value="respond" />
      <table className="table">
        <thead>
          <tr>
            <th>Product code</th>
            <th>Size</th>
            <th>Requested</th>
            <th>You ship</th>
          </tr>
        </thead>
        <tbody>
          {goods.flatMap((l) =>
            Object.entries(l.sizes).map(([size, n]) => {
              const key = `units.${l.contributionId}.${size}`;
              return (
                <tr key={key}>
                  <td>{l.productCode}</td>
                  <td>{size}</td>
                  <td>{n}</td>
                  <td>
                    <input
                      className="units-input"
                      type="number"
                      name={key}
                      min={0}
                      max={n}
                      step={1}
                      value={units[key] ?? n}
                      disabled={!canModify}
                      onChange={(e) =>
                        setUnits((u) => ({
                          ...u,
                          [key]: Math.max(0, Math.floor(Number(e.target.value) || 0)),
                        }))
                      }
                      data-testid="units-input"
                      aria-label={`${l.productCode} size ${size}`}
                    />
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
      <button type="submit" className="button" data-testid="respond-submit">
        {modified ? TRANSACTION_LABELS.submitResponseSale : TRANSACTION_LABELS.approveSale}
      </button>{" "}
      <Busy />
    </Form>
  );
}

export function ShipmentPendingPanel({ o }: { o: OrderDetail }) {
  const tz = useMarketplaceZone();
  const ship = o.shipments[o.shipments.length - 1] ?? null;
  if (o.role !== "provider") {
    return (
      <div className="order-panel" data-testid="panel-shipment-pending">
        <h2>Pickup Scheduled</h2>
        <p>
          The seller is getting your goods ready for the carrier. You will see the tracking here
          once they are picked up.
        </p>
      </div>
    );
  }
  return (
    <div className="order-panel" data-testid="panel-shipment-pending">
      <h2>Ship this order</h2>
      <p>
        Have the goods ready for the carrier's pickup
        {ship?.pickupBy ? ` by ${formatDate(ship.pickupBy, tz)}` : " within two business days"}. Put
        the packing slip in the box. Your payout is released when the carrier scans the goods.
      </p>
      {/* A sale's label can be printed while the pickup is scheduled. */}
      <ShippingPapers
        externalId={o.externalId}
        labelUrl={ship?.status === "pickup_scheduled" ? ship.labelUrl : null}
      />
      {canCancelShipment(o.statename) ? (
        <ReasonSelect
          id="cancel-shipment"
          intent="cancel_shipment"
          schema={CancelShipmentSchema}
          choices={CANCEL_SHIPMENT_REASONS}
          label="Cancel this shipment (the buyer is refunded in full and a 10% fee is charged to you):"
          button="Cancel shipment"
        />
      ) : null}
    </div>
  );
}

function Stars({ n }: { n: number }) {
  return (
    <span aria-label={`${n} of 5 stars`}>
      {"★".repeat(n)}
      {"☆".repeat(Math.max(0, 5 - n))}
    </span>
  );
}

export function SummaryPanel({ d }: { d: SummaryData }) {
  const o = d.order;
  const delivered = o.statename === "delivered" || o.statename === "completed";
  return (
    <div className="order-panel" data-testid="panel-order-summary">
      <h2>{o.displayStatus}</h2>
      {o.role === "receiver" && delivered ? (
        <div className="form-row">
          {!d.myRating && o.statename === "delivered" ? (
            <Link to={`/rate/${o.id}`} className="button" data-testid="rate-link">
              {RATE_THIS_TRANSACTION}
            </Link>
          ) : null}
          <RmaOffer orderId={o.id} canRma={d.canRma} myRma={d.myRma} />
        </div>
      ) : null}
      {o.role === "provider" && d.myRma ? (
        <div className="form-row">
          <RmaOffer orderId={o.id} canRma={false} myRma={d.myRma} />
        </div>
      ) : null}
      {d.myRating ? (
        <p data-testid="my-rating">
          Your rating: <Stars n={d.myRating.overall} />
        </p>
      ) : null}
      {o.role === "provider" && (delivered || o.stage === "complete") ? (
        <p data-testid="buyer-rating">
          Buyer's rating:{" "}
          {d.otherRating ? (
            <>
              condition <Stars n={d.otherRating.condition} />, packaging{" "}
              <Stars n={d.otherRating.packaging} />, timeliness{" "}
              <Stars n={d.otherRating.timeliness} />, overall <Stars n={d.otherRating.overall} />
              {d.otherRating.comments ? <q>{d.otherRating.comments}</q> : null}
            </>
          ) : (
            NOT_YET_RATED
          )}
        </p>
      ) : null}
    </div>
  );
}
