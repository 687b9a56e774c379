/**
 * The admin order card (docs/product/screens.md, "Staff: transactions", "Staff: RMAs"): a list card with a header; expanded it has the tabs
 * summary, updates, Shipping and Payments (card area max height 500 px) and a close control. Staff see
 * store names, the ledger, and the carrier tools (app/utils/carrier-tools.server.ts): schedule pickup (a new
 * call tag booked by the order's workflow), simulate pickup and simulate delivery (through the carrier webhook
 * exactly like the carrier's own events).
 */
import { Form, Link } from "@remix-run/react";
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import type { AdminOrderRow } from "../../../db/queries/order-views/staff-lists";
import { formatCents } from "../../../domain/money";
import { labelFor, FLOOR_TIMES } from "../../../domain/reasons";
import { partyLabels } from "../../../domain/states";
import { formatDate, timeSince, useMarketplaceZone } from "./format";
import { LedgerTable, LinesTable, PaymentsList, ShipmentsList, UpdatesList } from "./OrderParts";

export const ADMIN_CARD_TABS = ["summary", "updates", "shipping", "payments"] as const;
export type AdminCardTab = (typeof ADMIN_CARD_TABS)[number];
export const ADMIN_CARD_TAB_LABELS: Record<AdminCardTab, string> = {
  summary: "summary",
  updates: "updates",
  shipping: "Shipping",
  payments: "Payments",
};

export function isAdminCardTab(v: unknown): v is AdminCardTab {
  return typeof v === "string" && (ADMIN_CARD_TABS as readonly string[]).includes(v);
}

export function AdminOrderCard({
  row,
  detail,
  tab,
  hrefFor,
  closeHref,
  now,
  dashboardBase,
}: {
  row: AdminOrderRow;
  detail: OrderDetail | null;
  tab: AdminCardTab;
  hrefFor: (orderId: number, tab: AdminCardTab) => string;
  closeHref: string;
  now: number;
  dashboardBase: string | null;
}) {
  const expanded = detail !== null;
  return (
    <article
      className="admin-card"
      data-testid="admin-order-card"
      data-order-id={row.id}
      data-expanded={expanded}
    >
      <header>
        <div>
          <strong>Order {row.externalId}</strong> <span className="pill">{row.displayStatus}</span>
          <div className="muted">
            {row.typeLabel} · {row.brandName ?? "—"} · {partyLabels(row.transactionType).provider}{" "}
            <span data-testid="provider-name">{row.providerName}</span> →{" "}
            {partyLabels(row.transactionType).receiver}{" "}
            <span data-testid="receiver-name">{row.receiverName}</span>
          </div>
          <div className="muted">
            state {row.statename} · stage {row.stage}
            {row.lastActionCode !== null
              ? ` · last action ${row.lastActionCode} ${row.lastActionLabel}`
              : ""}{" "}
            · {timeSince(row.modifiedAt, now)}
          </div>
        </div>
        <div>
          <div>{formatCents(row.receiverGrandTotalCents)}</div>
          {expanded ? (
            <Link to={closeHref} data-testid="close-card">
              Close
            </Link>
          ) : (
            <Link to={hrefFor(row.id, "summary")} data-testid="expand-card">
              Open
            </Link>
          )}
        </div>
      </header>
      {detail ? (
        <>
          <nav className="order-tabs" role="tablist">
            {ADMIN_CARD_TABS.map((t) => (
              <Link
                key={t}
                to={hrefFor(row.id, t)}
                role="tab"
                aria-selected={t === tab}
                className={t === tab ? "active" : ""}
                data-testid={`card-tab-${t}`}
              >
                {ADMIN_CARD_TAB_LABELS[t]}
              </Link>
            ))}
          </nav>
          {/* The order's conversation: staff read it and post, marked as staff (ADR 0027). */}
          <p>
            <Link to={`/messages/${detail.ttype}/${row.id}`} data-testid="card-messages">
              Messages
            </Link>
          </p>
          <div
            className="card-area"
            data-testid={`card-${tab}`}
            role="region"
            aria-label={ADMIN_CARD_TAB_LABELS[tab]}
            tabIndex={0}
          >
            {tab === "summary" ? <Summary d={detail} /> : null}
            {tab === "updates" ? <UpdatesList actions={detail.actions} now={now} /> : null}
            {tab === "shipping" ? <ShippingTab d={detail} /> : null}
            {tab === "payments" ? <PaymentsTab d={detail} dashboardBase={dashboardBase} /> : null}
          </div>
        </>
      ) : null}
    </article>
  );
}

