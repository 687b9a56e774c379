import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { FEE_PERCENT, purchaseFeeCents, sellerPenaltyCents, swapFeeCents } from "../../domain/fees";
import { formatCents } from "../../domain/money";
import { MAX_UNITS_PER_PARCEL, SHIPPING_BANDS, shippingCentsForUnits } from "../../domain/shipping";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("Pricing") }];

function bandLabel(min: number, max: number): string {
  if (min === max) return `${min} ${min === 1 ? "unit" : "units"}`;
  return `${min}–${max} units`;
}

// A worked example, computed by the same rules the checkout uses (domain/).
const EXAMPLE = (() => {
  const units = 6;
  const unitPriceCents = 2500;
  const goods = units * unitPriceCents;
  const fee = purchaseFeeCents(goods);
  const shipping = shippingCentsForUnits(units);
  return { units, unitPriceCents, goods, fee, shipping, total: goods + fee + shipping };
})();

const SWAP_EXAMPLE = (() => {
  const mine = 30000;
  const theirs = 24000;
  const larger = Math.max(mine, theirs);
  return { mine, theirs, difference: mine - theirs, fee: swapFeeCents(larger) };
})();

export default function Pricing() {
  return (
    <article className="page prose">
      <h1>Pricing</h1>
      <p className="lead">
        Joining is free. Listing, requesting and browsing are free. You pay only when goods change
        hands, and shipping only on the goods you receive.
      </p>

      <h2>Fees</h2>
      <table className="table" data-testid="fees-table">
        <thead>
          <tr>
            <th>What you do</th>
            <th>What it costs</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Join, list what didn't sell, request what you need, browse</td>
            <td>Free</td>
          </tr>
          <tr>
            <td>Sell (at wholesale cost)</td>
            <td>No fee: you are paid the full wholesale amount</td>
          </tr>
          <tr>
            <td>Buy</td>
            <td>{FEE_PERCENT.purchase}% of the approved goods value, plus shipping</td>
          </tr>
          <tr>
            <td>Swap</td>
            <td>
              {FEE_PERCENT.swap}% of the larger goods value of the swap, paid by each side, plus
              shipping on what you receive
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        Prices are the brand's wholesale cost. Percentages are rounded to the nearest cent (half a
        cent rounds up), once per party and per order.
      </p>

      <h2>Shipping</h2>
      <p>
        Shipping is paid only by the side that receives goods, by the number of units it receives in
        the order. The seller ships with a prepaid label and a carrier pickup we book for them.
      </p>
      <table className="table" data-testid="shipping-table">
        <thead>
          <tr>
            <th>Units received</th>
            <th className="num">Shipping</th>
          </tr>
        </thead>
        <tbody>
          {SHIPPING_BANDS.map((b) => (
            <tr key={b.minUnits}>
              <td>{bandLabel(b.minUnits, b.maxUnits)}</td>
              <td className="num">{formatCents(b.cents)}</td>
            </tr>
          ))}
          <tr>
            <td>More than {MAX_UNITS_PER_PARCEL} units</td>
            <td className="num">
              each parcel of up to {MAX_UNITS_PER_PARCEL} units priced as above, summed
            </td>
          </tr>
        </tbody>
      </table>
      <p className="muted">
        For example, 150 units travel as parcels of 100 and 50 units:{" "}
        {formatCents(shippingCentsForUnits(150))}.
      </p>

      <h2>Examples</h2>
      <h3>Buying</h3>
      <p>
        You buy {EXAMPLE.units} units at {formatCents(EXAMPLE.unitPriceCents)} wholesale:
      </p>
      <table className="table" data-testid="example-table">
        <tbody>
          <tr>
            <td>Goods</td>
            <td className="num">{formatCents(EXAMPLE.goods)}</td>
          </tr>
          <tr>
            <td>Fee ({FEE_PERCENT.purchase}%)</td>
            <td className="num">{formatCents(EXAMPLE.fee)}</td>
          </tr>
          <tr>
            <td>Shipping ({EXAMPLE.units} units)</td>
            <td className="num">{formatCents(EXAMPLE.shipping)}</td>
          </tr>
          <tr className="total">
            <td>Total</td>
            <td className="num">{formatCents(EXAMPLE.total)}</td>
          </tr>
        </tbody>
      </table>
      <p>
        Your card is pre-authorised for this total at checkout and charged only for the units the
        seller approves; the seller is paid {formatCents(EXAMPLE.goods)} in full once the carrier
        scans the package.
      </p>
      <h3>Swapping</h3>
      <p>
        You swap goods worth {formatCents(SWAP_EXAMPLE.mine)} for goods worth{" "}
        {formatCents(SWAP_EXAMPLE.theirs)}. The other retailer adds the{" "}
        {formatCents(SWAP_EXAMPLE.difference)} difference in cash, unless either of you calls it
        even: one side's choice is enough to forgive the difference. Either way each of you pays the
        same fee of {formatCents(SWAP_EXAMPLE.fee)} ({FEE_PERCENT.swap}% of{" "}
        {formatCents(Math.max(SWAP_EXAMPLE.mine, SWAP_EXAMPLE.theirs))}, the larger goods value),
        plus shipping on the units you receive.
      </p>

      <h2>Penalties</h2>
      <p className="callout">
        A seller whose goods are never picked up (or who cancels an approved shipment) pays a
        penalty of {FEE_PERCENT.sellerPenalty}% of the approved goods value, charged to the card on
        file (for example {formatCents(sellerPenaltyCents(EXAMPLE.goods))} on a{" "}
        {formatCents(EXAMPLE.goods)} order). The buyer is refunded in full.
      </p>

      <p>
        See <Link to="/how-selling-works">How selling works</Link> for the steps and time limits, or{" "}
        <Link to="/contact">contact us</Link> with any question.
      </p>
    </article>
  );
}
