/**
 * A bar chart drawn on the server as SVG (ADR 0028): readable without JavaScript, named by its <title> and
 * described by its <desc>; the figures themselves are in the table the caller puts beside it, for screen
 * readers and for reading exact values.
 */

export interface BarSeries {
  name: string;
  /** A CSS class of dashboard.css giving the bars their colour. */
  className: string;
  values: number[];
}

const WIDTH = 560;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

/** A round step for the axis: 1, 2 or 5 × a power of ten, so that about four steps cover `max`. */
export function niceStep(max: number): number {
  if (max <= 0) return 1;
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
}

export function BarChart(props: {
  id: string;
  title: string;
  desc: string;
  labels: string[];
  series: BarSeries[];
  formatTick: (value: number) => string;
}) {
  const { id, labels, series } = props;
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const group = plotW / Math.max(1, labels.length);
  const barW = Math.max(2, (group * 0.7) / Math.max(1, series.length));
  const ticks: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(v);
  return (
    <svg
      className="bar-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      data-testid={`${id}-svg`}
    >
      <title id={`${id}-title`}>{props.title}</title>
      <desc id={`${id}-desc`}>{props.desc}</desc>
      {ticks.map((t) => (
        <g key={t}>
          <line
            className="bar-chart-grid"
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={y(t)}
            y2={y(t)}
          />
          <text className="bar-chart-tick" x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {props.formatTick(t)}
          </text>
        </g>
      ))}
      {labels.map((label, i) => (
        <g key={label}>
          {series.map((s, j) => {
            const v = s.values[i] ?? 0;
            const x = PAD.left + i * group + group * 0.15 + j * barW;
            return (
              <rect
                key={s.name}
                className={s.className}
                x={x}
                y={y(v)}
                width={barW - 1}
                height={Math.max(0, y(0) - y(v))}
              />
            );
          })}
          <text
            className="bar-chart-tick"
            x={PAD.left + i * group + group / 2}
            y={HEIGHT - PAD.bottom + 16}
            textAnchor="middle"
          >
            {label}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** The chart's key: one swatch per series (hidden from screen readers, who read the table). */
export function ChartKey(props: { series: BarSeries[] }) {
  if (props.series.length < 2) return null;
  return (
    <p className="chart-key" aria-hidden="true">
      {props.series.map((s) => (
        <span key={s.name}>
          <span className={`chart-swatch ${s.className}`} /> {s.name}
        </span>
      ))}
    </p>
  );
}
