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
import { ADMIN_RMA_TABS, getRmaView, listAdminRmas, type AdminRmaTab, type RmaPageView } from "../../db/queries/rmas";
import { formatCents, parseDollars } from "../../domain/money";
import { decideRmaUpdate, RMA_ERRORS, rmaCommandError, type RmaDecisionCommand } from "../../workflows/rma/contract";
import { CarrierTools } from "~/components/orders/AdminOrderCard";
import { formatDate } from "~/components/orders/format";
import { LedgerTable, PaymentsList, ShipmentsList, UpdatesList } from "~/components/orders/OrderParts";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { RmaLinesTable } from "~/components/rma/RmaLines";
import { pageTitle } from "~/components/title";
import { readFormData, requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { COMMAND_TIMEOUT_MS, ORDER_UNAVAILABLE_MESSAGE } from "~/utils/orders.server";
import { getTemporalClient, isTemporalUnavailable, withTimeout } from "~/utils/temporal.server";
import { action as transactionsAction } from "./admin.active-transactions";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("RMAs") }];

const CARD_TABS = ["summary", "updates", "shipping", "payments"] as const;
type CardTab = (typeof CARD_TABS)[number];
const isTab = (v: string): v is AdminRmaTab => Object.hasOwn(ADMIN_RMA_TABS, v);

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
  const page = await listAdminRmas(db, { tab: tabRaw, offset: Number(offsetRaw), limit: 25 });
  const open = openRaw ? await getRmaView(db, Number(openRaw)) : null;
  const detail = open ? await getOrderDetail(db, open.id, { retailerId: null, isStaff: true }) : null;
  return { tab: tabRaw, page, open, detail, cardTab, notice: url.searchParams.get("notice"), now: Date.now() };
}

type ActionData = { ok: false; error: string; fieldErrors?: Record<string, string> };

/** Staff's decision from the card's form: decision.<line> approve|deny, qty.<line>, comment.<line>, fee ($). */
function decisionFrom(form: FormData, rma: RmaPageView, staffUserId: number): { ok: true; cmd: RmaDecisionCommand } | { ok: false; error: string; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  const lines: RmaDecisionCommand["lines"] = [];
  for (const l of rma.lines) {
    const decision = form.get(`decision.${l.lineId}`);
    const comment = String(form.get(`comment.${l.lineId}`) ?? "").trim().slice(0, 1000);
    if (decision === "deny") {
      lines.push({ lineId: l.lineId, approvedQuantity: 0, comment });
      continue;
    }
    if (decision !== "approve") {
      fieldErrors[`decision.${l.lineId}`] = RMA_ERRORS.lines_pending;
      continue;
    }
    const qty = String(form.get(`qty.${l.lineId}`) ?? "").trim();
    if (!/^\d{1,4}$/.test(qty) || Number(qty) < 1) fieldErrors[`qty.${l.lineId}`] = "Approve at least one unit, or deny the line.";
    else if (Number(qty) > l.requested) fieldErrors[`qty.${l.lineId}`] = RMA_ERRORS.approved_too_many;
    else lines.push({ lineId: l.lineId, approvedQuantity: Number(qty), comment });
  }
  const feeRaw = String(form.get("fee") ?? "").trim();
  const fee = feeRaw === "" ? 0 : parseDollars(feeRaw);
  if (fee === null || fee < 0) fieldErrors.fee = RMA_ERRORS.bad_fee;
  const first = Object.values(fieldErrors)[0];
  if (first) return { ok: false, error: first, fieldErrors };
  return { ok: true, cmd: { staffUserId, lines, rmaFeeCents: fee as number } };
}

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const auth = await requireStaff(request);
  const form = await readFormData(request.clone());
  if (form.get("intent") === "carrier") return transactionsAction(args);
  if (form.get("intent") !== "decide") return data<ActionData>({ ok: false, error: "Unknown action." }, { status: 400 });
  const idRaw = String(form.get("rma") ?? "");
  const rma = /^\d{1,9}$/.test(idRaw) ? await getRmaView(db, Number(idRaw)) : null;
  if (!rma) return data<ActionData>({ ok: false, error: "Choose an RMA." }, { status: 404 });
  if (rma.stage !== "rmarequested") return data<ActionData>({ ok: false, error: RMA_ERRORS.wrong_state }, { status: 409 });
  const parsed = decisionFrom(form, rma, auth.user.id);
  if (!parsed.ok) return data<ActionData>({ ok: false, error: parsed.error, fieldErrors: parsed.fieldErrors }, { status: 400 });
  try {
    const client = await getTemporalClient();
    const r = await withTimeout(client.workflow.getHandle(rma.workflowId).executeUpdate(decideRmaUpdate, { args: [parsed.cmd] }), COMMAND_TIMEOUT_MS);
    if (r === "timeout") return data<ActionData>({ ok: false, error: "This is taking longer than usual. Refresh the page in a moment." }, { status: 503 });
  } catch (err) {
    const known = rmaCommandError(err);
    if (known) return data<ActionData>({ ok: false, error: known.message }, { status: known.code === "wrong_state" ? 409 : 400 });
    if (!isTemporalUnavailable(err)) console.error(`[rma] decision on RMA ${rma.id} failed`, err);
    return data<ActionData>({ ok: false, error: ORDER_UNAVAILABLE_MESSAGE }, { status: 503 });
  }
  throw redirect(`/admin/active-rmas?rma=${rma.id}&notice=decided`, 303);
}

