/**
 * Staff's card of one RMA on /admin/active-rmas (docs/product/screens.md): tabs summary (each line with its
 * reason, requested units, pictures and staff's decision; the contact for the return; the original order and
 * the totals), updates, Shipping (the return parcel, with the carrier tools) and Payments (refund, charge and
 * the ledger). While the RMA is pending, staff approve or deny each line, set the RMA fee and process it,
 * after checking the amounts the decision would move.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import type { RmaPageView } from "../../../db/queries/rmas";
import { PAYMENT_QUEUED } from "../../../domain/messages";
import { centsToDecimalString, formatCents } from "../../../domain/money";
import { rmaAmountYouWillReceive, rmaBalanced } from "../../../domain/rma-money";
import { partyLabels, TRANSACTION_TYPE } from "../../../domain/states";
import type { RmaDecisionCommand } from "../../../workflows/rma/contract";
import { ErrorList } from "~/components/forms";
import { CarrierTools, ProviderDashboardLink } from "~/components/orders/AdminOrderCard";
import {
  LedgerTable,
  PaymentsList,
  ShipmentsList,
  UpdatesList,
} from "~/components/orders/OrderParts";
import { RmaLinesTable } from "~/components/rma/RmaLines";

export const RMA_CARD_TABS = ["summary", "updates", "shipping", "payments"] as const;
export type RmaCardTab = (typeof RMA_CARD_TABS)[number];

/** What staff's decision would move, shown before they confirm it (domain/rma-money, as the workflow settles). */
export type RmaReview = {
  rmaId: number;
  cmd: RmaDecisionCommand;
  victimRefundCents: number;
  perpetratorChargeCents: number;
  approvedValueCents: number;
  returnShippingCents: number;
  rmaFeeCents: number;
  /** A sale's 10% of the approved value (refunded to the victim, charged to the perpetrator). */
  feeRefundCents: number;
  /** A sale's original shipping, on a full RMA. */
  originalShippingCents: number;
  declined: boolean;
};
/** The RMA screen's action answer: a Conform reply (a refusal, the form's errors), with the review once it parses. */
export type AdminRmaActionData = SubmissionResult<string[]> & { review?: RmaReview };
/** The errors of an answer by field name ("" for the form's), as useForm({ lastResult }) reads them. */
export type DecisionErrors = Record<string, string[] | undefined>;

/** Whether the RMA's payments moved what it recorded, once it ended (domain/rma-money rmaBalanced); omitted while open. */
function balancedOf(rma: RmaPageView, detail: OrderDetail): { balanced?: boolean } {
  const ledger = rma.ledger ?? {};
  const rows = detail.payments.map((p) => ({
    toVictim: p.retailerId === rma.victimId,
    txtype: p.txtype,
    status: p.status,
    amountCents: p.amountCents,
  }));
  const b = rmaBalanced(
    rma.stage,
    {
      victimRefundCents: Number(ledger.victimRefundCents ?? 0),
      perpetratorChargeCents: Number(ledger.perpetratorChargeCents ?? 0),
    },
    rows,
  );
  return b === null ? {} : { balanced: b };
}

