/**
 * The swap's action panel (docs/product/glossary.md, "Action panels": modify-approve-swap, the call-it-even last chance; payment; swap
 * shipment pending): what the side looking at it may do now. Until both have paid it shows the swap's
 * terms as the workflow recorded them (app/utils/swap.server.ts); the other side's move shows "awaiting
 * retailer's response". From then on each side sees its own parcel (packing slip, checklist, label unless cancelled, cancel while the pickup is
 * scheduled, the second pickup's warning) and the other side's parcel, then rates what it received and may
 * request an RMA within 48 hours of that delivery.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import type { SwapChoice } from "../../../db/queries/swap-orders";
import {
  NOT_YET_RATED,
  ORDER_UNAVAILABLE_MESSAGE,
  RATE_THIS_TRANSACTION,
  TRANSACTION_LABELS,
} from "../../../domain/messages";
import { formatCents } from "../../../domain/money";
import { CANCEL_SHIPMENT_REASONS, SWAP_DECLINE_REASONS } from "../../../domain/reasons";
import { BUY_STATES, SWAP_STATES, type Role } from "../../../domain/states";
import { swapCompletionText, swapPaymentDueText } from "../../../domain/swap-texts";
import type { SwapView } from "../../../workflows/swap/contract";
import { CardFields } from "../CardFields";
import { ErrorList, type ListOfErrors } from "../forms";
import { ShippingPapers } from "./OrderParts";
import { RmaOffer } from "../rma/RmaOffer";
import type { MyRma } from "~/utils/rma.server";
import { formatDate, shipmentStatusText, sizesText, useMarketplaceZone } from "./format";

interface Props {
  order: Pick<
    OrderDetail,
    | "id"
    | "externalId"
    | "role"
    | "statename"
    | "actionNeeded"
    | "displayStatus"
    | "shipments"
    | "ratings"
    | "swapWindows"
    | "lines"
  >;
  /** The side may open the RMA wizard (48 hours after the delivery of what it received, no RMA yet). */
  canRma?: boolean;
  /** The side's RMA of this swap, once it has one (a link instead of the button). */
  myRma?: MyRma | null;
  now?: number;
  view: SwapView | null;
  choices: SwapChoice[];
  /** On this side's move in the negotiation: each side's active swap listings of the brand (raise up to, or add from). */
  listings?: Record<Role, SwapChoice[]> | null;
  /** The last command's refusal, if it was one of this panel's. */
  error: string | null;
  /** The card fields' errors of a refused payment. */
  cardErrors?: Record<string, ListOfErrors>;
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
            const value = s.lines.reduce(
              (a, l) => a + l.unitPriceCents * Object.values(l.sizes).reduce((x, n) => x + n, 0),
              0,
            );
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
        Your payment on these terms:{" "}
        <strong data-testid="swap-my-due">{formatCents(view[role].dueCents)}</strong>
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
      <button
        type="submit"
        className="button button-outline"
        disabled={busy}
        data-testid="swap-decline"
      >
        {TRANSACTION_LABELS.decline}
      </button>
    </Form>
  );
}

