/**
 * How an order reads on its pages (docs/product/screens.md): its type label, who gave each decline or cancel
 * reason and how the viewer reads it, a swap's units, amounts and windows, and the swap ledger staff see.
 * Pure: the db/queries/order-views modules read the rows, these rules shape them.
 */
import { ACTION } from "./action-codes";
import { reasonWithPrefix } from "./messages";
import { reasonLabel } from "./reasons";
import {
  TRANSACTION_TYPE,
  TRANSACTION_TYPE_LABELS,
  transactionTypeLabel,
  type Role,
  type TransactionKind,
  type TransactionType,
} from "./states";
import { swapLedger, swapOutcomeOf, swapSettlement } from "./swap-money";

/** The detail route's ttype of an order (/transaction/:ttype/:id): a swap's, else a purchase's (RMAs too). */
export function ttypeOf(transactionType: number): TransactionKind {
  return transactionType === TRANSACTION_TYPE.SWAP ? "swap" : "buy";
}

/**
 * An order's type as a viewer reads it: a party reads its side of a sale (Sale / Purchase); staff, who are
 * not a party (role null), read the type's own label (Sale / Swap / RMA).
 */
export function orderTypeLabel(transactionType: number, role: Role | null): string {
  const type = transactionType as TransactionType;
  return role ? transactionTypeLabel(type, role) : TRANSACTION_TYPE_LABELS[type];
}

/** The type printed on a packing slip: an RMA's parcel is a return. */
export function packingSlipTypeLabel(transactionType: number): string {
  return transactionType === TRANSACTION_TYPE.RMA
    ? "Return (RMA)"
    : orderTypeLabel(transactionType, null);
}

/** A swap: the units this side sends and the units it receives, from the order's goods and the provider's share. */
export function swapUnitsOf(
  role: Role,
  units: number,
  providerUnits: number,
): { sent: number; received: number } {
  const receiverUnits = units - providerUnits;
  return role === "provider"
    ? { sent: providerUnits, received: receiverUnits }
    : { sent: receiverUnits, received: providerUnits };
}

// ---------------------------------------------------------------------------------------------------------
// Reasons (docs/product/glossary.md, "Reasons").

export interface ReasonView {
  key: string;
  code: number;
  label: string;
  /** "You:" or "Other Retailer:" for a party; the text with its prefix. */
  text: string;
  by: Role | "system";
}

/** The timer steps that end an order for want of a side's move, by whose move it was. */
const TIMER_ENDS: Readonly<Record<Role, readonly number[]>> = Object.freeze({
  provider: [
    ACTION.SELLER_RESPONSE_EXPIRED,
    ACTION.PROVIDER_ORDER_NON_SHIPMENT,
    ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER,
  ],
  receiver: [
    ACTION.CHECKOUT_EXPIRED,
    ACTION.MODIFIED_PURCHASE_EXPIRED,
    ACTION.REQUEST_CHECKOUT_EXPIRED,
  ],
});

/** Which party gave a reason: by the key's prefix, or for a system reason by the timer step that ended the order. */
export function reasonOwner(key: string, actionCodes: readonly number[]): Role | "system" {
  if (key.startsWith("provider")) return "provider";
  if (key.startsWith("receiver")) return "receiver";
  const last = [...actionCodes]
    .reverse()
    .find((c) => TIMER_ENDS.provider.includes(c) || TIMER_ENDS.receiver.includes(c));
  if (last === undefined) return "system";
  return TIMER_ENDS.provider.includes(last) ? "provider" : "receiver";
}

/** A reason's text: the system's bare; staff (no role) read Seller: / Buyer:, a party You: / Other Retailer:. */
function reasonText(label: string, by: Role | "system", viewerRole: Role | null): string {
  if (by === "system") return label;
  if (viewerRole === null) return `${by === "provider" ? "Seller:" : "Buyer:"} ${label}`;
  return reasonWithPrefix(label, by === viewerRole);
}

