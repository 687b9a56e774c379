import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/title";
import { getEnv } from "~/utils/env.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Contact") }];

export function loader() {
  const env = getEnv();
  return {
    email: env.SUPPORT_EMAIL,
    phone: env.SUPPORT_PHONE,
    retailerEmail: env.RETAILER_SUPPORT_EMAIL,
  };
}

export default function Contact() {
  const { email, phone, retailerEmail } = useLoaderData<typeof loader>();
  return (
    <article className="page prose">
      <h1>Contact us</h1>
      <p className="lead">We are here to help with your account, your listings and your orders.</p>
      <ul>
        <li>
          E-mail: <a href={`mailto:${email}`}>{email}</a>
        </li>
        <li>
          Phone: <a href={`tel:${phone.replace(/[^\d+]/g, "")}`}>{phone}</a> (Monday to Friday,
          Eastern time)
        </li>
        <li>
          Retailer accounts and credentials: <a href={`mailto:${retailerEmail}`}>{retailerEmail}</a>
        </li>
      </ul>
      <p>
        If a product you want to list is missing, tell us its brand, season, product code, colour,
        wholesale cost, sizes, the reason for listing and your phone number, and we will add it.
      </p>
      <p>
        See also <Link to="/onboarding">How it works</Link> and <Link to="/pricing">Pricing</Link>.
      </p>
    </article>
  );
}
