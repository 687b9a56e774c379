/**
 * Staff's "Matches made per week" (docs/product/screens.md, "Surplus dashboard"; ADR 0030): a chart drawn on the
 * server (SVG) and the table of its figures beside it, as the dashboard's other panels.
 */
import { weekLabel, weekShortLabel, type WeekFigures } from "../../../domain/staff-metrics";
import { BarChart, ChartKey, type BarSeries } from "./BarChart";

export function MatchesPerWeek(props: { weeks: WeekFigures[]; who: string }) {
  const { weeks } = props;
  const sum = (f: (w: WeekFigures) => number) => weeks.reduce((s, w) => s + f(w), 0);
  const total = {
    matches: sum((w) => w.matches),
    requests: sum((w) => w.requests),
    searches: sum((w) => w.searches),
    traded: sum((w) => w.traded),
  };
  const series: BarSeries[] = [
    { name: "Filling a request", className: "bar-sold", values: weeks.map((w) => w.requests) },
    {
      name: "Fitting a saved search",
      className: "bar-swapped",
      values: weeks.map((w) => w.searches),
    },
  ];
  const period = `weeks of ${weekLabel(weeks[0].weekStart)} to ${weekLabel(weeks[weeks.length - 1].weekStart)}`;
  return (
    <section
      className="dash-panel"
      aria-labelledby="dash-matches-heading"
      data-testid="dash-matches"
    >
      <h2 id="dash-matches-heading">Matches made per week</h2>
      <p className="muted">
        {props.who}: the {period} (each from Monday, in the marketplace&apos;s time zone). A match
        is a listing that became visible and fills a retailer&apos;s open request or fits its saved
        search; &ldquo;bought or swapped&rdquo; counts those the matched retailer then bought or
        swapped for.
      </p>
      <div className="dash-pair">
        <div>
          <BarChart
            id="dash-matches"
            title="Matches made per week"
            desc={`Matches per week, ${period}: ${total.matches} in all, ${total.requests} filling a request and ${total.searches} fitting a saved search; ${total.traded} bought or swapped.`}
            labels={weeks.map((w) => weekShortLabel(w.weekStart))}
            series={series}
            formatTick={(v) => (Number.isInteger(v) ? String(v) : v.toFixed(1))}
          />
          <ChartKey series={series} />
        </div>
        <table className="table" data-testid="dash-matches-table">
          <caption>Matches made per week</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col" className="num">
                Matches
              </th>
              <th scope="col" className="num">
                Filling a request
              </th>
              <th scope="col" className="num">
                Fitting a saved search
              </th>
              <th scope="col" className="num">
                Bought or swapped
              </th>
            </tr>
          </thead>
          <tbody>
            {[
              ...weeks.map((w) => ({ key: w.weekStart, label: weekLabel(w.weekStart), ...w })),
              { key: "total", label: "Total", ...total },
            ].map((r) => (
              <tr key={r.key} className={r.key === "total" ? "total" : undefined}>
                <th scope="row">{r.label}</th>
                <td className="num">{r.matches}</td>
                <td className="num">{r.requests}</td>
                <td className="num">{r.searches}</td>
                <td className="num">{r.traded}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
