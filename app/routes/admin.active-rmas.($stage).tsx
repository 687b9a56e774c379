/**
 * /admin/active-rmas/:stage? (spec 002 §2.9 "Admin RMA screen"): every RMA by tab (all, pending, shipping,
 * completed, declined), newest change first, with both parties' store names (staff see names). ?rma=<id>
 * opens an RMA's card: tabs summary (each line with its reason, requested units, pictures and staff's
 * decision; the contact for the return; the original order), updates, Shipping (the return parcel, with the
 * carrier tools) and Payments (refund, charge and the ledger). While the RMA is pending, staff approve or
 * deny each line (approved units ≤ requested, a comment), set the RMA fee and process it: the decision goes
 * to the RMA's workflow (decideRma), which books the return or settles at once.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { getOrderDetail } from "../../db/queries/order-views";
import { ADMIN_RMA_STATUSES, ADMIN_RMA_TABS, getRmaView, listAdminRmas, type AdminRmaStatus, type AdminRmaTab, type RmaPageView } from "../../db/queries/rmas";
import { PAYMENT_QUEUED } from "../../domain/messages";
import { RMA_DISPLAY_STATUS } from "../../domain/states";
import { centsToDecimalString, formatCents } from "../../domain/money";
import { rmaAmountYouWillReceive, rmaBalanced } from "../../domain/rma-money";
import { decideRmaUpdate, RMA_ERRORS, rmaCommandError, type RmaDecisionCommand } from "../../workflows/rma/contract";
import { CarrierTools } from "~/components/orders/AdminOrderCard";
import { formatDate } from "~/components/orders/format";
import { LedgerTable, PaymentsList, ShipmentsList, UpdatesList } from "~/components/orders/OrderParts";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { RmaLinesTable } from "~/components/rma/RmaLines";
import { pageTitle } from "~/components/title";
import { parseRmaDecision, rmaDecisionAmounts } from "~/utils/admin-rma.server";
import { readFormData, requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { COMMAND_TIMEOUT_MS, ORDER_UNAVAILABLE_MESSAGE, readModelSeqOf } from "~/utils/orders.server";
import { executeUpdateOnce, getTemporalClient, isTemporalUnavailable } from "~/utils/temporal.server";
import { action as transactionsAction } from "./admin.active-transactions";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("RMAs") }];

const CARD_TABS = ["summary", "updates", "shipping", "payments"] as const;
type CardTab = (typeof CARD_TABS)[number];
const isTab = (v: string): v is AdminRmaTab => Object.hasOwn(ADMIN_RMA_TABS, v);
const isStatus = (v: string): v is AdminRmaStatus => (ADMIN_RMA_STATUSES as readonly string[]).includes(v);
const STATUS_LABELS: Record<AdminRmaStatus, string> = {
  ...(RMA_DISPLAY_STATUS as Record<"rmarequested" | "shipping" | "rmacompleted" | "rmadeclined" | "rmacancelled", string>),
  overdue: "Staff answer overdue",
  charge_queued: "Charge queued for a card",
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const tabRaw = params.stage ?? "all";
  if (!isTab(tabRaw)) throw new Response("Unknown tab", { status: 404 });
  const offsetRaw = url.searchParams.get("offset") ?? "0";
  if (!/^\d{1,7}$/.test(offsetRaw)) throw new Response("Bad offset", { status: 400 });
  // ?order= is where the shared carrier tools send staff back to.
  const openRaw = url.searchParams.get("rma") ?? url.searchParams.get("order");
  if (openRaw !== null && !/^\d{1,9}$/.test(openRaw)) throw new Response("Bad RMA", { status: 400 });
  const cardTabRaw = url.searchParams.get("tab") ?? "summary";
  const cardTab: CardTab = (CARD_TABS as readonly string[]).includes(cardTabRaw) ? (cardTabRaw as CardTab) : "summary";
  const statusRaw = url.searchParams.get("status") ?? "";
  if (statusRaw !== "" && !isStatus(statusRaw)) throw new Response("Unknown status", { status: 400 });
  const status = statusRaw === "" ? undefined : (statusRaw as AdminRmaStatus);
  const page = await listAdminRmas(db, { tab: tabRaw, status, offset: Number(offsetRaw), limit: 25 });
  const open = openRaw ? await getRmaView(db, Number(openRaw)) : null;
  const detail = open ? await getOrderDetail(db, open.id, { retailerId: null, isStaff: true }) : null;
  const decidedRaw = url.searchParams.get("decided");
  const decided = decidedRaw !== null && /^\d{1,9}$/.test(decidedRaw) ? Number(decidedRaw) : null;
  return { tab: tabRaw, status: status ?? "", page, open, detail, cardTab, notice: url.searchParams.get("notice"), decided, now: Date.now() };
}

/** What staff's decision would move, shown before they confirm it (domain/rma-money, as the workflow settles). */
type Review = {
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
type ActionData = { ok: false; error: string; fieldErrors?: Record<string, string> } | { ok: true; review: Review };

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const auth = await requireStaff(request);
  const form = await readFormData(request.clone());
  const intent = form.get("intent");
  if (intent === "carrier") return transactionsAction(args);
  if (intent !== "review" && intent !== "decide") return data<ActionData>({ ok: false, error: "Unknown action." }, { status: 400 });
  const idRaw = String(form.get("rma") ?? "");
  const rma = /^\d{1,9}$/.test(idRaw) ? await getRmaView(db, Number(idRaw)) : null;
  if (!rma) return data<ActionData>({ ok: false, error: "Choose an RMA." }, { status: 404 });
  if (rma.stage !== "rmarequested") return data<ActionData>({ ok: false, error: RMA_ERRORS.wrong_state }, { status: 409 });
  const parsed = parseRmaDecision(form, rma, auth.user.id);
  if (!parsed.ok) return data<ActionData>({ ok: false, error: parsed.error, fieldErrors: parsed.fieldErrors }, { status: 400 });
  if (intent === "review") {
    const s = rmaDecisionAmounts(rma, parsed.cmd);
    if (!s) return data<ActionData>({ ok: false, error: "This RMA no longer matches its order: ask an engineer to look at it." }, { status: 409 });
    return data<ActionData>({
      ok: true,
      review: {
        rmaId: rma.id,
        cmd: parsed.cmd,
        victimRefundCents: s.victimRefundCents,
        perpetratorChargeCents: s.perpetratorChargeCents,
        approvedValueCents: s.approvedValueCents,
        returnShippingCents: s.rmaShippingCents,
        rmaFeeCents: s.rmaFeeCents,
        feeRefundCents: s.feeRefundCents,
        originalShippingCents: s.originalShippingRefundCents,
        declined: s.declined,
      },
    });
  }
  try {
    const client = await getTemporalClient();
    const r = await executeUpdateOnce(client.workflow.getHandle(rma.workflowId), decideRmaUpdate, [parsed.cmd], COMMAND_TIMEOUT_MS, { readModelSeq: readModelSeqOf(rma.id) });
    if (r === "timeout") return data<ActionData>({ ok: false, error: "This is taking longer than usual. Refresh the page in a moment." }, { status: 503 });
  } catch (err) {
    const known = rmaCommandError(err);
    if (known) return data<ActionData>({ ok: false, error: known.message }, { status: known.code === "wrong_state" ? 409 : 400 });
    if (!isTemporalUnavailable(err)) console.error(`[rma] decision on RMA ${rma.id} failed`, err);
    return data<ActionData>({ ok: false, error: ORDER_UNAVAILABLE_MESSAGE }, { status: 503 });
  }
  // Spec 002 §4: after a successful approval save the card closes. Staff go back to the list they were on,
  // with a notice that links to the RMA.
  const from = new URL(request.url).searchParams;
  const back = new URLSearchParams({ notice: "decided", decided: String(rma.id) });
  const status = from.get("status");
  if (status && isStatus(status)) back.set("status", status);
  throw redirect(`/admin/active-rmas/${args.params.stage && isTab(args.params.stage) ? args.params.stage : "all"}?${back}`, 303);
}