export function SwapPanel({
  order,
  view,
  choices,
  listings = null,
  error,
  cardErrors,
  canRma = false,
  myRma = null,
  now = Date.now(),
}: Props) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const role = order.role;
  const waiting = swapCompletionText(order);
  const errorBox = error ? <ErrorList kind="form" errors={error} testId="swap-error" /> : null;
  const s = order.statename;
  const status = (
    <p className="swap-status" data-testid="swap-status">
      {waiting ?? (role && view ? swapPaymentDueText(s, view[role]) : null) ?? order.displayStatus}
    </p>
  );
  const choosing = role === "provider" && s === SWAP_STATES.PROVIDER_CHOOSE_ITEMS;
  if (role === "receiver" && s === BUY_STATES.COMPLETE_ORDER_CHECKOUT) {
    // The receiver's draft, not requested yet: nothing to negotiate until checkout pre-authorises its card.
    return (
      <div className="order-panel" data-testid="swap-panel">
        {status}
        <p data-testid="swap-draft">
          You have not requested this swap yet.{" "}
          <Link
            to={`/checkout/swap?order=${order.id}`}
            className="button"
            data-testid="swap-complete-checkout"
          >
            Complete checkout
          </Link>
        </p>
      </div>
    );
  }
  if (role && order.shipments.length > 0)
    return (
      <ShippingPanel
        order={order}
        role={role}
        busy={busy}
        errorBox={errorBox}
        canRma={canRma}
        myRma={myRma}
        now={now}
      />
    );
  if (!role || !view || (waiting && !choosing)) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {status}
        {view && role ? <Sides view={view} role={role} /> : null}
        {role && !view && !waiting ? (
          // The swap's terms come from its workflow: while no worker answers (a restart), say so rather than
          // show a panel without its forms.
          <p className="alert alert-warning" role="status" data-testid="swap-unavailable">
            {ORDER_UNAVAILABLE_MESSAGE}
          </p>
        ) : null}
      </div>
    );
  }

  if (choosing)
    return <ChooseForm choices={choices} busy={busy} status={status} errorBox={errorBox} />;

  if (s === SWAP_STATES.PROVIDER_APPROVE || s === SWAP_STATES.RECEIVER_APPROVE) {
    // The provider may choose again while the swap waits on its approval (its choice replaces the one before).
    const again =
      role === "provider" && s === SWAP_STATES.PROVIDER_APPROVE && choices.length > 0 ? (
        <section data-testid="swap-choose-again">
          <h3>Choose again from the other retailer's swap listings</h3>
          <ChooseItemsForm choices={choices} busy={busy} chosen={view.receiver.lines} />
        </section>
      ) : null;
    return (
      <ApproveForm
        view={view}
        role={role}
        busy={busy}
        errorBox={errorBox}
        styles={styleNames(order.lines)}
        listings={listings}
        extra={again}
      />
    );
  }
  return (
    <RestOfPanel
      order={order}
      view={view}
      role={role}
      busy={busy}
      errorBox={errorBox}
      cardErrors={cardErrors}
    />
  );
}

/** The provider's choice from the receiver's swap listings of the brand (units per size), or a decline. */
function ChooseForm({
  choices,
  busy,
  status,
  errorBox,
}: {
  choices: SwapChoice[];
  busy: boolean;
  status: React.ReactNode;
  errorBox: React.ReactNode;
}) {
  return (
    <div className="order-panel" data-testid="swap-panel">
      {status}
      {errorBox}
      <h3>Choose from the other retailer's swap listings</h3>
      {choices.length === 0 ? (
        <p data-testid="swap-no-choices">
          The other retailer has no swap listings of this brand with units left.
        </p>
      ) : null}
      <ChooseItemsForm choices={choices} busy={busy} chosen={[]} />
      <DeclineForm busy={busy} />
    </div>
  );
}

/** Units per size of each of the receiver's swap listings (prefilled with what is chosen now), "Choose Items". */
function ChooseItemsForm({
  choices,
  busy,
  chosen,
}: {
  choices: SwapChoice[];
  busy: boolean;
  chosen: SwapView["receiver"]["lines"];
}) {
  return (
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
                <input
                  type="number"
                  min={0}
                  max={n}
                  step={1}
                  name={`units.${c.listingId}.${size}`}
                  defaultValue={chosen.find((l) => l.listingId === c.listingId)?.sizes[size] ?? ""}
                  style={{ width: "5rem" }}
                />
              </label>
            ))}
        </fieldset>
      ))}
      <button
        type="submit"
        className="button"
        disabled={busy || choices.length === 0}
        data-testid="swap-choose"
      >
        Choose Items
      </button>
    </Form>
  );
}

/** Each style's name by its variation, from the order's lines (the swap's terms carry ids, sizes and prices only). */
function styleNames(lines: Props["order"]["lines"]): Map<number, string> {
  const names = new Map<number, string>();
  for (const l of lines)
    if (l.variationId !== null)
      names.set(
        l.variationId,
        `${l.productCode} ${l.displayName}${l.color ? ` (${l.color})` : ""}`,
      );
  return names;
}

