/**
 * /statements/{YYYY-MM} (docs/product/screens.md, "Statements"; ADR 0026): one month's statement: the
 * opening balance, every money movement (date, order, kind, counterparty as retailer-00{id}, gross, fee,
 * shipping, penalty, refund, payout, net, balance) in pages of 100 (?offset=), the totals of the month and by
 * kind, the closing balance, whether the month is reconciled with the payment provider, and its CSV and PDF. A month that is not YYYY-MM, or an offset past the lines,
 * answers 400 with the message; a month not started yet 404.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { STATEMENT_MONTH_MESSAGES } from "../../domain/statements";
import { ErrorPage } from "~/components/ErrorPage";
import ordersCss from "~/components/orders/orders.css";
import { KindTotals, LinesTable } from "~/components/statements/StatementParts";
import { pageTitle } from "~/components/title";
import { statementPageData } from "~/utils/statements.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `Statement ${data.label}` : "Statement") },
];

export function loader({ request, params }: LoaderFunctionArgs) {
  return statementPageData(request, params.month);
}

export default function MonthStatement() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page" data-testid="statement-page" data-month={d.month}>
      <p>
        <Link to={d.listHref}>← All statements</Link>
      </p>
      <h1>
        Statement: {d.label}
        {d.owner.staff && d.owner.query ? ` (${d.owner.storeName} #${d.owner.retailerId})` : ""}
      </h1>
      <p>
        <a href={d.csvHref} className="button button-small" download data-testid="statement-csv">
          Download CSV
        </a>{" "}
        <a
          href={d.pdfHref}
          className="button button-small"
          target="_blank"
          rel="noreferrer"
          data-testid="statement-pdf"
        >
          Printable PDF
        </a>
      </p>
      <p className="muted" data-testid="statement-reconciled">
        {d.reconciled}
      </p>
      <dl className="summary" data-testid="statement-summary">
        <dt>Opening balance</dt>
        <dd data-testid="statement-opening-amount">{d.opening}</dd>
        <dt>Net of the month</dt>
        <dd data-testid="statement-net">{d.totals.net}</dd>
        <dt>Closing balance</dt>
        <dd data-testid="statement-closing-amount">{d.closing}</dd>
      </dl>
      <KindTotals byKind={d.byKind} />
      <LinesTable
        lines={d.lines}
        opening={d.opening}
        closing={d.closing}
        totals={d.totals}
        lineCount={d.lineCount}
      />
      {d.previous || d.next ? (
        <nav className="pager" aria-label="Pages of the statement">
          {d.previous ? <Link to={d.previous}>← Earlier movements</Link> : null}{" "}
          {d.next ? <Link to={d.next}>Later movements →</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

/**
 * A month not started yet answers 404 with the statement's own message (as its CSV does), not the generic
 * "Page not found"; every other error is the app's error page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.data === STATEMENT_MONTH_MESSAGES.futureMonth) {
    return (
      <section className="page page-error" data-status={error.status} data-testid="statement-error">
        <h1>Statement</h1>
        <p className="lead">{STATEMENT_MONTH_MESSAGES.futureMonth}</p>
        <p>
          <Link to="/statements">← All statements</Link>
        </p>
      </section>
    );
  }
  return <ErrorPage />;
}