export default function AdminRmas() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as ActionData | undefined;
  return (
    <section className="page" data-testid="admin-rmas">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>RMAs</h1>
      <nav className="order-tabs" role="tablist">
        {(Object.keys(ADMIN_RMA_TABS) as AdminRmaTab[]).map((t) => (
          <Link key={t} to={`/admin/active-rmas/${t}`} role="tab" aria-selected={t === d.tab} className={t === d.tab ? "active" : ""} data-testid={`rma-tab-${t}`}>
            {t}
          </Link>
        ))}
      </nav>
      {a && !a.ok ? (
        <div className="alert alert-danger" role="alert" data-testid="admin-error">
          {a.error}
        </div>
      ) : null}
      {d.notice === "decided" ? (
        <div className="alert alert-success" role="status" data-testid="admin-notice">
          The RMA was processed.
        </div>
      ) : null}
      {d.open && d.detail ? <RmaCard rma={d.open} detail={d.detail} tab={d.cardTab} now={d.now} fieldErrors={a && !a.ok ? a.fieldErrors : undefined} /> : null}
      {d.page.items.length === 0 ? <p data-testid="rmas-empty">No RMAs here.</p> : null}
      <ul className="admin-list">
        {d.page.items.map((r) => (
          <li key={r.id} className="admin-card" data-testid="admin-rma-row" data-rma-id={r.id}>
            <Link to={`/admin/active-rmas/${d.tab}?rma=${r.id}`}>RMA {r.externalId}</Link> <span className="pill">{r.displayStatus}</span> · for order {r.rmaForExternalId ?? "—"} · victim{" "}
            {r.victimName} → perpetrator {r.perpetratorName} · {formatDate(r.modifiedAt)}
          </li>
        ))}
      </ul>
      <Pager total={d.page.total} limit={d.page.limit} offset={d.page.offset} hrefFor={(off) => `/admin/active-rmas/${d.tab}?offset=${off}`} />
    </section>
  );
}

type Detail = NonNullable<Awaited<ReturnType<typeof loader>>["detail"]>;

function RmaCard({ rma, detail, tab, now, fieldErrors }: { rma: RmaPageView; detail: Detail; tab: CardTab; now: number; fieldErrors?: Record<string, string> }) {
  const ledger = rma.ledger ?? {};
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
      <div className="card-area" style={{ maxHeight: 500, overflowY: "auto" }}>
        {tab === "summary" ? (
          <>
            <dl className="facts">
              <dt>Original order</dt>
              <dd>
                {rma.rmaForId ? <Link to={`/admin/active-transactions?order=${rma.rmaForId}`}>{rma.rmaForExternalId}</Link> : "—"}
              </dd>
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
            </dl>
            <RmaLinesTable lines={rma.lines} pictureUrl={(p) => `/uploads/${p}`} />
            {rma.stage === "rmarequested" ? <DecisionForm rma={rma} fieldErrors={fieldErrors} /> : null}
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
            <LedgerTable ledger={rma.ledger} />
          </>
        ) : null}
      </div>
    </article>
  );
}

/** Approve or deny each line (approved ≤ requested), a comment, the RMA fee; Process once every line is decided. */
function DecisionForm({ rma, fieldErrors }: { rma: RmaPageView; fieldErrors?: Record<string, string> }) {
  const busy = useNavigation().state !== "idle";
  const [decided, setDecided] = useState<Record<number, boolean>>({});
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Without JavaScript the server checks it; with it, the button waits until every line has a decision.
  const ready = !hydrated || rma.lines.every((l) => decided[l.lineId]);
  return (
    <Form method="post" className="form-stack" data-testid="rma-decision-form">
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="rma" value={rma.id} />
      {rma.lines.map((l) => (
        <fieldset key={l.lineId} className="field" data-testid="rma-decide-line">
          <legend>
            {l.productCode} × {l.requested} requested
          </legend>
          <label>
            <input type="radio" name={`decision.${l.lineId}`} value="approve" onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))} /> Approve
          </label>{" "}
          <label>
            <input type="radio" name={`decision.${l.lineId}`} value="deny" onChange={() => setDecided((x) => ({ ...x, [l.lineId]: true }))} /> Deny
          </label>{" "}
          <label>
            Approved units <input type="number" name={`qty.${l.lineId}`} min={1} max={l.requested} defaultValue={l.requested} style={{ width: "5rem" }} />
          </label>{" "}
          <label>
            Comment <input type="text" name={`comment.${l.lineId}`} maxLength={1000} />
          </label>
          {fieldErrors?.[`decision.${l.lineId}`] || fieldErrors?.[`qty.${l.lineId}`] ? (
            <span className="field-error" role="alert">
              {fieldErrors[`decision.${l.lineId}`] ?? fieldErrors[`qty.${l.lineId}`]}
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