/** The original order's summary, as the victim received it (what the RMA is settled against). */
function OriginalOrder({ rma }: { rma: RmaPageView }) {
  const o = rma.original;
  if (!o) return null;
  return (
    <section data-testid="rma-original">
      <h3>Original Order</h3>
      <dl className="facts">
        <dt>Transaction type</dt>
        <dd>{o.kind === "swap" ? "Swap" : "Sale"}</dd>
        <dt>Units the victim received</dt>
        <dd>{o.unitsReceived}</dd>
        <dt>Goods</dt>
        <dd>{formatCents(o.goodsCents)}</dd>
        {o.kind === "sale" ? (
          <>
            <dt>Fee</dt>
            <dd>{formatCents(o.feeCents)}</dd>
            <dt>Shipping</dt>
            <dd>{formatCents(o.shippingCents)}</dd>
            <dt>Total paid</dt>
            <dd>{formatCents(o.totalCents)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The totals card: what was asked, what staff approved, and the money of the decision. */
function RmaTotals({ rma, requestedCents }: { rma: RmaPageView; requestedCents: number }) {
  const requestedUnits = rma.lines.reduce((a, l) => a + l.requested, 0);
  const decided = rma.lines.every((l) => l.approved !== null);
  const approvedUnits = rma.lines.reduce((a, l) => a + (l.approved ? l.approvedQuantity : 0), 0);
  const ledger = rma.ledger ?? {};
  return (
    <section data-testid="rma-totals">
      <h3>Totals</h3>
      <dl className="facts">
        <dt>Requested</dt>
        <dd>
          {requestedUnits} units, {formatCents(requestedCents)}
        </dd>
        <dt>Approved</dt>
        <dd data-testid="rma-totals-approved">
          {decided
            ? `${approvedUnits} units, ${formatCents(rma.lines.reduce((a, l) => a + (l.approved ? l.approvedQuantity * l.unitPriceCents : 0), 0))}`
            : "not decided yet"}
        </dd>
        {decided ? (
          <>
            <dt>Returned to the victim</dt>
            <dd>{formatCents(Number(ledger.victimRefundCents ?? 0))}</dd>
            <dt>Charged to the perpetrator</dt>
            <dd>{formatCents(Number(ledger.perpetratorChargeCents ?? 0))}</dd>
            <dt>Kept by the marketplace (return shipping and RMA fee)</dt>
            <dd data-testid="rma-totals-kept">{formatCents(Number(ledger.rmaKeptCents ?? 0))}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function RmaCard({
  rma,
  detail,
  tab,
  now,
  review,
  errors,
  dashboardBase,
}: {
  rma: RmaPageView;
  detail: OrderDetail;
  tab: RmaCardTab;
  now: number;
  review: RmaReview | undefined;
  errors: DecisionErrors;
  /** The payment provider's dashboard (app/utils/env.server.ts paymentsDashboardBase; the sandbox's own page in the app). */
  dashboardBase: string | null;
}) {
  return (
    <article
      className="admin-card"
      data-testid="admin-rma-card"
      data-rma-id={rma.id}
      data-stage={rma.stage}
    >
      <header>
        <strong>RMA {rma.externalId}</strong> <span className="pill">{rma.displayStatus}</span> ·
        victim {detail.providerLabel} → perpetrator {detail.receiverLabel}{" "}
        <Link to="/admin/active-rmas" data-testid="close-card">
          Close
        </Link>
      </header>
      <nav className="order-tabs" role="tablist">
        {RMA_CARD_TABS.map((t) => (
          <Link
            key={t}
            to={`/admin/active-rmas?rma=${rma.id}&tab=${t}`}
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? "active" : ""}
            data-testid={`card-tab-${t}`}
          >
            {t}
          </Link>
        ))}
      </nav>
      {/* The RMA's conversation: staff read it and post, marked as staff (ADR 0027). */}
      <p>
        <Link to={`/messages/rma/${rma.id}`} data-testid="card-messages">
          Messages
        </Link>
      </p>
      <div
        className="card-area"
        style={{ maxHeight: 500, overflowY: "auto" }}
        role="region"
        aria-label={`RMA ${tab}`}
        tabIndex={0}
      >
        {tab === "summary" ? (
          <RmaSummary
            rma={rma}
            review={review && review.rmaId === rma.id ? review : null}
            errors={errors}
          />
        ) : null}
        {tab === "updates" ? <UpdatesList actions={detail.actions} now={now} /> : null}
        {tab === "shipping" ? (
          detail.shipments.length ? (
            <>
              <ShipmentsList shipments={detail.shipments} trackingLinks />
              <CarrierTools orderId={rma.id} shipmentId={detail.shipments.at(-1)!.id} />
            </>
          ) : (
            <p className="muted">No return parcel is booked for this RMA.</p>
          )
        ) : null}
        {tab === "payments" ? (
          <RmaPayments rma={rma} detail={detail} dashboardBase={dashboardBase} />
        ) : null}
      </div>
    </article>
  );
}

/** The payments tab: the provider's records, then the victim's payments and the perpetrator's, then the ledger. */
function RmaPayments({
  rma,
  detail,
  dashboardBase,
}: {
  rma: RmaPageView;
  detail: OrderDetail;
  dashboardBase: string | null;
}) {
  const labels = partyLabels(TRANSACTION_TYPE.RMA);
  const groups = [
    { key: "victim", title: labels.provider, name: detail.providerLabel, retailerId: rma.victimId },
    {
      key: "perpetrator",
      title: labels.receiver,
      name: detail.receiverLabel,
      retailerId: rma.perpetratorId,
    },
  ];
  const others = detail.payments.filter(
    (p) => p.retailerId !== rma.victimId && p.retailerId !== rma.perpetratorId,
  );
  return (
    <>
      <ProviderDashboardLink dashboardBase={dashboardBase} externalId={rma.externalId} />
      {groups.map((g) => (
        <section key={g.key} data-testid={`rma-payments-${g.key}`}>
          <h3>
            {g.title.charAt(0).toUpperCase() + g.title.slice(1)} ({g.name})
          </h3>
          <PaymentsList
            payments={detail.payments.filter((p) => p.retailerId === g.retailerId)}
            showIds
            dashboardBase={dashboardBase}
          />
        </section>
      ))}
      {others.length ? (
        <section data-testid="rma-payments-other">
          <h3>Other</h3>
          <PaymentsList payments={others} showIds dashboardBase={dashboardBase} />
        </section>
      ) : null}
      <LedgerTable ledger={rma.ledger ? { ...rma.ledger, ...balancedOf(rma, detail) } : null} />
    </>
  );
}

/** The summary tab: the amounts, contact, lines, original order and totals; while pending, the decision. */
function RmaSummary({
  rma,
  review,
  errors,
}: {
  rma: RmaPageView;
  review: RmaReview | null;
  errors: DecisionErrors;
}) {
  const ledger = rma.ledger ?? {};
  const faultyCents = rma.lines.reduce((a, l) => a + l.requested * l.unitPriceCents, 0);
  // Before staff decide: what the victim was told it would receive; after: what the decision returns.
  const willReceive =
    rma.stage === "rmarequested" && rma.original
      ? rmaAmountYouWillReceive(
          rma.original,
          rma.lines.map((l) => ({
            unitPriceCents: l.unitPriceCents,
            requestedQuantity: l.requested,
          })),
        )
      : Number(ledger.victimRefundCents ?? 0);
  return (
    <>
      <dl className="facts">
        <dt>Original order</dt>
        <dd>
          {rma.rmaForId ? (
            <Link to={`/admin/active-transactions?order=${rma.rmaForId}`}>
              {rma.rmaForExternalId}
            </Link>
          ) : (
            "—"
          )}
        </dd>
        <dt>Amount of faulty goods</dt>
        <dd data-testid="rma-faulty">{formatCents(faultyCents)}</dd>
        <dt>Amount the user will receive</dt>
        <dd data-testid="rma-will-receive">{formatCents(willReceive)}</dd>
        <dt>Contact</dt>
        <dd data-testid="rma-contact">
          {rma.contact.name}, {rma.contact.email}, {rma.contact.phone}; packing slip:{" "}
          {rma.contact.packingSlipName}
        </dd>
        <dt>RMA fee</dt>
        <dd>{formatCents(rma.rmaFeeCents)}</dd>
        <dt>Returned to the victim / charged to the perpetrator</dt>
        <dd data-testid="rma-amounts">
          {formatCents(Number(ledger.victimRefundCents ?? 0))} /{" "}
          {formatCents(Number(ledger.perpetratorChargeCents ?? 0))}
        </dd>
        {ledger.chargeQueued === true ? (
          <>
            <dt>Perpetrator&apos;s charge</dt>
            <dd data-testid="rma-charge-queued">
              {PAYMENT_QUEUED} It is taken when the perpetrator puts a card on file.
            </dd>
          </>
        ) : null}
      </dl>
      <RmaLinesTable lines={rma.lines} pictureUrl={(p) => `/uploads/${p}`} />
      <OriginalOrder rma={rma} />
      <RmaTotals rma={rma} requestedCents={faultyCents} />
      {rma.stage === "rmarequested" ? (
        review ? (
          <ReviewPanel rma={rma} review={review} />
        ) : (
          <DecisionForm key={Object.values(errors).flat()[0] ?? "form"} rma={rma} errors={errors} />
        )
      ) : null}
    </>
  );
}

/**
 * Approve or deny each line (approved ≤ requested), a comment, the RMA fee. "Process RMA" (once every line
 * is decided) shows the amounts first; nothing is sent to the workflow before staff confirm them.
 */
function DecisionForm({ rma, errors }: { rma: RmaPageView; errors: DecisionErrors }) {
  const busy = useNavigation().state !== "idle";
  const [decided, setDecided] = useState<Record<number, boolean>>({});
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Without JavaScript the server checks it; with it, the button waits until every line has a decision.
  const ready = !hydrated || rma.lines.every((l) => decided[l.lineId]);
  const errorOf = (i: number) =>
    ["decision", "qty", "comment", "id"].map((f) => errors[`lines[${i}].${f}`]?.[0]).find(Boolean);
  return (
    <Form method="post" className="form-stack" data-testid="rma-decision-form">
      <input type="hidden" name="intent" value="review" />
      <input type="hidden" name="rma" value={rma.id} />
      {rma.lines.map((l, i) => (
        <fieldset key={l.lineId} className="field" data-testid="rma-decide-line">
          <legend>
            {l.productCode} × {l.requested} requested
          </legend>
          <input type="hidden" name={`lines[${i}].id`} value={l.lineId} />
          <label>
            <input
              type="radio"
              name={`lines[${i}].decision`}
              value="approve"
              onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))}
            />{" "}
            Approve
          </label>{" "}
          <label>
            <input
              type="radio"
              name={`lines[${i}].decision`}
              value="deny"
              onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))}
            />{" "}
            Deny
          </label>{" "}
          <label>
            Approved units{" "}
            <input
              type="number"
              name={`lines[${i}].qty`}
              min={1}
              max={l.requested}
              defaultValue={l.requested}
              style={{ width: "5rem" }}
            />
          </label>{" "}
          <label>
            Comment <input type="text" name={`lines[${i}].comment`} maxLength={1000} />
          </label>
          <ErrorList errors={errorOf(i)} inline />
        </fieldset>
      ))}
      <label>
        RMA fee ($){" "}
        <input
          type="text"
          name="fee"
          inputMode="decimal"
          defaultValue="0.00"
          style={{ width: "7rem" }}
          data-testid="rma-fee"
        />
      </label>
      <ErrorList errors={errors.fee} inline />
      <button
        type="submit"
        className="button"
        disabled={busy || !ready}
        data-testid="rma-process-staff"
      >
        Process RMA
      </button>
    </Form>
  );
}

/** The decision's amounts, and the decision itself as hidden fields: Confirm sends it; Change goes back. */
function ReviewPanel({ rma, review }: { rma: RmaPageView; review: RmaReview }) {
  const busy = useNavigation().state !== "idle";
  const byLine = new Map(review.cmd.lines.map((l) => [l.lineId, l]));
  return (
    <Form method="post" className="form-stack" data-testid="rma-review">
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="rma" value={rma.id} />
      <input type="hidden" name="fee" value={centsToDecimalString(review.cmd.rmaFeeCents)} />
      <h3>Check the amounts before you process this RMA</h3>
      <ul>
        {rma.lines.map((l, i) => {
          const d = byLine.get(l.lineId);
          const qty = d?.approvedQuantity ?? 0;
          return (
            <li key={l.lineId} data-testid="rma-review-line">
              <input type="hidden" name={`lines[${i}].id`} value={l.lineId} />
              <input
                type="hidden"
                name={`lines[${i}].decision`}
                value={qty > 0 ? "approve" : "deny"}
              />
              <input type="hidden" name={`lines[${i}].qty`} value={qty} />
              <input type="hidden" name={`lines[${i}].comment`} value={d?.comment ?? ""} />
              {l.productCode}: {qty > 0 ? `${qty} of ${l.requested} approved` : "denied"}
              {d?.comment ? ` (${d.comment})` : ""}
            </li>
          );
        })}
      </ul>
      {review.declined ? (
        <p data-testid="rma-review-declined">
          Every line is denied: the RMA is declined and nothing is paid or charged.
        </p>
      ) : (
        <dl className="facts">
          <dt>Returned to the victim</dt>
          <dd data-testid="rma-review-refund">{formatCents(review.victimRefundCents)}</dd>
          <dt>Charged to the perpetrator</dt>
          <dd data-testid="rma-review-charge">{formatCents(review.perpetratorChargeCents)}</dd>
          <dt>of which</dt>
          <dd data-testid="rma-review-charge-parts">
            {[
              ["approved goods", review.approvedValueCents],
              ["return shipping", review.returnShippingCents],
              ["RMA fee", review.rmaFeeCents],
              ["the sale's fee on the approved goods", review.feeRefundCents],
              ["the original shipping", review.originalShippingCents],
            ]
              .filter(([, cents], i) => i === 0 || Number(cents) > 0)
              .map(([what, cents]) => `${formatCents(Number(cents))} ${what}`)
              .join(" + ")}
          </dd>
        </dl>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy} data-testid="rma-confirm-staff">
          Confirm and process
        </button>
        <Link
          to={`/admin/active-rmas?rma=${rma.id}`}
          className="button button-outline"
          data-testid="rma-review-change"
        >
          Change the decision
        </Link>
      </div>
    </Form>
  );
}
