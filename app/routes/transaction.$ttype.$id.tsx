/**
 * /transaction/:ttype/:id (spec 001 §2 "Detail view", §4 "Action panel by state name"): the status, any
 * decline or cancel reason ("Other Retailer:" / "You:"), order number, brand, transaction type and the
 * counterparty (anonymous), the goods and amounts, and the action panel chosen by the state name
 * (domain/states actionPanelFor): complete-checkout, provider-approve (approve / modify / decline; the
 * buyer's approve or decline of a modified purchase), shipment-pending (packing slip, shipper checklist,
 * label, cancel shipment) and our order-summary (shipments, payments, rating, RMA window).
 *
 * Commands are Temporal updates on the order's buy workflow (app/utils/orders.server.ts); a rejected
 * command shows the specification's message with a 4xx. Opening the detail marks the other party's
 * updates seen (clears the alert count).
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useEffect, useMemo, useState } from "react";
import type { z } from "zod";
import { getOrderDetail, markOrdersSeen, type OrderDetail } from "../../db/queries/order-views";
import { formatCents } from "../../domain/money";
import {
  CONFIRM_DECLINE_OTHERS,
  GO_BACK,
  NOT_YET_RATED,
  RATE_THIS_TRANSACTION,
  SELLER_CARD_NEEDED,
  TRANSACTION_LABELS,
  UPDATE_YOUR_LISTINGS,
} from "../../domain/messages";
import { BUYER_DECLINE_REASONS, CANCEL_SHIPMENT_REASONS, SELLER_DECLINE_REASONS, labelFor, FLOOR_TIMES } from "../../domain/reasons";
import { actionPanelFor, canCancelShipment, canProviderModifySale, type Role } from "../../domain/states";
import {
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  BUY_REDIRECTS,
  ordersTabFor,
  cancelShipmentUpdate,
  completeCheckoutUpdate,
  declineCheckoutUpdate,
  declineModifiedPurchaseUpdate,
  declineSaleUpdate,
  modifySaleUpdate,
  type BuyCommandResult,
} from "../../workflows/buy/contract";
import { CardFields } from "~/components/CardFields";
import { SwapPanel } from "~/components/orders/SwapPanel";
import { RmaOffer } from "~/components/rma/RmaOffer";
import { formatDate } from "~/components/orders/format";
import { BuyerAmounts, LinesTable, PaymentsList, PAYOUT_PENDING_TEXT, ShipmentsList, ShippingPapers, SwapAmounts, UpdatesList } from "~/components/orders/OrderParts";
import ordersCss from "~/components/orders/orders.css";
import {
  CancelShipmentSchema,
  CHECKOUT_DECLINE_REASONS,
  DeclineCheckoutSchema,
  DeclineModifiedSchema,
  DeclineSaleSchema,
  parseUnitInputs,
} from "~/components/orders/schemas";
import { pageTitle } from "~/components/title";
import { readFormData, requireTradingRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { orderViewer, paymentMethodFromForm, sendBuyCommand, type CommandOutcome } from "~/utils/orders.server";
import { rmaOffer } from "~/utils/rma.server";
import { handleSwapAction, swapPanelData } from "~/utils/swap.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: pageTitle(d ? `Order ${d.order.externalId}` : "Order") }];

function notFound(): never {
  throw new Response("Not found", { status: 404 });
}

async function loadOrder(params: LoaderFunctionArgs["params"], viewer: { retailerId: number | null; isStaff: boolean }): Promise<OrderDetail> {
  const ttype = params.ttype;
  const idRaw = params.id ?? "";
  if ((ttype !== "buy" && ttype !== "swap") || !/^\d{1,9}$/.test(idRaw)) notFound();
  const order = await getOrderDetail(db, Number(idRaw), viewer);
  // An RMA (an order of type 3) has its own page (/rma/:id).
  if (!order || order.ttype !== ttype || order.transactionType === 3) notFound();
  return order;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await orderViewer(request);
  const order = await loadOrder(params, viewer);
  if (order.role && !viewer.isStaff) await markOrdersSeen(db, viewer.retailerId!, [order.id]);
  const { canRma, myRma } = await rmaOffer(order, viewer.retailerId);
  const myRating = order.role ? (order.ratings.find((r) => r.raterId === viewer.retailerId) ?? null) : null;
  const otherRating = order.role ? (order.ratings.find((r) => r.raterId !== viewer.retailerId) ?? null) : null;
  return {
    order,
    swap: order.ttype === "swap" ? await swapPanelData(order) : null,
    panel: actionPanelFor(order.ttype, order.statename),
    viewerIsStaff: viewer.isStaff,
    canRma,
    myRma,
    myRating,
    otherRating,
    now: Date.now(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Commands.

export type DetailActionData =
  | { ok: true; intent: string; message?: string; redirectTo?: string; delayMs?: number; need?: "payment_method" | "confirm_decline_others"; resend?: Record<string, string> }
  | { ok: false; intent: string; error: string; fieldErrors?: Record<string, string> };

function fail(intent: string, status: number, error: string, fieldErrors?: Record<string, string>) {
  return data<DetailActionData>({ ok: false, intent, error, fieldErrors }, { status });
}

function fromOutcome(role: Role | null, intent: string, out: CommandOutcome, resend?: Record<string, string>) {
  if (!out.ok) return fail(intent, out.status, out.message, out.code === "card_declined" ? { card_number: out.message } : undefined);
  const r: BuyCommandResult = out.result;
  if (r.status === "need_payment_method") return data<DetailActionData>({ ok: true, intent, need: "payment_method", message: r.message, resend });
  if (r.status === "need_confirm_decline_others") return data<DetailActionData>({ ok: true, intent, need: "confirm_decline_others", message: r.message, resend });
  if (r.redirectTo === BUY_REDIRECTS.activeListings) {
    // spec 001 §4: the seller goes to active listings with an 'update your listings' message after about 2 s.
    return data<DetailActionData>({ ok: true, intent, message: r.message ?? UPDATE_YOUR_LISTINGS, redirectTo: r.redirectTo, delayMs: 2000 });
  }
  if (r.redirectTo) throw redirect(ordersTabFor(role, r.redirectTo), 303);
  return data<DetailActionData>({ ok: true, intent, message: r.message });
}

function requireRole(order: OrderDetail, role: Role, intent: string) {
  if (order.role !== role) return fail(intent, 403, role === "provider" ? "Only the selling retailer can answer this order." : "Only the buying retailer can answer this order.");
  return null;
}

function parseReason<S extends z.ZodTypeAny>(schema: S, form: FormData): { ok: true; value: z.infer<S> } | { ok: false; message: string } {
  const parsed = schema.safeParse(Object.fromEntries(form));
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? "Please check the form." };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // Order commands are trading: an inactive or pending retailer is refused before anything is sent.
  const auth = await requireTradingRetailer(request);
  const viewer = { retailerId: auth.retailer.id, isStaff: auth.user.isStaff };
  const order = await loadOrder(params, viewer);
  if (!order.role) notFound();
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const actor = auth.retailer.id;
  const confirm = form.get("confirm_decline_others") === "1";
  if (order.ttype === "swap") {
    const out = await handleSwapAction(order, form, actor);
    if (!out.ok) return fail(intent, out.status, out.message, out.code === "card_declined" ? { card_number: out.message } : undefined);
    if (out.result.redirectTo) throw redirect(out.result.redirectTo, 303);
    return data<DetailActionData>({ ok: true, intent, message: out.result.message });
  }

  switch (intent) {
    case "complete_checkout": {
      const bad = requireRole(order, "receiver", intent);
      if (bad) return bad;
      const card = paymentMethodFromForm(form);
      if (!card.ok) return fail(intent, 400, Object.values(card.errors)[0] ?? "Please check the card.", card.errors);
      return fromOutcome(order.role, intent, await sendBuyCommand(order, completeCheckoutUpdate, { actorRetailerId: actor, paymentMethod: card.paymentMethod }));
    }
    case "decline_checkout": {
      const bad = requireRole(order, "receiver", intent);
      if (bad) return bad;
      const p = parseReason(DeclineCheckoutSchema, form);
      if (!p.ok) return fail(intent, 400, p.message, { reason: p.message });
      return fromOutcome(order.role, intent, await sendBuyCommand(order, declineCheckoutUpdate, { actorRetailerId: actor, reason: p.value.reason }));
    }
    case "respond": {
      const bad = requireRole(order, "provider", intent);
      if (bad) return bad;
      const parsed = parseUnitInputs(form);
      if (!parsed.ok) return fail(intent, 400, "Choose units of this order only, in whole numbers.");
      const goods = order.lines.filter((l) => l.type === "goods");
      let changed = false;
      const lines = [];
      for (const l of goods) {
        const given = parsed.units.get(l.contributionId);
        const sizes: Record<string, number> = {};
        for (const [size, requested] of Object.entries(l.sizes)) {
          const n = given && Object.hasOwn(given, size) ? given[size] : requested;
          if (n > requested) {
            return fail(intent, 400, "You cannot select more units than what the retailer has requested to purchase.");
          }
          if (n !== requested) changed = true;
          sizes[size] = n;
        }
        // Sizes that were not requested cannot be added.
        for (const size of Object.keys(given ?? {})) {
          if (!Object.hasOwn(l.sizes, size) && (given![size] ?? 0) > 0) {
            return fail(intent, 400, "You cannot select more units than what the retailer has requested to purchase.");
          }
        }
        lines.push({ listingId: l.listingId, variationId: l.variationId, sizes });
      }
      const resend: Record<string, string> = { intent };
      for (const [k, v] of form.entries()) if (k.startsWith("units.")) resend[k] = String(v);
      if (!changed) {
        return fromOutcome(order.role, intent, await sendBuyCommand(order, approveSaleUpdate, { actorRetailerId: actor, confirmDeclineOthers: confirm }), resend);
      }
      return fromOutcome(order.role, intent, await sendBuyCommand(order, modifySaleUpdate, { actorRetailerId: actor, lines, confirmDeclineOthers: confirm }), resend);
    }
    case "add_card": {
      const bad = requireRole(order, "provider", intent);
      if (bad) return bad;
      const card = paymentMethodFromForm(form);
      if (!card.ok) return fail(intent, 400, Object.values(card.errors)[0] ?? "Please check the card.", card.errors);
      // The approval or modification that asked for the card continues in the workflow; if it then needs the
      // decline-others confirmation, the confirmed resend is that same response (units carried through the card step).
      const resend: Record<string, string> = { intent: "respond" };
      for (const [k, v] of form.entries()) if (k.startsWith("units.")) resend[k] = String(v);
      return fromOutcome(
        order.role,
        intent,
        await sendBuyCommand(order, addPaymentMethodUpdate, { actorRetailerId: actor, paymentMethod: card.paymentMethod, confirmDeclineOthers: confirm }),
        resend,
      );
    }
    case "decline": {
      const bad = requireRole(order, "provider", intent);
      if (bad) return bad;
      const p = parseReason(DeclineSaleSchema, form);
      if (!p.ok) return fail(intent, 400, p.message, { reason: p.message });
      return fromOutcome(order.role, intent, await sendBuyCommand(order, declineSaleUpdate, { actorRetailerId: actor, reason: p.value.reason }));
    }
    case "approve_modified": {
      const bad = requireRole(order, "receiver", intent);
      if (bad) return bad;
      return fromOutcome(order.role, intent, await sendBuyCommand(order, approveModifiedPurchaseUpdate, { actorRetailerId: actor }));
    }
    case "decline_modified": {
      const bad = requireRole(order, "receiver", intent);
      if (bad) return bad;
      const p = parseReason(DeclineModifiedSchema, form);
      if (!p.ok) return fail(intent, 400, p.message, { reason: p.message });
      return fromOutcome(order.role, intent, await sendBuyCommand(order, declineModifiedPurchaseUpdate, { actorRetailerId: actor, reason: p.value.reason }));
    }
    case "cancel_shipment": {
      const bad = requireRole(order, "provider", intent);
      if (bad) return bad;
      const p = parseReason(CancelShipmentSchema, form);
      if (!p.ok) return fail(intent, 400, p.message, { reason: p.message });
      return fromOutcome(order.role, intent, await sendBuyCommand(order, cancelShipmentUpdate, { actorRetailerId: actor, reason: p.value.reason }));
    }
    default:
      return fail(intent, 400, "Unknown action.");
  }
}

// ---------------------------------------------------------------------------------------------------------
// Page.

type LoaderData = Awaited<ReturnType<typeof loader>>;

export default function TransactionDetail() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as DetailActionData | undefined;
  const navigate = useNavigate();
  const o = d.order;
  const backTo = o.stage === "pre_shipping" ? "/alerts" : o.stage === "declined" ? "/alerts?status=declined" : "/orders";

  useEffect(() => {
    if (a?.ok && a.redirectTo && a.delayMs) {
      const t = window.setTimeout(() => navigate(a.redirectTo!), a.delayMs);
      return () => window.clearTimeout(t);
    }
  }, [a, navigate]);

  return (
    <section className="page order-detail" data-testid="order-detail" data-statename={o.statename} data-panel={d.panel}>
      <p>
        <Link to={backTo} data-testid="go-back">
          ← {GO_BACK}
        </Link>
      </p>
      <h1>
        Order {o.externalId} <span className="pill" data-testid="display-status">{o.displayStatus}</span>
      </h1>
      {o.reasons.map((r) => (
        <p key={r.key} className="reason" data-testid="reason">
          {r.text}
        </p>
      ))}
      {a ? <ActionMessage a={a} /> : null}
      <dl className="facts">
        <dt>Order number</dt>
        <dd data-testid="order-number">{o.externalId}</dd>
        <dt>Brand</dt>
        <dd>{o.brandName ?? "—"}</dd>
        <dt>Transaction type</dt>
        <dd data-testid="type-label">{o.typeLabel}</dd>
        <dt>{o.role ? "Other retailer" : "Retailers"}</dt>
        <dd data-testid="counterparty">{o.counterpartyLabel}</dd>
        <dt>Created</dt>
        <dd>{formatDate(o.createdAt)}</dd>
        {o.floorTime && (d.viewerIsStaff || o.role === "provider") ? (
          <>
            <dt>Time on the sales floor</dt>
            <dd>{labelFor(FLOOR_TIMES, o.floorTime) ?? o.floorTime}</dd>
          </>
        ) : null}
      </dl>
      <Panel d={d} a={a} />
      <h2>Goods</h2>
      {o.ttype === "swap" ? (
        // A swap's goods as they stand (a removed line keeps its row with no units), each with whose it is.
        <LinesTable lines={o.lines.filter((l) => l.type === "goods" && l.quantity > 0)} sideLabel={(side) => swapSideLabel(o, side)} />
      ) : (
        <LinesTable lines={o.lines} showPending={o.statename === "receiver_approve_modified_purchase"} />
      )}
      <Amounts o={o} />
      {o.shipments.length > 0 ? (
        <>
          <h2>Shipping</h2>
          <ShipmentsList shipments={o.shipments} />
        </>
      ) : null}
      {o.role ? (
        <>
          <h2>Payments</h2>
          <PaymentsList payments={o.payments} payoutPending={payoutPendingText(o)} />
        </>
      ) : null}
      {d.viewerIsStaff ? (
        <details>
          <summary>Updates</summary>
          <UpdatesList actions={o.actions} now={d.now} />
          <p>
            <Link to={`/admin/active-transactions?order=${o.id}`}>Open the admin order card</Link>
          </p>
        </details>
      ) : null}
    </section>
  );
}

function ActionMessage({ a }: { a: DetailActionData }) {
  if (!a.ok) {
    return (
      <div className="alert alert-danger" role="alert" data-testid="action-error">
        {a.error}
      </div>
    );
  }
  if (!a.message || a.need) return null;
  return (
    <div className="alert alert-success" role="status" data-testid="action-message">
      {a.message}
    </div>
  );
}

/** Whose goods a swap line is, as the viewer reads it: "You give" / "You receive", or the side's store for staff. */
function swapSideLabel(o: OrderDetail, side: string): string {
  if (o.role) return side === o.role ? "You give" : "You receive";
  return side === "provider" ? o.providerLabel : o.receiverLabel;
}