export default function AdminRmas() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as ActionData | undefined;
  const q = d.status ? `?status=${d.status}` : "";
  return (
    <section className="page" data-testid="admin-rmas">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>RMAs</h1>
      <nav className="order-tabs" role="tablist">
        {(Object.keys(ADMIN_RMA_TABS) as AdminRmaTab[]).map((t) => (
          <Link key={t} to={`/admin/active-rmas/${t}${q}`} role="tab" aria-selected={t === d.tab} className={t === d.tab ? "active" : ""} data-testid={`rma-tab-${t}`}>
            {t}
          </Link>
        ))}
      </nav>
      <Form method="get" className="inline-form" data-testid="rma-status-filter">
        <label>
          Status{" "}
          <select name="status" defaultValue={d.status} data-testid="rma-status">
            <option value="">Any status</option>
            {ADMIN_RMA_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className="button button-outline" data-testid="rma-status-apply">
          Filter
        </button>
      </Form>
      {a && !a.ok ? (
        <div className="alert alert-danger" role="alert" data-testid="admin-error">
          {a.error}
        </div>
      ) : null}
      {d.notice === "decided" ? (
        <div className="alert alert-success" role="status" data-testid="admin-notice">
          The RMA was processed.{" "}
          {d.decided ? (
            <Link to={`/admin/active-rmas/${d.tab}?rma=${d.decided}`} data-testid="admin-notice-open">
              Open it
            </Link>
          ) : null}
        </div>
      ) : null}
      {d.open && d.detail ? <RmaCard rma={d.open} detail={d.detail} tab={d.cardTab} now={d.now} outcome={a} /> : null}
      {d.page.items.length === 0 ? <p data-testid="rmas-empty">No RMAs here.</p> : null}
      <ul className="admin-list">
        {d.page.items.map((r) => (
          <li key={r.id} className="admin-card" data-testid="admin-rma-row" data-rma-id={r.id}>
            <Link to={`/admin/active-rmas/${d.tab}?rma=${r.id}`}>RMA {r.externalId}</Link> <span className="pill">{r.displayStatus}</span> · for order {r.rmaForExternalId ?? "—"} · victim{" "}
            {r.victimName} → perpetrator {r.perpetratorName} · {formatDate(r.modifiedAt)}
          </li>
        ))}
      </ul>
      <Pager total={d.page.total} limit={d.page.limit} offset={d.page.offset} hrefFor={(off) => `/admin/active-rmas/${d.tab}?offset=${off}${d.status ? `&status=${d.status}` : ""}`} />
    </section>
  );
}

