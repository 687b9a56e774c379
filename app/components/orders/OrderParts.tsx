/** Pieces of the order detail, the admin order card and checkout. */
import type {
  OrderDetail,
  OrderLineView,
  PaymentView,
  ShipmentView,
} from "../../../db/queries/order-views/order-detail";
import type { SwapAmountsView } from "../../../domain/order-views";
import { FEE_PERCENT } from "../../../domain/fees";
import { formatCents } from "../../../domain/money";
import { PAYMENT_QUEUED } from "../../../domain/messages";
import type { Role } from "../../../domain/states";
import {
  formatDate,
  formatDateTime,
  shipmentStatusText,
  sizesText,
  useMarketplaceZone,
} from "./format";

/** The order's goods lines; a swap's with a first column naming whose goods each line is (`sideLabel`). */
export function LinesTable({
  lines,
  showPending = false,
  sideLabel,
}: {
  lines: OrderLineView[];
  showPending?: boolean;
  sideLabel?: (side: string) => string;
}) {
  return (
    <table className="table" data-testid="order-lines">
      <thead>
        <tr>
          {sideLabel ? <th>Side</th> : null}
          <th>Product code</th>
          <th>Style</th>
          <th>Sizes</th>
          {showPending ? <th>Modified to</th> : null}
          <th>Units</th>
          <th>Price</th>
          <th>Value</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.contributionId}>
            {sideLabel ? <td data-testid="line-side">{sideLabel(l.side)}</td> : null}
            <td>{l.productCode}</td>
            <td>
              {l.brandName} {l.displayName} {l.color ? `(${l.color})` : ""}
            </td>
            <td>{sizesText(l.sizes)}</td>
            {showPending ? (
              <td data-testid="pending-sizes">
                {l.pendingSizes ? sizesText(l.pendingSizes) || "removed" : "unchanged"}
              </td>
            ) : null}
            <td>{l.quantity}</td>
            <td>{formatCents(l.unitPriceCents)}</td>
            <td>{formatCents(l.valueCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function isPayoutPayment(p: PaymentView): boolean {
  return p.txtype === "transfer" || p.txtype === "payout" || /payout/i.test(p.name);
}

export function methodText(p: {
  methodDescription: string | null;
  lastFour: string | null;
}): string {
  if (!p.lastFour && !p.methodDescription) return "";
  return `${p.methodDescription ?? "Card"}${p.lastFour ? ` ending in ${p.lastFour}` : ""}`;
}

/** Payments with method and last four; queued ones say "payment is queued for processing."; payouts say "Released from escrow" with the date. */
/** When a payout is still to come, what the payments box says of it (a seller's goods; a swap side's value difference). */
export const PAYOUT_PENDING_TEXT = Object.freeze({
  sale: "Payout pending: released from escrow when the carrier picks up the goods.",
  swapDifference:
    "Payout pending: the value difference is paid to you once both parcels are scanned.",
});

/**
 * A payment's record in the provider's dashboard (staff; the sandbox's has the same paths): Stripe's page of a
 * PaymentIntent or charge, refund or transfer by its id's prefix, else its search.
 */
export function providerRecordUrl(dashboardBase: string | null, ref: string | null): string | null {
  if (!dashboardBase || !ref) return null;
  const id = encodeURIComponent(ref);
  if (/^(pi|ch|py)_/.test(ref)) return `${dashboardBase}/payments/${id}`;
  if (ref.startsWith("re_")) return `${dashboardBase}/refunds/${id}`;
  if (ref.startsWith("tr_")) return `${dashboardBase}/connect/transfers/${id}`;
  return `${dashboardBase}/search?query=${id}`;
}

export function PaymentsList({
  payments,
  showIds = false,
  payoutPending = null,
  dashboardBase = null,
}: {
  payments: PaymentView[];
  showIds?: boolean;
  payoutPending?: string | null;
  /** Staff: the provider's dashboard, each payment linking to its record there. */
  dashboardBase?: string | null;
}) {
  const tz = useMarketplaceZone();
  const queued = payments.some((p) => p.queued);
  const payout = payments.find(isPayoutPayment);
  return (
    <div data-testid="payments">
      {queued ? (
        <div className="alert alert-danger" role="alert" data-testid="payment-queued">
          {PAYMENT_QUEUED}
        </div>
      ) : null}
      {payments.length === 0 ? <p className="muted">No payments yet.</p> : null}
      {payments.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              {showIds ? <th>Id</th> : null}
              <th>Payment</th>
              <th>Amount</th>
              {showIds ? <th>Fee</th> : null}
              <th>Method</th>
              <th>Status</th>
              {showIds ? <th>Type</th> : null}
              <th>Date</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id} data-testid="payment-row">
                {showIds ? <td>{p.id}</td> : null}
                <td>
                  {p.name}
                  {showIds && p.providerRef ? (
                    <ProviderRef dashboardBase={dashboardBase} providerRef={p.providerRef} />
                  ) : null}
                </td>
                <td>{formatCents(p.amountCents)}</td>
                {showIds ? <td>{formatCents(p.feeCents)}</td> : null}
                <td data-testid="payment-method">{methodText(p)}</td>
                <td>
                  {p.queued ? "queued" : p.status}
                  {isPayoutPayment(p) && p.releasedAt ? (
                    <div data-testid="payout-released">
                      Released from escrow {formatDate(p.releasedAt, tz)}
                    </div>
                  ) : null}
                </td>
                {showIds ? <td>{p.txtype}</td> : null}
                <td>{formatDate(p.createdAt, tz)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {payoutPending && !(payout && payout.releasedAt) ? (
        <p data-testid="payout-pending" className="muted">
          {payoutPending}
        </p>
      ) : null}
    </div>
  );
}

function ProviderRef({
  dashboardBase,
  providerRef,
}: {
  dashboardBase: string | null;
  providerRef: string;
}) {
  const href = providerRecordUrl(dashboardBase, providerRef);
  return (
    <div className="muted">
      {href ? (
        <a href={href} target="_blank" rel="noreferrer" data-testid="payment-record-link">
          {providerRef}
        </a>
      ) : (
        providerRef
      )}
    </div>
  );
}

export function ShipmentsList({
  shipments,
  trackingLinks = false,
}: {
  shipments: ShipmentView[];
  trackingLinks?: boolean;
}) {
  const tz = useMarketplaceZone();
  if (shipments.length === 0) return <p className="muted">No shipment yet.</p>;
  return (
    <div data-testid="shipments">
      {shipments.map((s) => (
        <section
          key={s.id}
          className="card"
          data-testid="shipment"
          data-shipment-id={s.id}
          style={{ marginBottom: "0.5rem" }}
        >
          <p>
            {s.direction ? <strong>{s.direction}</strong> : <strong>Shipment {s.id}</strong>} ·{" "}
            <span data-testid="shipment-status">{shipmentStatusText(s.status)}</span>
            {s.trackingNumber ? (
              <>
                {" "}
                · Tracking{" "}
                {trackingLinks && s.trackingUrl ? (
                  <a
                    href={s.trackingUrl}
                    target="_blank"
                    rel="noreferrer"
                    data-testid="tracking-link"
                  >
                    {s.trackingNumber}
                  </a>
                ) : (
                  s.trackingNumber
                )}
              </>
            ) : null}{" "}
            · created {formatDate(s.createdAt, tz)}
          </p>
          <p className="muted">
            {s.senderLabel} → {s.receiverLabel}
            {s.callTag ? ` · call tag ${s.callTag}` : ""}
            {s.pickupBy && s.status === "pickup_scheduled"
              ? ` · pickup by ${formatDate(s.pickupBy, tz)}`
              : ""}
          </p>
          {s.events.length > 0 ? (
            <ul data-testid="shipment-events">
              {s.events.map((e) => (
                <li key={e.id}>
                  {formatDateTime(e.eventTimestamp, tz)} — {e.description}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}

export function UpdatesList({ actions, now }: { actions: OrderDetail["actions"]; now: number }) {
  const tz = useMarketplaceZone();
  if (actions.length === 0) return <p className="muted">No updates yet.</p>;
  return (
    <table className="table" data-testid="updates">
      <thead>
        <tr>
          <th>Code</th>
          <th>Update</th>
          <th>Role</th>
          <th>Status</th>
          <th>When</th>
          <th>Done</th>
        </tr>
      </thead>
      <tbody>
        {actions.map((a) => (
          <tr key={a.id} data-code={a.code}>
            <td>{a.code}</td>
            <td>{a.label}</td>
            <td>{a.role}</td>
            <td>{a.displayStatus}</td>
            <td title={formatDateTime(a.createdAt, tz)}>{sinceText(a.createdAt, now)}</td>
            <td>{a.complete ? "✓" : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function sinceText(iso: string, now: number): string {
  const mins = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60000));
  if (mins < 1) return "just now";
  if (mins < 60) return `${mins} min ago`;
  const h = Math.floor(mins / 60);
  if (h < 24) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}

const LEDGER_ROWS: [string, string][] = [
  ["authorizedCents", "Pre-authorised on the buyer's card"],
  ["authorizationReleasedCents", "Authorisation released"],
  ["buyerPaidCents", "Buyer paid (captured)"],
  ["goodsCents", "  of which goods"],
  ["feeCents", "  of which fee (10%)"],
  ["shippingCents", "  of which shipping"],
  ["buyerRefundedCents", "Refunded to the buyer"],
  ["buyerNetCents", "Buyer net"],
  ["sellerPaidCents", "Paid to the seller"],
  ["sellerPenaltyCents", "Penalty charged to the seller"],
  ["escrowCents", "Held in escrow"],
  ["feeKeptCents", "Fee kept"],
  ["shippingKeptCents", "Shipping kept"],
  ["penaltyKeptCents", "Penalty kept"],
  // A swap: the valuation, then what each side's payments moved.
  ["providerGoodsCents", "Provider's goods"],
  ["receiverGoodsCents", "Receiver's goods"],
  ["largerGoodsCents", "Larger goods value"],
  ["differenceCents", "Value difference"],
  ["forgivenCents", "  forgiven (call it even)"],
  ["providerDueCents", "Provider's due"],
  ["receiverDueCents", "Receiver's due"],
  ["providerPaidCents", "Provider paid"],
  ["providerPenaltyCents", "Provider charged (goods not sent)"],
  ["providerRefundedCents", "Refunded to the provider"],
  ["providerPayoutCents", "Paid out to the provider"],
  ["receiverPaidCents", "Receiver paid"],
  ["receiverPenaltyCents", "Receiver charged (goods not sent)"],
  ["receiverRefundedCents", "Refunded to the receiver"],
  ["receiverPayoutCents", "Paid out to the receiver"],
  ["keptCents", "Kept by the marketplace"],
  // An RMA (docs/product/money.md, "RMA refund and charge").
  ["victimRefundCents", "Returned to the victim"],
  ["perpetratorChargeCents", "Charged to the perpetrator"],
  ["rmaKeptCents", "Kept by the marketplace (RMA shipping + fee)"],
  ["expectedKeptCents", "  the settlement says"],
];

/** The order's ledger (staff): what the buyer paid, fees, shipping, what the seller was paid, penalties, refunds. */
export function LedgerTable({ ledger }: { ledger: Record<string, number | boolean> | null }) {
  if (!ledger) return <p className="muted">No ledger recorded yet.</p>;
  return (
    <table className="table ledger" data-testid="ledger">
      <tbody>
        {LEDGER_ROWS.filter(([k]) => typeof ledger[k] === "number").map(([k, label]) => (
          <tr key={k}>
            <th scope="row" style={{ whiteSpace: "pre" }}>
              {label}
            </th>
            <td>{formatCents(ledger[k] as number)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Balanced</th>
          <td data-testid="ledger-balanced">
            {ledger.balanced === true ? "yes" : ledger.balanced === false ? "NO" : "—"}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** The papers of a parcel its sender prints: packing slip and shipper checklist (PDF, new tab), and the carrier's label when given. */
export function ShippingPapers({
  externalId,
  labelUrl,
}: {
  externalId: string;
  labelUrl: string | null;
}) {
  const ref = encodeURIComponent(externalId);
  return (
    <ul>
      <li>
        <a
          href={`/packingslip/${ref}/`}
          target="_blank"
          rel="noreferrer"
          data-testid="packing-slip-link"
        >
          Packing slip (PDF)
        </a>
      </li>
      <li>
        <a
          href={`/shipperchecklist/${ref}/`}
          target="_blank"
          rel="noreferrer"
          data-testid="checklist-link"
        >
          Shipper checklist (PDF)
        </a>
      </li>
      {labelUrl ? (
        <li>
          <a href={labelUrl} target="_blank" rel="noreferrer" data-testid="label-link">
            Shipping label
          </a>
        </li>
      ) : null}
    </ul>
  );
}

/** What the buyer pays for a purchase: goods, the fee, shipping and the total (checkout's review and pay steps, the order page). */
export function BuyerAmounts({
  a,
  className = "order-amounts",
  testId,
}: {
  a: { goodsCents: number; feeCents: number; shippingCents: number; totalCents: number };
  className?: string;
  testId?: string;
}) {
  return (
    <dl className={className} data-testid={testId}>
      <dt>Goods</dt>
      <dd data-testid="amount-goods">{formatCents(a.goodsCents)}</dd>
      <dt>{`Fee (${FEE_PERCENT.purchase}%)`}</dt>
      <dd data-testid="amount-fee">{formatCents(a.feeCents)}</dd>
      <dt>Shipping</dt>
      <dd data-testid="amount-shipping">{formatCents(a.shippingCents)}</dd>
      <dt>Total</dt>
      <dd data-testid="amount-total">
        <strong>{formatCents(a.totalCents)}</strong>
      </dd>
    </dl>
  );
}

const SWAP_FEE_LABEL = `Fee (${FEE_PERCENT.swap}% of the larger value)`;

/**
 * A swap's money (docs/product/money.md, "Swap value difference"; 810 payment): a side sees what it gives and receives, the value
 * difference it adds, is paid or was forgiven, its fee, its shipping and its payment; staff see both sides.
 */
export function SwapAmounts({
  a,
  role,
  labels,
}: {
  a: SwapAmountsView;
  role: Role | null;
  labels: Record<Role, string>;
}) {
  if (!role) {
    return (
      <table className="table" data-testid="order-amounts">
        {a.forgivenCents > 0 ? (
          <caption data-testid="amount-forgiven">
            Value difference forgiven (called even): {formatCents(a.forgivenCents)}
          </caption>
        ) : null}
        <thead>
          <tr>
            <th>Side</th>
            <th>Goods given</th>
            <th>Value difference added</th>
            <th>{SWAP_FEE_LABEL}</th>
            <th>Shipping</th>
            <th>Payment</th>
          </tr>
        </thead>
        <tbody>
          {(["provider", "receiver"] as const).map((r) => (
            <tr key={r} data-testid={`amounts-${r}`}>
              <td>{labels[r]}</td>
              <td>{formatCents(a[r].goodsCents)}</td>
              <td>{formatCents(a[r].cashCents)}</td>
              <td>{formatCents(a[r].feeCents)}</td>
              <td>{formatCents(a[r].shippingCents)}</td>
              <td>{formatCents(a[r].dueCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const mine = a[role];
  const theirs = a[role === "provider" ? "receiver" : "provider"];
  return (
    <dl className="facts" data-testid="order-amounts">
      <dt>Goods you give</dt>
      <dd data-testid="amount-give">{formatCents(mine.goodsCents)}</dd>
      <dt>Goods you receive</dt>
      <dd data-testid="amount-goods">{formatCents(theirs.goodsCents)}</dd>
      {mine.cashCents > 0 ? (
        <>
          <dt>Value difference you add</dt>
          <dd data-testid="amount-cash">{formatCents(mine.cashCents)}</dd>
        </>
      ) : null}
      {theirs.cashCents > 0 ? (
        <>
          <dt>Value difference paid to you once both parcels are scanned</dt>
          <dd data-testid="amount-cash-in">{formatCents(theirs.cashCents)}</dd>
        </>
      ) : null}
      {a.forgivenCents > 0 ? (
        <>
          <dt>Value difference forgiven (called even)</dt>
          <dd data-testid="amount-forgiven">{formatCents(a.forgivenCents)}</dd>
        </>
      ) : null}
      <dt>{SWAP_FEE_LABEL}</dt>
      <dd data-testid="amount-fee">{formatCents(mine.feeCents)}</dd>
      <dt>Shipping of the units you receive</dt>
      <dd data-testid="amount-shipping">{formatCents(mine.shippingCents)}</dd>
      <dt>Your payment</dt>
      <dd data-testid="amount-total">
        <strong>{formatCents(mine.dueCents)}</strong>
      </dd>
    </dl>
  );
}
