/**
 * Parts of the order detail page (/transaction/:ttype/:id, docs/product/screens.md "Order detail"): the message
 * above the panel, the amounts as the viewer pays or is paid them, whose goods a swap line is, and the payout
 * the viewer still waits for.
 */
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import { formatCents } from "../../../domain/money";
import { ErrorList } from "~/components/forms";
import type { DetailActionData, DetailErrors } from "~/components/orders/BuyPanels";
import { BuyerAmounts, PAYOUT_PENDING_TEXT, SwapAmounts } from "~/components/orders/OrderParts";

/** Above the panel: a refusal's first error, or what a command did (unless it asks a question). */
export function ActionMessage({ a, errors }: { a: DetailActionData; errors: DetailErrors }) {
  if (errors) return <ErrorList kind="form" errors={firstError(errors)} testId="action-error" />;
  if (!a.message || a.need) return null;
  return (
    <div className="alert alert-success" role="status" data-testid="action-message">
      {a.message}
    </div>
  );
}

/** Whose goods a swap line is, as the viewer reads it: "You give" / "You receive", or the side's store for staff. */
export function swapSideLabel(o: OrderDetail, side: string): string {
  if (o.role) return side === o.role ? "You give" : "You receive";
  return side === "provider" ? o.providerLabel : o.receiverLabel;
}

/** The payout the viewer still waits for: a seller's goods once approved; a swap side's value difference once both paid. */
export function payoutPendingText(o: OrderDetail): string | null {
  if (!o.role || !["approved", "shipping", "delivered", "complete"].includes(o.stage)) return null;
  if (o.ttype === "buy") return o.role === "provider" ? PAYOUT_PENDING_TEXT.sale : null;
  const theirs = o.swapAmounts?.[o.role === "provider" ? "receiver" : "provider"];
  return theirs && theirs.cashCents > 0 ? PAYOUT_PENDING_TEXT.swapDifference : null;
}

export function Amounts({ o }: { o: OrderDetail }) {
  if (o.ttype === "swap") {
    return o.swapAmounts ? (
      <SwapAmounts
        a={o.swapAmounts}
        role={o.role}
        labels={{ provider: o.providerLabel, receiver: o.receiverLabel }}
      />
    ) : null;
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
      a={{
        goodsCents: a.valueCents,
        feeCents: a.receiverFeeCents,
        shippingCents: a.receiverShippingCents,
        totalCents: a.receiverGrandTotalCents,
      }}
      className="facts"
      testId="order-amounts"
    />
  );
}

export const firstError = (errors: DetailErrors) => Object.values(errors ?? {}).flat()[0];
