/**
 * /statements/ (docs/product/screens.md, "Statements"; ADR 0026): the retailer's monthly statements, newest
 * first, each with its opening balance, net and closing balance, and links to its page, CSV and PDF. Staff
 * holding the "retailer" permission read any retailer's with ?retailer={id}.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import ordersCss from "~/components/orders/orders.css";
import { MonthList } from "~/components/statements/StatementParts";
import { pageTitle } from "~/components/title";
import { statementListData } from "~/utils/statements.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Statements") }];

export function loader({ request }: LoaderFunctionArgs) {
  return statementListData(request);
}

export default function Statements() {
  const { owner, months } = useLoaderData<typeof loader>();
  return (
    <section className="page" data-testid="statements-page">
      <h1>
        Statements{owner.staff && owner.query ? `: ${owner.storeName} #${owner.retailerId}` : ""}
      </h1>
      <p className="lead">
        Every payment, refund, penalty and payout of your purchases, sales, swaps and returns, month
        by month (in the marketplace&apos;s time zone). Money you paid is negative; the balance is
        what you received less what you paid since you joined.
      </p>
      <MonthList months={months} query={owner.query} />
    </section>
  );
}