function Summary({ d }: { d: OrderDetail }) {
  const tz = useMarketplaceZone();
  const swap = d.ttype === "swap";
  return (
    <div>
      <dl className="facts">
        <dt>Order number</dt>
        <dd>{d.externalId}</dd>
        <dt>Workflow</dt>
        <dd>{d.workflowId}</dd>
        <dt>{capitalized(partyLabels(d.transactionType).provider)}</dt>
        <dd>
          {d.providerLabel} (retailer {d.providerId})
        </dd>
        <dt>
          {swap
            ? "Receiver (started the swap)"
            : capitalized(partyLabels(d.transactionType).receiver)}
        </dt>
        <dd>
          {d.receiverLabel} (retailer {d.receiverId})
        </dd>
        <dt>State</dt>
        <dd>
          {d.statename} ({d.displayStatus}), stage {d.stage}, move: {d.actionNeeded ?? "nobody"}
        </dd>
        {d.floorTime ? (
          <>
            <dt>Floor time</dt>
            <dd>{labelFor(FLOOR_TIMES, d.floorTime) ?? d.floorTime}</dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>{formatDate(d.createdAt, tz)}</dd>
        <OrderAmounts d={d} />
        <dt>Authorised / captured</dt>
        <dd>
          {formatCents(d.amounts.authorizedCents)} / {formatCents(d.amounts.capturedCents)}
        </dd>
        {d.ledger ? (
          <>
            <dt>Ledger balanced</dt>
            <dd>{d.ledger.balanced === true ? "yes" : "NO"}</dd>
          </>
        ) : null}
      </dl>
      {d.reasons.map((r) => (
        <p key={r.key} className="reason">
          {r.text}
        </p>
      ))}
      <LinesTable lines={d.lines} showPending={d.lines.some((l) => l.pendingSizes)} />
      {d.ratings.map((r) => (
        <p key={r.raterId}>
          Rating by the {r.role}: condition {r.condition}, packaging {r.packaging}, timeliness{" "}
          {r.timeliness}, overall {r.overall}
          {r.comments ? ` — “${r.comments}”` : ""}
        </p>
      ))}
    </div>
  );
}

/** The order's amounts as the staff card lists them: a swap's goods and dues per side, a sale's buyer totals. */
function OrderAmounts({ d }: { d: OrderDetail }) {
  return d.ttype === "swap" ? (
    <>
      <dt>Provider's goods</dt>
      <dd>{formatCents(d.amounts.valueCents)}</dd>
      <dt>Receiver's goods</dt>
      <dd>
        {formatCents(
          d.lines
            .filter((l) => l.type === "goods" && l.side === "receiver")
            .reduce((a, l) => a + l.valueCents, 0),
        )}
      </dd>
      <dt>Receiver's due (fee, shipping, any cash)</dt>
      <dd>{formatCents(d.amounts.receiverGrandTotalCents)}</dd>
      {typeof d.ledger?.providerDueCents === "number" ? (
        <>
          <dt>Provider's due</dt>
          <dd>{formatCents(d.ledger.providerDueCents)}</dd>
        </>
      ) : null}
    </>
  ) : (
    <>
      <dt>Goods</dt>
      <dd>{formatCents(d.amounts.valueCents)}</dd>
      <dt>Fee</dt>
      <dd>{formatCents(d.amounts.receiverFeeCents)}</dd>
      <dt>Shipping</dt>
      <dd>{formatCents(d.amounts.receiverShippingCents)}</dd>
      <dt>Grand total</dt>
      <dd>{formatCents(d.amounts.receiverGrandTotalCents)}</dd>
    </>
  );
}

function ShippingTab({ d }: { d: OrderDetail }) {
  if (d.shipments.length === 0)
    return <p className="muted">No shipment has been booked for this order.</p>;
  if (d.ttype !== "swap") {
    return (
      <div>
        <ShipmentsList shipments={d.shipments} trackingLinks />
        <CarrierTools orderId={d.id} />
      </div>
    );
  }
  // A swap ships both ways: each side's parcel with its own tools.
  return (
    <div>
      {(["provider", "receiver"] as const).map((side) => {
        const mine = d.shipments.filter((s) => s.senderSide === side);
        return (
          <section key={side} data-testid={`admin-parcel-${side}`}>
            <h3>
              Parcel from the {side} ({side === "provider" ? d.providerLabel : d.receiverLabel})
            </h3>
            {mine.length === 0 ? (
              <p className="muted">No shipment booked for this side.</p>
            ) : (
              <>
                <ShipmentsList shipments={mine} trackingLinks />
                <CarrierTools orderId={d.id} shipmentId={mine.at(-1)!.id} />
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}

/**
 * Staff tools (app/utils/carrier-tools.server.ts): "Schedule pickup" books a new call tag through the order's
 * workflow; the simulations go through POST /webhooks/carrier with a signed event, as the carrier sends it.
 */
export function CarrierTools({ orderId, shipmentId }: { orderId: number; shipmentId?: number }) {
  const tools: { status: string; label: string }[] = [
    { status: "pre_transit", label: "Schedule pickup" },
    { status: "picked_up", label: "Simulate pickup" },
    { status: "delivered", label: "Simulate delivery" },
  ];
  return (
    <div className="form-row" data-testid="carrier-tools">
      {tools.map((t) => (
        <Form key={t.status} method="post" className="inline-form">
          <input type="hidden" name="intent" value="carrier" />
          <input type="hidden" name="order" value={orderId} />
          {shipmentId ? <input type="hidden" name="shipment" value={shipmentId} /> : null}
          <input type="hidden" name="status" value={t.status} />
          <button type="submit" className="button button-small" data-testid={`carrier-${t.status}`}>
            {t.label}
          </button>
        </Form>
      ))}
    </div>
  );
}

/**
 * The payment provider's records of an order (or RMA) by its number: Stripe's dashboard, or on the sandbox its
 * records page in the app (app/utils/env.server.ts paymentsDashboardBase).
 */
export function ProviderDashboardLink({
  dashboardBase,
  externalId,
}: {
  dashboardBase: string | null;
  externalId: string;
}) {
  if (!dashboardBase) return null;
  return (
    <p>
      <a
        href={`${dashboardBase}/search?query=${encodeURIComponent(externalId)}`}
        target="_blank"
        rel="noreferrer"
        data-testid="provider-dashboard-link"
      >
        Search this order in the payment provider's dashboard
      </a>
    </p>
  );
}

function PaymentsTab({ d, dashboardBase }: { d: OrderDetail; dashboardBase: string | null }) {
  const victim = d.payments.filter((p) => p.side === "receiver");
  const other = d.payments.filter((p) => p.side === "provider");
  return (
    <div>
      <ProviderDashboardLink dashboardBase={dashboardBase} externalId={d.externalId} />
      <h3>
        {d.ttype === "swap" ? "Receiver" : "Buyer"} ({d.receiverLabel})
      </h3>
      <PaymentsList payments={victim} showIds dashboardBase={dashboardBase} />
      <h3>
        {d.ttype === "swap" ? "Provider" : "Seller"} ({d.providerLabel})
      </h3>
      <PaymentsList payments={other} showIds dashboardBase={dashboardBase} />
      <h3>Ledger</h3>
      <LedgerTable ledger={d.ledger} />
    </div>
  );
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