type Detail = NonNullable<Awaited<ReturnType<typeof loader>>["detail"]>;

/** Whether the RMA's payments moved what it recorded, once it ended (domain/rma-money rmaBalanced); omitted while open. */
function balancedOf(rma: RmaPageView, detail: Detail): { balanced?: boolean } {
  const ledger = rma.ledger ?? {};
  const rows = detail.payments.map((p) => ({ toVictim: p.retailerId === rma.victimId, txtype: p.txtype, status: p.status, amountCents: p.amountCents }));
  const b = rmaBalanced(rma.stage, { victimRefundCents: Number(ledger.victimRefundCents ?? 0), perpetratorChargeCents: Number(ledger.perpetratorChargeCents ?? 0) }, rows);
  return b === null ? {} : { balanced: b };
}

/** Spec 002 §2.9: the original order's summary, as the victim received it (what the RMA is settled against). */
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

/** Spec 002 §2.9: the totals card: what was asked, what staff approved, and the money of the decision. */
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
          {decided ? `${approvedUnits} units, ${formatCents(rma.lines.reduce((a, l) => a + (l.approved ? l.approvedQuantity * l.unitPriceCents : 0), 0))}` : "not decided yet"}
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

function RmaCard({ rma, detail, tab, now, outcome }: { rma: RmaPageView; detail: Detail; tab: CardTab; now: number; outcome?: ActionData }) {
  const ledger = rma.ledger ?? {};
  const faultyCents = rma.lines.reduce((a, l) => a + l.requested * l.unitPriceCents, 0);
  // Before staff decide: what the victim was told it would receive; after: what the decision returns.
  const willReceive =
    rma.stage === "rmarequested" && rma.original
      ? rmaAmountYouWillReceive(
          rma.original,
          rma.lines.map((l) => ({ unitPriceCents: l.unitPriceCents, requestedQuantity: l.requested })),
        )
      : Number(ledger.victimRefundCents ?? 0);
  const review = outcome?.ok && outcome.review.rmaId === rma.id ? outcome.review : null;
  return (
    <article className="admin-card" data-testid="admin-rma-card" data-rma-id={rma.id} data-stage={rma.stage}>
      <header>
        <strong>RMA {rma.externalId}</strong> <span className="pill">{rma.displayStatus}</span> · victim {detail.providerLabel} → perpetrator {detail.receiverLabel}{" "}
        <Link to="/admin/active-rmas" data-testid="close-card">
          Close
        </Link>
      </header>
      <nav className="order-tabs" role="tablist">
        {CARD_TABS.map((t) => (
          <Link key={t} to={`/admin/active-rmas?rma=${rma.id}&tab=${t}`} role="tab" aria-selected={t === tab} className={t === tab ? "active" : ""} data-testid={`card-tab-${t}`}>
            {t}
          </Link>
        ))}
      </nav>
      <div className="card-area" style={{ maxHeight: 500, overflowY: "auto" }} role="region" aria-label={`RMA ${tab}`} tabIndex={0}>
        {tab === "summary" ? (
          <>
            <dl className="facts">
              <dt>Original order</dt>
              <dd>
                {rma.rmaForId ? <Link to={`/admin/active-transactions?order=${rma.rmaForId}`}>{rma.rmaForExternalId}</Link> : "—"}
              </dd>
              <dt>Amount of faulty goods</dt>
              <dd data-testid="rma-faulty">{formatCents(faultyCents)}</dd>
              <dt>Amount the user will receive</dt>
              <dd data-testid="rma-will-receive">{formatCents(willReceive)}</dd>
              <dt>Contact</dt>
              <dd data-testid="rma-contact">
                {rma.contact.name}, {rma.contact.email}, {rma.contact.phone}; packing slip: {rma.contact.packingSlipName}
              </dd>
              <dt>RMA fee</dt>
              <dd>{formatCents(rma.rmaFeeCents)}</dd>
              <dt>Returned to the victim / charged to the perpetrator</dt>
              <dd data-testid="rma-amounts">
                {formatCents(Number(ledger.victimRefundCents ?? 0))} / {formatCents(Number(ledger.perpetratorChargeCents ?? 0))}
              </dd>
              {ledger.chargeQueued === true ? (
                <>
                  <dt>Perpetrator&apos;s charge</dt>
                  <dd data-testid="rma-charge-queued">{PAYMENT_QUEUED} It is taken when the perpetrator puts a card on file.</dd>
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
                <DecisionForm key={outcome && !outcome.ok ? outcome.error : "form"} rma={rma} fieldErrors={outcome && !outcome.ok ? outcome.fieldErrors : undefined} />
              )
            ) : null}
          </>
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
          <>
            <PaymentsList payments={detail.payments} showIds />
            <LedgerTable ledger={rma.ledger ? { ...rma.ledger, ...balancedOf(rma, detail) } : null} />
          </>
        ) : null}
      </div>
    </article>
  );
}