/** The payout the viewer still waits for: a seller's goods once approved; a swap side's value difference once both paid. */
function payoutPendingText(o: OrderDetail): string | null {
  if (!o.role || !["approved", "shipping", "delivered", "complete"].includes(o.stage)) return null;
  if (o.ttype === "buy") return o.role === "provider" ? PAYOUT_PENDING_TEXT.sale : null;
  const theirs = o.swapAmounts?.[o.role === "provider" ? "receiver" : "provider"];
  return theirs && theirs.cashCents > 0 ? PAYOUT_PENDING_TEXT.swapDifference : null;
}

function Amounts({ o }: { o: OrderDetail }) {
  if (o.ttype === "swap") {
    return o.swapAmounts ? <SwapAmounts a={o.swapAmounts} role={o.role} labels={{ provider: o.providerLabel, receiver: o.receiverLabel }} /> : null;
  }
  if (o.role === "provider") {
    return (
      <dl className="facts" data-testid="order-amounts">
        <dt>Goods value (your payout)</dt>
        <dd data-testid="amount-goods">{formatCents(o.amounts.valueCents)}</dd>
      </dl>
    );
  }
  const a = o.amounts;
  return (
    <BuyerAmounts
      a={{ goodsCents: a.valueCents, feeCents: a.receiverFeeCents, shippingCents: a.receiverShippingCents, totalCents: a.receiverGrandTotalCents }}
      className="facts"
      testId="order-amounts"
    />
  );
}

