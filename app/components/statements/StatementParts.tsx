/**
 * The statements screens' parts (docs/product/screens.md, "Statements"): the list of months (shown on
 * /statements/ and on staff's manage-retailer Statements tab) and the month's tables. Everything arrives
 * formatted by the loader (app/utils/statements.server.ts): dates in the marketplace zone, dollars, the
 * counterparty as retailer-00{id}.
 */
import { Link } from "@remix-run/react";

type Money = {
  gross: string;
  fee: string;
  shipping: string;
  penalty: string;
  refund: string;
  payout: string;
  net: string;
};
const COLUMNS: [keyof Money, string][] = [
  ["gross", "Gross"],
  ["fee", "Fee"],
  ["shipping", "Shipping"],
  ["penalty", "Penalty"],
  ["refund", "Refund"],
  ["payout", "Payout"],
  ["net", "Net"],
];

export interface MonthRow {
  month: string;
  label: string;
  lines: number;
  openingText: string;
  netText: string;
  closingText: string;
}

export function MonthList({ months, query }: { months: MonthRow[]; query: string }) {
  return (
    <table className="table" data-testid="statement-months">
      <caption className="visually-hidden">Statements by month</caption>
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col" className="num">
            Movements
          </th>
          <th scope="col" className="num">
            Opening balance
          </th>
          <th scope="col" className="num">
            Net
          </th>
          <th scope="col" className="num">
            Closing balance
          </th>
          <th scope="col">Download</th>
        </tr>
      </thead>
      <tbody>
        {months.map((m) => (
          <tr key={m.month} data-testid="statement-month" data-month={m.month}>
            <td>
              <Link to={`/statements/${m.month}${query}`}>{m.label}</Link>
            </td>
            <td className="num">{m.lines}</td>
            <td className="num">{m.openingText}</td>
            <td className="num">{m.netText}</td>
            <td className="num">{m.closingText}</td>
            <td>
              <a href={`/statements/${m.month}/csv${query}`} download>
                CSV<span className="visually-hidden"> of {m.label}</span>
              </a>{" "}
              ·{" "}
              <a href={`/statements/${m.month}/pdf${query}`} target="_blank" rel="noreferrer">
                PDF<span className="visually-hidden"> of {m.label}</span>
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface LineRow {
  id: number;
  date: string;
  order: string;
  orderHref: string | null;
  kind: string;
  counterparty: string;
  description: string;
  amounts: Money;
  balance: string;
}

function MoneyCells({ a }: { a: Money }) {
  return (
    <>
      {COLUMNS.map(([c]) => (
        <td key={c} className="num" data-col={c}>
          {a[c]}
        </td>
      ))}
    </>
  );
}

export function LinesTable(p: {
  lines: LineRow[];
  opening: string;
  closing: string;
  totals: Money;
  lineCount: number;
}) {
  return (
    <table className="table statement-lines" data-testid="statement-lines">
      <caption className="visually-hidden">Money movements of the month</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Order</th>
          <th scope="col">Kind</th>
          <th scope="col">Counterparty</th>
          <th scope="col">Movement</th>
          {COLUMNS.map(([c, label]) => (
            <th key={c} scope="col" className="num">
              {label}
            </th>
          ))}
          <th scope="col" className="num">
            Balance
          </th>
        </tr>
      </thead>
      <tbody>
        <tr className="total" data-testid="statement-opening">
          <td colSpan={12}>Opening balance</td>
          <td className="num">{p.opening}</td>
        </tr>
        {p.lines.map((l) => (
          <tr key={l.id} data-testid="statement-line" data-kind={l.kind}>
            <td>{l.date}</td>
            <td>{l.orderHref ? <Link to={l.orderHref}>{l.order}</Link> : l.order}</td>
            <td>{l.kind}</td>
            <td>{l.counterparty}</td>
            <td>{l.description}</td>
            <MoneyCells a={l.amounts} />
            <td className="num">{l.balance}</td>
          </tr>
        ))}
        {p.lineCount === 0 ? (
          <tr>
            <td colSpan={13}>No money moved this month.</td>
          </tr>
        ) : null}
        <tr className="total" data-testid="statement-total">
          <td colSpan={5}>Total of the month</td>
          <MoneyCells a={p.totals} />
          <td />
        </tr>
        <tr className="total" data-testid="statement-closing">
          <td colSpan={12}>Closing balance</td>
          <td className="num">{p.closing}</td>
        </tr>
      </tbody>
    </table>
  );
}

export function KindTotals({
  byKind,
}: {
  byKind: { kind: string; count: number; amounts: Money }[];
}) {
  if (byKind.length === 0) return null;
  return (
    <table className="table" data-testid="statement-kinds">
      <caption>Totals by kind</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col" className="num">
            Movements
          </th>
          {COLUMNS.map(([c, label]) => (
            <th key={c} scope="col" className="num">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {byKind.map((k) => (
          <tr key={k.kind} data-testid="statement-kind" data-kind={k.kind}>
            <th scope="row">{k.kind}</th>
            <td className="num">{k.count}</td>
            <MoneyCells a={k.amounts} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