/**
 * Approve or deny each line (approved ≤ requested), a comment, the RMA fee. "Process RMA" (once every line
 * is decided) shows the amounts first; nothing is sent to the workflow before staff confirm them.
 */
function DecisionForm({ rma, fieldErrors }: { rma: RmaPageView; fieldErrors?: Record<string, string> }) {
  const busy = useNavigation().state !== "idle";
  const [decided, setDecided] = useState<Record<number, boolean>>({});
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Without JavaScript the server checks it; with it, the button waits until every line has a decision.
  const ready = !hydrated || rma.lines.every((l) => decided[l.lineId]);
  const errorOf = (i: number) => fieldErrors?.[`lines[${i}].decision`] ?? fieldErrors?.[`lines[${i}].qty`] ?? fieldErrors?.[`lines[${i}].comment`] ?? fieldErrors?.[`lines[${i}].id`];
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
            <input type="radio" name={`lines[${i}].decision`} value="approve" onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))} /> Approve
          </label>{" "}
          <label>
            <input type="radio" name={`lines[${i}].decision`} value="deny" onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))} /> Deny
          </label>{" "}
          <label>
            Approved units <input type="number" name={`lines[${i}].qty`} min={1} max={l.requested} defaultValue={l.requested} style={{ width: "5rem" }} />
          </label>{" "}
          <label>
            Comment <input type="text" name={`lines[${i}].comment`} maxLength={1000} />
          </label>
          {errorOf(i) ? (
            <span className="field-error" role="alert">
              {errorOf(i)}
            </span>
          ) : null}
        </fieldset>
      ))}
      <label>
        RMA fee ($) <input type="text" name="fee" inputMode="decimal" defaultValue="0.00" style={{ width: "7rem" }} data-testid="rma-fee" />
      </label>
      {fieldErrors?.fee ? (
        <span className="field-error" role="alert">
          {fieldErrors.fee}
        </span>
      ) : null}
      <button type="submit" className="button" disabled={busy || !ready} data-testid="rma-process-staff">
        Process RMA
      </button>
    </Form>
  );
}

/** The decision's amounts, and the decision itself as hidden fields: Confirm sends it; Change goes back. */
function ReviewPanel({ rma, review }: { rma: RmaPageView; review: Review }) {
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
              <input type="hidden" name={`lines[${i}].decision`} value={qty > 0 ? "approve" : "deny"} />
              <input type="hidden" name={`lines[${i}].qty`} value={qty} />
              <input type="hidden" name={`lines[${i}].comment`} value={d?.comment ?? ""} />
              {l.productCode}: {qty > 0 ? `${qty} of ${l.requested} approved` : "denied"}
              {d?.comment ? ` (${d.comment})` : ""}
            </li>
          );
        })}
      </ul>
      {review.declined ? (
        <p data-testid="rma-review-declined">Every line is denied: the RMA is declined and nothing is paid or charged.</p>
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
        <Link to={`/admin/active-rmas?rma=${rma.id}`} className="button button-outline" data-testid="rma-review-change">
          Change the decision
        </Link>
      </div>
    </Form>
  );
}
