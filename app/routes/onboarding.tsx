import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { FEE_PERCENT } from "../../domain/fees";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("How It Works") }];

export default function Onboarding() {
  return (
    <article className="page prose">
      <h1>How it works</h1>
      <p className="lead">
        An anonymous marketplace where authorized retailers of the same brands sell their unsold new
        inventory, request the styles they need, and buy or swap with one another.
      </p>

      <h2>Getting started</h2>
      <ol className="steps">
        <li>
          <strong>Register your store.</strong> Create your login with your e-mail and a password,
          then tell us about your store, its contact person (with a cell phone, so we can text you
          when you have orders to approve) and the brands you carry.
        </li>
        <li>
          <strong>Wait for activation.</strong> Our staff check your store and authorize you for
          your brands. You can trade only in the brands you are authorized for, and only with
          retailers authorized for them too.
        </li>
        <li>
          <strong>Set up payouts.</strong> Give us your bank details under{" "}
          <Link to="/getpaid/">Get paid</Link> (also in Settings → Payout Info). Until you do, your
          listings are not shown to other retailers.
        </li>
        <li>
          <strong>Add a card on file.</strong> You need one to approve a sale (it covers a penalty
          if your goods are never picked up) and to buy.
        </li>
      </ol>

      <h2>What you can do</h2>
      <ul>
        <li>
          <strong>List what didn't sell.</strong> Choose the style and colour, the sizes and units,
          add photos, and accept the terms. Each listing is either for sale or for swap.
        </li>
        <li>
          <strong>Request what you need.</strong> Post a request for a style and sizes; retailers
          who have it can offer to sell it to you.
        </li>
        <li>
          <strong>Buy</strong> from other retailers' listings, <strong>swap</strong> your listed
          goods for theirs, or <strong>sell</strong> to their requests.
        </li>
      </ul>

      <h2>Anonymous by design</h2>
      <p>
        Other retailers never see your store name, e-mail, address or phone. Your listings show as
        "Listed by retailer-00…" and your requests as "Requested by retailer-00…", followed by your
        store number. Even the packing slip in the box is anonymous.
      </p>

      <h2>Safe payments</h2>
      <p>
        When you buy, your card is pre-authorised at checkout and charged only when the seller
        approves, and only for the units they approve. Sellers are paid the full wholesale amount as
        soon as the carrier scans the package. Buying costs a {FEE_PERCENT.purchase}% fee, swapping{" "}
        {FEE_PERCENT.swap}%, and selling at cost is free: see <Link to="/pricing">Pricing</Link>.
      </p>

      <h2>Time limits at a glance</h2>
      <ul>
        <li>
          Sellers answer a purchase request within 5 days; after that it is declined and your card
          is released.
        </li>
        <li>Approved goods must be ready for carrier pickup within 2 business days.</li>
        <li>Buyers rate the order within 3 business days of delivery.</li>
        <li>Returns (RMAs) are requested within 48 hours of delivery.</li>
      </ul>
      <p>
        The details are in <Link to="/how-selling-works">How selling works</Link>. Questions?{" "}
        <Link to="/contact">Contact us</Link>.
      </p>
    </article>
  );
}