function Panel({ d, a }: { d: LoaderData; a: DetailActionData | undefined }) {
  const o = d.order;
  if (!o.role) return <div className="order-panel muted">Staff view: read-only.</div>;
  if (o.ttype === "swap") {
    return (
      <SwapPanel
        order={o}
        view={d.swap?.view ?? null}
        choices={d.swap?.choices ?? []}
        error={a && !a.ok ? a.error : null}
        cardErrors={a && !a.ok ? a.fieldErrors : undefined}
        canRma={d.canRma}
        myRma={d.myRma}
        now={d.now}
      />
    );
  }
  switch (d.panel) {
    case "complete-checkout":
      return <CompleteCheckoutPanel o={o} a={a} />;
    case "provider-approve":
      return <ProviderApprovePanel o={o} a={a} />;
    case "shipment-pending":
      return <ShipmentPendingPanel o={o} a={a} />;
    default:
      return <SummaryPanel d={d} />;
  }
}

function Busy() {
  const n = useNavigation();
  return n.state === "submitting" ? <span className="muted" data-testid="spinner">Working…</span> : null;
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
  const reason = (fields as Record<string, { id: string; errors?: string[] } & Parameters<typeof getSelectProps>[0]>).reason;
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
      {reason.errors?.length ? (
        <p className="alert alert-danger" role="alert" data-testid={`${intent}-error`}>
          {reason.errors[0]}
        </p>
      ) : null}
    </Form>
  );
}

