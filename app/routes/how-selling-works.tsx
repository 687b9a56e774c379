import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { FEE_PERCENT } from "../../domain/fees";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("How Selling Works") }];

export default function HowSellingWorks() {
  return (
    <article className="page prose">
      <h1>How selling works</h1>
      <p className="lead">
        From a listing to your payout, step by step. Business days are Monday to Friday (Eastern
        time), holidays excluded.
      </p>

      <h2>Selling from your listings</h2>
      <ol className="steps">
        <li>
          <strong>List it.</strong> Your listing is visible to retailers authorized for the brand
          once your payout details are set up. Selling at wholesale cost is free: you are paid the
          full amount.
        </li>
        <li>
          <strong>A retailer checks out.</strong> Their card is pre-authorised for the goods, the{" "}
          {FEE_PERCENT.purchase}% fee and the shipping. Nothing is charged yet.
        </li>
        <li>
          <strong>You approve, modify or decline.</strong> You have 5 days to answer; after that the
          request is declined and the buyer's card is released. If you can fill only part of the
          order, modify it: the buyer then has 1 day to accept. You need a card on file to approve.
          On approval the buyer's card is charged for the approved units and your stock goes down.
        </li>
        <li>
          <strong>Have the goods ready for pickup within 2 business days.</strong> We book a carrier
          pickup (a call tag) and give you a prepaid label and an anonymous packing slip. If the
          carrier has not scanned the package after 2 business days, the pickup is rescheduled once,
          for 2 more business days.
        </li>
        <li>
          <strong>Get paid at the carrier scan.</strong> Your payout is released as soon as the
          carrier picks up and scans the package, not at delivery.
        </li>
        <li>
          <strong>The buyer rates the order</strong> within 3 business days of delivery; after that
          the order completes without a rating.
        </li>
      </ol>

      <div className="callout">
        <strong>Goods never picked up?</strong> If the package is still not scanned after the
        rescheduled pickup, or if you cancel an approved shipment, the order is cancelled, the buyer
        is refunded in full, and you pay a penalty of {FEE_PERCENT.sellerPenalty}% of the approved
        goods value, charged to your card on file.
      </div>

      <h2>Selling to a request</h2>
      <p>
        On the Sell page you see what other retailers have requested. Offer your units, say why they
        are available and how long they have been on your sales floor. Your offer counts as your
        approval: the requesting retailer then has 3 days to complete checkout, which charges their
        card and books the pickup. The same pickup, payout and rating steps follow.
      </p>

      <h2>Swapping</h2>
      <p>
        Swap your listed goods for another retailer's listed goods of the same brand. The side whose
        goods are worth less adds the difference in cash, unless either side calls it even: one
        side's choice is enough to forgive the difference. Either way both sides pay the same{" "}
        {FEE_PERCENT.swap}% fee on the larger goods value, and each pays shipping on the units it
        receives. Both sides approve, ship and rate, just like a sale.
      </p>

      <h2>Returns (RMA)</h2>
      <ul>
        <li>
          The buyer may request a return within 48 hours of delivery, with a reason and photos.
        </li>
        <li>Our staff answer within 5 business days.</li>
        <li>An approved return must ship within 4 business days, or the RMA is cancelled.</li>
        <li>Units missing from a package are refunded within 3 business days of approval.</li>
      </ul>

      <h2>Staying anonymous</h2>
      <p>
        Buyers and sellers see each other only as retailer-00 followed by a store number. The
        carrier's label carries the delivery address, and nothing else in the box names your store.
      </p>

      <p>
        Fees and the shipping table are on the <Link to="/pricing">Pricing</Link> page. Need help?{" "}
        <Link to="/contact">Contact us</Link>.
      </p>
    </article>
  );
}