/**
 * Both sides' lines with their quantities, then approve or decline. On its move a side may lower a quantity,
 * raise it up to the units its listing still has (any size of the listing), remove a line, or add units of a
 * listing not in the swap: its own (to give more) or the other side's (to ask for more); docs/product/orders.md
 * "Swap", ADR 0025. The form is not held back by the browser: a raise past the units listed is answered by the
 * server with its message.
 */
function ApproveForm({
  view,
  role,
  busy,
  errorBox,
  styles,
  listings,
  extra,
}: {
  view: SwapView;
  role: Role;
  busy: boolean;
  errorBox: React.ReactNode;
  styles: Map<number, string>;
  listings: Record<Role, SwapChoice[]> | null;
  extra?: React.ReactNode;
}) {
  const [edited, setEdited] = useState(false);
  const receiverHasValue = view.receiver.lines.length > 0;
  const differs = view.valuation.differenceCents > 0;
  const mineOrTheirs = (side: Role) => (side === role ? "mine" : "theirs");
  return (
    <div className="order-panel" data-testid="swap-panel">
      {errorBox}
      <Form
        method="post"
        className="form-stack"
        data-testid="swap-approve-form"
        noValidate
        // A changed quantity makes the answer a modification ("Submit Response"); calling it even does not.
        onChange={(e) => {
          if ((e.target as HTMLInputElement).name !== "call_it_even") setEdited(true);
        }}
      >
        {([role, other(role)] as const).map((side) => (
          <fieldset key={side} className="field" data-testid={`swap-lines-${mineOrTheirs(side)}`}>
            <legend>{side === role ? "You give" : "You receive"}</legend>
            {view[side].lines.map((l, i) => {
              const listed = listings?.[side].find((c) => c.listingId === l.listingId)?.sizes ?? {};
              const sizes = [
                ...new Set([
                  ...Object.keys(l.sizes),
                  ...Object.keys(listed).filter((k) => (listed[k] ?? 0) > 0),
                ]),
              ];
              return (
                <div key={i} className="form-row" data-testid="swap-line">
                  <span data-testid="swap-line-style">
                    {(l.variationId != null ? styles.get(l.variationId) : undefined) ?? "Style"}
                  </span>{" "}
                  {sizes.map((size) => (
                    <label key={size} style={{ marginRight: "1rem" }}>
                      {size}
                      {listings
                        ? ` (of ${Math.max(listed[size] ?? 0, l.sizes[size] ?? 0)} listed)`
                        : ""}{" "}
                      <input
                        type="number"
                        min={0}
                        step={1}
                        name={`lines.${side}.${i}.${size}`}
                        defaultValue={l.sizes[size] ?? 0}
                        style={{ width: "5rem" }}
                      />
                    </label>
                  ))}
                  <span>{formatCents(l.unitPriceCents)} a unit</span>{" "}
                  <button
                    type="submit"
                    name="intent"
                    value={`remove:${side}.${i}`}
                    className="button button-small button-outline"
                    disabled={busy}
                    data-testid="swap-remove-line"
                  >
                    Remove
                  </button>
                </div>
              );
            })}
          </fieldset>
        ))}
        {listings
          ? ([role, other(role)] as const).map((side) => (
              <AddLines
                key={side}
                side={side}
                mine={side === role}
                view={view}
                listings={listings[side]}
                testId={mineOrTheirs(side)}
              />
            ))
          : null}
        <p>
          Your payment on these terms:{" "}
          <strong data-testid="swap-my-due">{formatCents(view[role].dueCents)}</strong>
        </p>
        {differs ? (
          <div className="field field-checkbox">
            <label htmlFor="swap-call-it-even">
              <input id="swap-call-it-even" type="checkbox" name="call_it_even" /> Call it even:
              forgive the {formatCents(view.valuation.differenceCents)} difference
            </label>
          </div>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="approve"
          className="button"
          disabled={busy || !receiverHasValue}
          data-testid="swap-approve"
        >
          {view.isModified || edited
            ? TRANSACTION_LABELS.submitResponseSwap
            : TRANSACTION_LABELS.approveSwap}
        </button>
      </Form>
      {extra}
      <DeclineForm busy={busy} />
    </div>
  );
}

/** A side's active swap listings not in the swap, with units to add (add.<side>.<listingId>.<size>). */
function AddLines({
  side,
  mine,
  view,
  listings,
  testId,
}: {
  side: Role;
  mine: boolean;
  view: SwapView;
  listings: SwapChoice[];
  testId: string;
}) {
  const addable = listings.filter(
    (c) => !view[side].lines.some((l) => l.listingId === c.listingId),
  );
  if (addable.length === 0) return null;
  return (
    <fieldset className="field" data-testid={`swap-add-${testId}`}>
      <legend>
        {mine
          ? "Add from your swap listings (you give more)"
          : "Add from the other retailer's swap listings (you ask for more)"}
      </legend>
      {addable.map((c) => (
        <div key={c.listingId} className="form-row" data-testid="swap-add-listing">
          <span>
            {c.productCode} {c.displayName} ({c.color}), {formatCents(c.unitPriceCents)} a unit
          </span>{" "}
          {Object.entries(c.sizes)
            .filter(([, n]) => n > 0)
            .map(([size, n]) => (
              <label key={size} style={{ marginRight: "1rem" }}>
                {size} (of {n} listed){" "}
                <input
                  type="number"
                  min={0}
                  step={1}
                  name={`add.${side}.${c.listingId}.${size}`}
                  defaultValue=""
                  style={{ width: "5rem" }}
                />
              </label>
            ))}
        </div>
      ))}
    </fieldset>
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
  cardErrors?: Record<string, ListOfErrors>;
}) {
  const s = order.statename;
  if (
    s === SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY ||
    s === SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY
  ) {
    return (
      <div className="order-panel" data-testid="swap-panel">
        {errorBox}
        <p data-testid="swap-last-chance">
          The other retailer declined because of the {formatCents(view.valuation.differenceCents)}{" "}
          value difference. Call it even to go on without it, or accept the decline.
        </p>
        <div className="form-actions">
          <Form method="post">
            <input type="hidden" name="intent" value="call_it_even" />
            <button
              type="submit"
              className="button"
              disabled={busy}
              data-testid="swap-call-it-even-last"
            >
              {TRANSACTION_LABELS.callItEven}
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="accept_decline" />
            <button
              type="submit"
              className="button button-outline"
              disabled={busy}
              data-testid="swap-accept-decline"
            >
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
          Both of you approved. Your payment:{" "}
          <strong data-testid="swap-pay-amount">{formatCents(view[role].dueCents)}</strong>
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

const SHIP_STATES: readonly string[] = [SWAP_STATES.SHIP_SWAP, SWAP_STATES.SHIP_SWAP_TRY2];

/**
 * Swap shipment pending and after: this side's parcel (what it sends) with its papers and the cancel
 * button while the pickup is scheduled, the other side's parcel, then the rating and the RMA button for what
 * this side received.
 */
function ShippingPanel({
  order,
  role,
  busy,
  errorBox,
  canRma,
  myRma,
  now,
}: {
  order: Props["order"];
  role: Role;
  busy: boolean;
  errorBox: React.ReactNode;
  canRma: boolean;
  myRma: MyRma | null;
  now: number;
}) {
  const tz = useMarketplaceZone();
  const mine = order.shipments.filter((x) => x.senderSide === role).at(-1) ?? null;
  const theirs = order.shipments.filter((x) => x.senderSide !== role).at(-1) ?? null;
  const shipping = SHIP_STATES.includes(order.statename);
  const waitingForPickup = mine?.status === "pickup_scheduled";
  const myRating = order.ratings.find((r) => r.role === role) ?? null;
  const theirRating = order.ratings.find((r) => r.role !== role) ?? null;
  const ratingBy = order.swapWindows?.ratingBy ?? null;
  const canRate =
    theirs?.status === "delivered" && !myRating && ratingBy !== null && now < Date.parse(ratingBy);
  return (
    <div className="order-panel" data-testid="swap-panel">
      {errorBox}
      <h3>{order.displayStatus}</h3>
      <section data-testid="swap-my-parcel">
        <h4>Your parcel (what you send)</h4>
        {mine ? (
          <>
            <ParcelStatus parcel={mine} testId="swap-my-parcel-status" />
            {waitingForPickup && shipping ? (
              <p>
                Have the goods ready for the carrier's pickup
                {mine.pickupBy ? ` by ${formatDate(mine.pickupBy, tz)}` : ""} and put the packing
                slip in the box. A side that does not ship pays the cost of the goods swapped if not
                shipped.
              </p>
            ) : null}
            {waitingForPickup && order.statename === SWAP_STATES.SHIP_SWAP_TRY2 ? (
              <p className="alert alert-warning" role="status" data-testid="swap-try2">
                The carrier could not pick up your parcel. A second pickup is booked
                {mine.pickupBy ? ` for ${formatDate(mine.pickupBy, tz)}` : ""}: if the parcel is not
                picked up by then, your card on file is charged the cost of the goods swapped and
                that amount is paid to the other retailer.
              </p>
            ) : null}
            {/* A swap's label can be printed unless its parcel is cancelled. */}
            <ShippingPapers
              externalId={order.externalId}
              labelUrl={mine.status !== "cancelled" ? mine.labelUrl : null}
            />
            {waitingForPickup && shipping ? <CancelShipmentForm busy={busy} /> : null}
          </>
        ) : (
          <p className="muted">No pickup is booked for your parcel.</p>
        )}
      </section>
      <section data-testid="swap-their-parcel">
        <h4>Their parcel (what you receive)</h4>
        {theirs ? (
          <ParcelStatus parcel={theirs} testId="swap-their-parcel-status" />
        ) : (
          <p className="muted">No pickup is booked for the other retailer's parcel.</p>
        )}
      </section>
      <div className="form-row">
        {canRate ? (
          <Link to={`/rate/${order.id}?rate=1`} className="button" data-testid="rate-link">
            {RATE_THIS_TRANSACTION}
          </Link>
        ) : null}
        <RmaOffer orderId={order.id} canRma={canRma} myRma={myRma} />
      </div>
      {myRating ? (
        <p data-testid="my-rating">Your rating of what you received: {myRating.overall} of 5.</p>
      ) : null}
      {theirs?.status === "delivered" || mine?.status === "delivered" ? (
        <p data-testid="their-rating">
          The other retailer's rating of your goods:{" "}
          {theirRating ? `${theirRating.overall} of 5` : NOT_YET_RATED}
          {theirRating?.comments ? <q>{theirRating.comments}</q> : null}
        </p>
      ) : null}
    </div>
  );
}

function ParcelStatus({
  parcel,
  testId,
}: {
  parcel: OrderDetail["shipments"][number];
  testId: string;
}) {
  return (
    <p>
      <span data-testid={testId}>{shipmentStatusText(parcel.status)}</span>
      {parcel.trackingNumber ? ` · tracking ${parcel.trackingNumber}` : ""}
    </p>
  );
}

function CancelShipmentForm({ busy }: { busy: boolean }) {
  return (
    <Form method="post" className="form-row" data-testid="form-cancel_shipment">
      <input type="hidden" name="intent" value="cancel_shipment" />
      <div className="field">
        <label htmlFor="swap-cancel-reason">
          Cancel this shipment (you pay the cost of the goods swapped if not shipped):
        </label>
        <select
          id="swap-cancel-reason"
          name="reason"
          defaultValue=""
          data-testid="cancel_shipment-reason"
        >
          <option value="">Choose a reason</option>
          {CANCEL_SHIPMENT_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="button button-outline"
        disabled={busy}
        data-testid="cancel_shipment-submit"
      >
        Cancel shipment
      </button>
    </Form>
  );
}
