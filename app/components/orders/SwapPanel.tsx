/**
 * The swap's action panel (spec 001 §4: modify-approve-swap, the call-it-even last chance; payment): what
 * the side looking at it may do now, from the workflow's view (app/utils/swap.server.ts). The other side's
 * move shows "awaiting retailer's response".
 */
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { OrderDetail } from "../../../db/queries/order-views";
import type { SwapChoice } from "../../../db/queries/swap-orders";
import { TRANSACTION_LABELS } from "../../../domain/messages";
import { formatCents } from "../../../domain/money";
import { SWAP_DECLINE_REASONS } from "../../../domain/reasons";
import { SWAP_STATES, type Role } from "../../../domain/states";
import { swapCompletionText } from "../../../domain/swap-texts";
import type { SwapView } from "../../../workflows/swap/contract";
import { CardFields } from "./CardFields";
import { sizesText } from "./format";

interface Props {
  order: Pick<OrderDetail, "role" | "statename" | "actionNeeded" | "displayStatus">;
  view: SwapView | null;
  choices: SwapChoice[];
  /** The last command's refusal, if it was one of this panel's. */
  error: string | null;
  /** The card fields' errors of a refused payment. */
  cardErrors?: Record<string, string>;
}

const other = (r: Role): Role => (r === "provider" ? "receiver" : "provider");