/** Decline/cancel reasons with "You:" / "Other Retailer:" as the viewer should read them. */
export function reasonViews(
  reasons: Record<string, string | number>,
  viewerRole: Role | null,
  actionCodes: readonly number[] = [],
): ReasonView[] {
  const out: ReasonView[] = [];
  for (const [key, raw] of Object.entries(reasons ?? {})) {
    if (key.endsWith("_display")) continue;
    const code = typeof raw === "number" ? raw : Number(raw);
    if (!Number.isInteger(code)) continue;
    const by = reasonOwner(key, actionCodes);
    const label = reasonLabel(code);
    out.push({ key, code, label, by, text: reasonText(label, by, viewerRole) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// A swap's money and windows (docs/product/money.md, "Swap settlement").

/** One side of a swap's money: the goods it gives, the cash it adds, its fee, its shipping and its payment. */
export interface SwapSideAmounts {
  goodsCents: number;
  cashCents: number;
  feeCents: number;
  shippingCents: number;
  dueCents: number;
}

export interface SwapAmountsView {
  provider: SwapSideAmounts;
  receiver: SwapSideAmounts;
  /** The value difference nobody pays because a side called it even. */
  forgivenCents: number;
}

/** What swapAmountsOf reads of the order row: the valuation (ledger) and the fee and shipping columns. */
export interface SwapAmountsRow {
  transactionType: number;
  ledger: Record<string, number | boolean> | null;
  providerFeeCents: number;
  providerShippingCents: number;
  receiverFeeCents: number;
  receiverShippingCents: number;
}

/** A swap's amounts from the valuation (ledger) and the fee and shipping columns its workflow wrote together. */
export function swapAmountsOf(order: SwapAmountsRow): SwapAmountsView | null {
  const l = order.ledger;
  if (order.transactionType !== TRANSACTION_TYPE.SWAP || !l) return null;
  const cents = (k: string) => (typeof l[k] === "number" ? l[k] : 0);
  const side = (s: Role, feeCents: number, shippingCents: number): SwapSideAmounts => ({
    goodsCents: cents(`${s}GoodsCents`),
    cashCents: cents(`${s}CashCents`),
    feeCents,
    shippingCents,
    dueCents: cents(`${s}DueCents`),
  });
  return {
    provider: side("provider", order.providerFeeCents, order.providerShippingCents),
    receiver: side("receiver", order.receiverFeeCents, order.receiverShippingCents),
    forgivenCents: cents("forgivenCents"),
  };
}

/** A swap party's windows for what it receives (rating until, RMA request until), from the order's deadlines. */
export function swapWindowsOf(
  deadlines: unknown,
  role: Role,
): { ratingBy: string | null; rmaBy: string | null } {
  const d = (deadlines ?? {}) as Record<string, unknown>;
  const at = (k: string) => (typeof d[k] === "string" ? (d[k] as string) : null);
  return { ratingBy: at(`${role}RatingBy`), rmaBy: at(`${role}RmaBy`) };
}

/**
 * A swap's ledger for staff: the valuation the workflow recorded, and the money both sides' payments rows
 * moved, checked against swapSettlement (domain/swap-money) once both parcels have settled.
 */
export function swapLedgerOf(
  order: { providerId: number; ledger: Record<string, number | boolean> | null },
  lines: readonly { side: string; type: string; quantity: number; valueCents: number }[],
  ships: readonly { senderId: number; status: string }[],
  pays: readonly { retailerId: number; txtype: string; status: string; amountCents: number }[],
): Record<string, number | boolean> {
  const side = (s: Role) => {
    const goods = lines.filter((l) => l.type === "goods" && l.side === s);
    return {
      goodsCents: goods.reduce((a, l) => a + l.valueCents, 0),
      units: goods.reduce((a, l) => a + l.quantity, 0),
    };
  };
  const parcel = (s: Role) => {
    const p = ships.filter((x) => (x.senderId === order.providerId) === (s === "provider")).at(-1);
    return p ? (p.status === "delivered" || p.status === "cancelled" ? p.status : "other") : null;
  };
  const outcome = swapOutcomeOf({ provider: parcel("provider"), receiver: parcel("receiver") });
  const expected = outcome
    ? swapSettlement(
        {
          provider: side("provider"),
          receiver: side("receiver"),
          callItEven: order.ledger?.callItEven === true,
        },
        outcome,
      )
    : null;
  const rows = pays.map((p) => ({
    side: (p.retailerId === order.providerId ? "provider" : "receiver") as Role,
    txtype: p.txtype,
    status: p.status,
    amountCents: p.amountCents,
  }));
  const money = swapLedger(rows, expected);
  const out: Record<string, number | boolean> = { ...(order.ledger ?? {}) };
  for (const [k, v] of Object.entries(money)) if (v !== null) out[k] = v;
  return out;
}
