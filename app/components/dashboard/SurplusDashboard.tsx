/**
 * The surplus dashboard (docs/product/screens.md, "Surplus dashboard"; ADR 0028): headline figures, then three
 * charts, each with the table of its figures beside it. The same component shows a retailer's home and
 * staff's per-brand and marketplace report.
 */
import { formatCents } from "../../../domain/money";
import { monthLabel, monthShortLabel, type Dashboard } from "../../../domain/surplus-dashboard";
import { BarChart, ChartKey, type BarSeries } from "./BarChart";

const tick = (cents: number) => formatCents(Math.round(cents)).replace(/\.00$/, "");
const days = (d: number | null) =>
  d === null ? "—" : `${Number.isInteger(d) ? d : d.toFixed(1)} ${d === 1 ? "day" : "days"}`;

export function SurplusDashboard(props: { dashboard: Dashboard; who: string }) {
  const d = props.dashboard;
  const first = monthLabel(d.months[0].month);
  const last = monthLabel(d.months[d.months.length - 1].month);
  const period = `${first} to ${last}`;
  const ageSeries: BarSeries[] = [
    { name: "Value listed", className: "bar-listed", values: d.ages.map((a) => a.valueCents) },
  ];
  const tradeSeries: BarSeries[] = [
    { name: "Sold", className: "bar-sold", values: d.months.map((m) => m.soldCents) },
    { name: "Swapped", className: "bar-swapped", values: d.months.map((m) => m.swappedCents) },
  ];
  const moneySeries: BarSeries[] = [
    { name: "Payouts", className: "bar-payouts", values: d.months.map((m) => m.payoutsCents) },
    {
      name: "Swap values",
      className: "bar-swapvalues",
      values: d.months.map((m) => m.swapValuesCents),
    },
    { name: "Fees paid", className: "bar-fees", values: d.months.map((m) => m.feesCents) },
  ];
  const labels = d.months.map((m) => monthShortLabel(m.month));
  return (
    <section
      className="surplus-dashboard"
      aria-labelledby="surplus-dashboard-title"
      data-testid="surplus-dashboard"
    >
      <h2 id="surplus-dashboard-title">Surplus dashboard</h2>
      <p className="muted">
        {props.who}, {period} (months in the marketplace&apos;s time zone). Values are at wholesale
        cost.
      </p>
      <dl className="dash-figures" data-testid="dash-figures">
        <Figure label="Value listed now" value={formatCents(d.listed.valueCents)} />
        <Figure label="Sold (12 months)" value={formatCents(d.totals.soldCents)} />
        <Figure label="Swapped (12 months)" value={formatCents(d.totals.swappedCents)} />
        <Figure label="Median days to sell" value={days(d.medianDaysToSell)} />
        <Figure label="Money recovered" value={formatCents(d.totals.recoveredCents)} />
        <Figure label="Fees paid" value={formatCents(d.totals.feesCents)} />
        <Figure label="Requests filled" value={String(d.totals.requestsFilled)} />
      </dl>

      <section className="dash-panel" aria-labelledby="dash-age-heading">
        <h3 id="dash-age-heading">Listed now, by age</h3>
        <div className="dash-pair">
          <BarChart
            id="dash-age"
            title="Value listed by age"
            desc={`Value at wholesale cost of what is listed now, by days since listing: ${d.ages
              .map((a) => `${a.label} ${formatCents(a.valueCents)}`)
              .join("; ")}.`}
            labels={d.ages.map((a) => a.label)}
            series={ageSeries}
            formatTick={tick}
          />
          <table className="table" data-testid="dash-age-table">
            <caption>Listed now, by days since listing</caption>
            <thead>
              <tr>
                <th scope="col">Age</th>
                <th scope="col" className="num">
                  Listings
                </th>
                <th scope="col" className="num">
                  Units
                </th>
                <th scope="col" className="num">
                  Value
                </th>
              </tr>
            </thead>
            <tbody>
              {d.ages.map((a) => (
                <tr key={a.key}>
                  <th scope="row">{a.label}</th>
                  <td className="num">{a.listings}</td>
                  <td className="num">{a.units}</td>
                  <td className="num">{formatCents(a.valueCents)}</td>
                </tr>
              ))}
              <tr className="total">
                <th scope="row">Total</th>
                <td className="num">{d.listed.listings}</td>
                <td className="num">{d.listed.units}</td>
                <td className="num">{formatCents(d.listed.valueCents)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </section>

      <MonthPanel
        id="dash-trades"
        heading="Sold and swapped per month"
        desc={`Goods value sold and swapped away per month, ${period}: ${formatCents(d.totals.soldCents)} sold and ${formatCents(
          d.totals.swappedCents,
        )} swapped in all; ${d.totals.requestsFilled} requests filled.`}
        dashboard={d}
        labels={labels}
        series={tradeSeries}
        columns={[
          {
            name: "Sold",
            cell: (m) => formatCents(m.soldCents),
            total: formatCents(d.totals.soldCents),
          },
          {
            name: "Swapped",
            cell: (m) => formatCents(m.swappedCents),
            total: formatCents(d.totals.swappedCents),
          },
          {
            name: "Requests filled",
            cell: (m) => String(m.requestsFilled),
            total: String(d.totals.requestsFilled),
          },
        ]}
      />
      <MonthPanel
        id="dash-money"
        heading="Money recovered against fees paid"
        desc={`Per month, ${period}: payouts received and the value of goods received in swaps, against the fees paid. In all ${formatCents(
          d.totals.recoveredCents,
        )} recovered and ${formatCents(d.totals.feesCents)} in fees.`}
        dashboard={d}
        labels={labels}
        series={moneySeries}
        columns={[
          {
            name: "Payouts",
            cell: (m) => formatCents(m.payoutsCents),
            total: formatCents(d.totals.payoutsCents),
          },
          {
            name: "Swap values",
            cell: (m) => formatCents(m.swapValuesCents),
            total: formatCents(d.totals.swapValuesCents),
          },
          {
            name: "Fees paid",
            cell: (m) => formatCents(m.feesCents),
            total: formatCents(d.totals.feesCents),
          },
        ]}
      />
    </section>
  );
}

function Figure(props: { label: string; value: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

type Month = Dashboard["months"][number];

function MonthPanel(props: {
  id: string;
  heading: string;
  desc: string;
  dashboard: Dashboard;
  labels: string[];
  series: BarSeries[];
  columns: { name: string; cell: (m: Month) => string; total: string }[];
}) {
  return (
    <section className="dash-panel" aria-labelledby={`${props.id}-heading`}>
      <h3 id={`${props.id}-heading`}>{props.heading}</h3>
      <div className="dash-pair">
        <div>
          <BarChart
            id={props.id}
            title={props.heading}
            desc={props.desc}
            labels={props.labels}
            series={props.series}
            formatTick={tick}
          />
          <ChartKey series={props.series} />
        </div>
        <table className="table" data-testid={`${props.id}-table`}>
          <caption>{props.heading}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              {props.columns.map((c) => (
                <th key={c.name} scope="col" className="num">
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.dashboard.months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{monthLabel(m.month)}</th>
                {props.columns.map((c) => (
                  <td key={c.name} className="num">
                    {c.cell(m)}
                  </td>
                ))}
              </tr>
            ))}
            <tr className="total">
              <th scope="row">Total</th>
              {props.columns.map((c) => (
                <td key={c.name} className="num">
                  {c.total}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