/** Both sides' goods as they stand, and what this side will pay (fee, shipping, any cash difference). */
function Sides({ view, role }: { view: SwapView; role: Role }) {
  return (
    <>
      <table className="table" data-testid="swap-sides">
        <thead>
          <tr>
            <th>Side</th>
            <th>Goods</th>
            <th>Value</th>
          </tr>
        </thead>
        <tbody>
          {([role, other(role)] as const).map((r) => {
            const s = view[r];
            const value = s.lines.reduce((a, l) => a + l.unitPriceCents * Object.values(l.sizes).reduce((x, n) => x + n, 0), 0);
            return (
              <tr key={r} data-testid={`swap-side-${r === role ? "mine" : "theirs"}`}>
                <td>{r === role ? "You give" : "You receive"}</td>
                <td>{s.lines.map((l) => sizesText(l.sizes)).join("; ") || "nothing yet"}</td>
                <td>{formatCents(value)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        Your payment on these terms: <strong data-testid="swap-my-due">{formatCents(view[role].dueCents)}</strong>
      </p>
    </>
  );
}

function DeclineForm({ busy }: { busy: boolean }) {
  return (
    <Form method="post" className="form-row" data-testid="swap-decline-form">
      <input type="hidden" name="intent" value="decline" />
      <div className="field">
        <label htmlFor="swap-decline-reason">Reason</label>
        <select id="swap-decline-reason" name="reason" defaultValue="">
          <option value="">Choose…</option>
          {SWAP_DECLINE_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button-outline" disabled={busy} data-testid="swap-decline">
        {TRANSACTION_LABELS.decline}
      </button>
    </Form>
  );
}

export function SwapPanel({ order, view, choices, error, cardErrors }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const role = order.role;
  const waiting = swapCompletionText(order);
  const errorBox = error ? (
    <div className="alert alert-danger" role="alert" data-testid="swap-error">
      {error}
    </div>
  ) : null;
  const s = order.statename;
  const status = (
    <p className="swap-status" data-testid="swap-status">
      {waiting ?? order.displayStatus}
    </p>
  );
  const choosing = role === "provider" && s === SWAP_STATES.PROVIDER_CHOOSE_ITEMS;
  if (!role || !view || (waiting && !choosing)) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {status}
        {view && role ? <Sides view={view} role={role} /> : null}
      </div>
    );
  }

  if (choosing) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {status}
        {errorBox}
        <h3>Choose from the other retailer's swap listings</h3>
        {choices.length === 0 ? <p data-testid="swap-no-choices">The other retailer has no swap listings of this brand with units left.</p> : null}
        <Form method="post" className="form-stack" data-testid="swap-choose-form">
          <input type="hidden" name="intent" value="choose" />
          {choices.map((c) => (
            <fieldset key={c.listingId} className="field" data-testid="swap-choice">
              <legend>
                {c.productCode} {c.displayName} ({c.color}), {formatCents(c.unitPriceCents)} a unit
              </legend>
              {Object.entries(c.sizes)
                .filter(([, n]) => n > 0)
                .map(([size, n]) => (
                  <label key={size} style={{ marginRight: "1rem" }}>
                    {size} (of {n}){" "}
                    <input type="number" min={0} max={n} step={1} name={`units.${c.listingId}.${size}`} defaultValue="" style={{ width: "5rem" }} />
                  </label>
                ))}
            </fieldset>
          ))}
          <button type="submit" className="button" disabled={busy || choices.length === 0} data-testid="swap-choose">
            Choose Items
          </button>
        </Form>
        <DeclineForm busy={busy} />
      </div>
    );
  }

  if (s === SWAP_STATES.PROVIDER_APPROVE || s === SWAP_STATES.RECEIVER_APPROVE) {
    return <ApproveForm view={view} role={role} busy={busy} errorBox={errorBox} />;
  }
  return <RestOfPanel order={order} view={view} role={role} busy={busy} errorBox={errorBox} cardErrors={cardErrors} />;
}

/** Both sides' lines with their quantities (each side in turn may lower them or remove a line), approve, decline. */
function ApproveForm({ view, role, busy, errorBox }: { view: SwapView; role: Role; busy: boolean; errorBox: React.ReactNode }) {
  const [edited, setEdited] = useState(false);
  const receiverHasValue = view.receiver.lines.length > 0;
  const differs = view.valuation.differenceCents > 0;
  return (
    <div className="order-panel" data-testid="swap-panel">
      {errorBox}
      <Form method="post" className="form-stack" data-testid="swap-approve-form" onChange={() => setEdited(true)}>
        {([role, other(role)] as const).map((side) => (
          <fieldset key={side} className="field" data-testid={`swap-lines-${side === role ? "mine" : "theirs"}`}>
            <legend>{side === role ? "You give" : "You receive"}</legend>
            {view[side].lines.map((l, i) => (
              <div key={i} className="form-row" data-testid="swap-line">
                {Object.entries(l.sizes).map(([size, n]) => (
                  <label key={size} style={{ marginRight: "1rem" }}>
                    {size}{" "}
                    <input type="number" min={0} max={n} step={1} name={`lines.${side}.${i}.${size}`} defaultValue={n} style={{ width: "5rem" }} />
                  </label>
                ))}
                <span>{formatCents(l.unitPriceCents)} a unit</span>{" "}
                <button type="submit" name="intent" value={`remove:${side}.${i}`} className="button button-small button-outline" disabled={busy} data-testid="swap-remove-line">
                  Remove
                </button>
              </div>
            ))}
          </fieldset>
        ))}
        <p>
          Your payment on these terms: <strong data-testid="swap-my-due">{formatCents(view[role].dueCents)}</strong>
        </p>
        {differs ? (
          <div className="field field-checkbox">
            <label htmlFor="swap-call-it-even">
              <input id="swap-call-it-even" type="checkbox" name="call_it_even" /> Call it even: forgive the {formatCents(view.valuation.differenceCents)} difference
            </label>
          </div>
        ) : null}
        <button type="submit" name="intent" value="approve" className="button" disabled={busy || !receiverHasValue} data-testid="swap-approve">
          {view.isModified || edited ? TRANSACTION_LABELS.submitResponseSwap : TRANSACTION_LABELS.approveSwap}
        </button>
      </Form>
      <DeclineForm busy={busy} />
    </div>
  );
}

function RestOfPanel({
  order,
  view,
  role,
  busy,
  errorBox,
  cardErrors,
}: {
  order: Props["order"];
  view: SwapView;
  role: Role;
  busy: boolean;
  errorBox: React.ReactNode;
  cardErrors?: Record<string, string>;
}) {
  const s = order.statename;
  if (s === SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY || s === SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {errorBox}
        <p data-testid="swap-last-chance">
          The other retailer declined because of the {formatCents(view.valuation.differenceCents)} value difference. Call it even to go on
          without it, or accept the decline.
        </p>
        <div className="form-actions">
          <Form method="post">
            <input type="hidden" name="intent" value="call_it_even" />
            <button type="submit" className="button" disabled={busy} data-testid="swap-call-it-even-last">
              {TRANSACTION_LABELS.callItEven}
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="accept_decline" />
            <button type="submit" className="button button-outline" disabled={busy} data-testid="swap-accept-decline">
              Accept Decline
            </button>
          </Form>
        </div>
      </div>
    );
  }

  if (s === SWAP_STATES.PAYMENT && !view[role].paid) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {errorBox}
        <Sides view={view} role={role} />
        <p>
          Both of you approved. Your payment: <strong data-testid="swap-pay-amount">{formatCents(view[role].dueCents)}</strong>
          {view[other(role)].paid ? " (the other retailer has paid)." : "."}
        </p>
        <Form method="post" className="form-stack" data-testid="swap-pay-form" autoComplete="off">
          <input type="hidden" name="intent" value="pay" />
          <CardFields errors={cardErrors} />
          <button type="submit" className="button" disabled={busy} data-testid="swap-pay">
            {TRANSACTION_LABELS.makePayment}
          </button>
        </Form>
      </div>
    );
  }
  return (
    <div className="order-panel" data-testid="swap-panel">
      {order.displayStatus}
    </div>
  );
}