function WaitingFor({ who }: { who: string }) {
  return (
    <div className="order-panel" data-testid="panel-waiting">
      <p>Waiting for {who}.</p>
    </div>
  );
}

function CompleteCheckoutPanel({ o, a }: { o: OrderDetail; a: DetailActionData | undefined }) {
  if (o.role !== "receiver") return <WaitingFor who="the other retailer to complete checkout" />;
  const cardErrors = a && !a.ok && a.intent === "complete_checkout" ? a.fieldErrors : undefined;
  return (
    <div className="order-panel" data-testid="panel-complete-checkout">
      <h2>Complete checkout</h2>
      <p>
        Your card is pre-authorised for {formatCents(o.amounts.receiverGrandTotalCents)} (goods, 10% fee and shipping)
        {o.requestId ? " and charged now: the other retailer already approved this order for your request." : " and charged only when the seller approves."}
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

function AddCardForm({ a, title, carry }: { a: DetailActionData | undefined; title: string; carry?: Record<string, string> }) {
  const cardErrors = a && !a.ok && a.intent === "add_card" ? a.fieldErrors : undefined;
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

function ProviderApprovePanel({ o, a }: { o: OrderDetail; a: DetailActionData | undefined }) {
  const goods = o.lines.filter((l) => l.type === "goods");
  const initial = useMemo(() => {
    const m: Record<string, number> = {};
    for (const l of goods) for (const [s, n] of Object.entries(l.sizes)) m[`units.${l.contributionId}.${s}`] = n;
    return m;
  }, [goods]);
  const [units, setUnits] = useState<Record<string, number>>(initial);
  const modified = Object.entries(units).some(([k, v]) => initial[k] !== v);
  const confirmResend = a?.ok && a.need === "confirm_decline_others" ? a.resend : undefined;

  if (o.statename === "receiver_approve_modified_purchase") {
    if (o.role !== "receiver") return <WaitingFor who="the buyer to approve or decline your modified sale" />;
    return (
      <div className="order-panel" data-testid="panel-modified-purchase">
        <h2>Approve/Decline Modified Purchase</h2>
        <p>The other retailer changed the units of this order (see “Modified to” below). Approving charges your card for the modified order only.</p>
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

  if (o.statename === "payment" || (a?.ok && a.need === "payment_method")) {
    return (
      <div className="order-panel" data-testid="panel-payment">
        {confirmResend ? <ConfirmDeclineOthers resend={confirmResend} /> : null}
        <AddCardForm a={a} title="Add a card to approve this sale" carry={a?.ok && a.need === "payment_method" ? a.resend : undefined} />
        {/* Spec 001: the seller sees Decline as well as Approve Sale, also while a card is asked for. */}
        <ReasonSelect id="decline-sale" intent="decline" schema={DeclineSaleSchema} choices={SELLER_DECLINE_REASONS} label="Or decline:" button={TRANSACTION_LABELS.decline} />
      </div>
    );
  }

  const canModify = canProviderModifySale(o.statename, false);
  return (
    <div className="order-panel" data-testid="panel-provider-approve">
      {confirmResend ? <ConfirmDeclineOthers resend={confirmResend} /> : null}
      <h2>Approve this sale</h2>
      <p>You may lower the units you can ship (never more than requested). Approving charges the buyer and books the carrier pickup: the goods must be ready within two business days.</p>
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
                        onChange={(e) => setUnits((u) => ({ ...u, [key]: Math.max(0, Math.floor(Number(e.target.value) || 0)) }))}
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
      <ReasonSelect id="decline-sale" intent="decline" schema={DeclineSaleSchema} choices={SELLER_DECLINE_REASONS} label="Or decline:" button={TRANSACTION_LABELS.decline} />
    </div>
  );
}

function ShipmentPendingPanel({ o, a: _a }: { o: OrderDetail; a: DetailActionData | undefined }) {
  const ship = o.shipments[o.shipments.length - 1] ?? null;
  if (o.role !== "provider") {
    return (
      <div className="order-panel" data-testid="panel-shipment-pending">
        <h2>Pickup Scheduled</h2>
        <p>The seller is getting your goods ready for the carrier. You will see the tracking here once they are picked up.</p>
      </div>
    );
  }
  return (
    <div className="order-panel" data-testid="panel-shipment-pending">
      <h2>Ship this order</h2>
      <p>
        Have the goods ready for the carrier's pickup{ship?.pickupBy ? ` by ${formatDate(ship.pickupBy)}` : " within two business days"}. Put the packing slip in the box.
        Your payout is released when the carrier scans the goods.
      </p>
      {/* spec 001 §4: a sale's label can be printed while the pickup is scheduled. */}
      <ShippingPapers externalId={o.externalId} labelUrl={ship?.status === "pickup_scheduled" ? ship.labelUrl : null} />
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

function SummaryPanel({ d }: { d: LoaderData }) {
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
              condition <Stars n={d.otherRating.condition} />, packaging <Stars n={d.otherRating.packaging} />, timeliness <Stars n={d.otherRating.timeliness} />, overall{" "}
              <Stars n={d.otherRating.overall} />
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
