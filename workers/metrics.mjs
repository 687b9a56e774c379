/**
 * A small Prometheus registry (text exposition format 0.0.4) for the web process: counters and histograms with
 * labels, nothing else (the worker's metrics come from the Temporal SDK's own exporter). Plain Node, no
 * dependency. Used by workers/observability.mjs; tested by tests/unit/observability.test.ts.
 */

/** Label values escaped as the format asks (backslash, double quote, newline). */
const escape = (v) => String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labelText = (names, values) => (names.length ? `{${names.map((n, i) => `${n}="${escape(values[i])}"`).join(",")}}` : "");

export class Registry {
  constructor() {
    this.metrics = [];
  }

  counter(name, help, labelNames = []) {
    const m = { type: "counter", name, help, labelNames, series: new Map() };
    this.metrics.push(m);
    return {
      inc: (labels = {}, by = 1) => {
        const values = labelNames.map((n) => labels[n] ?? "");
        const key = JSON.stringify(values);
        const s = m.series.get(key) ?? { values, value: 0 };
        s.value += by;
        m.series.set(key, s);
      },
    };
  }

  histogram(name, help, labelNames = [], buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]) {
    const m = { type: "histogram", name, help, labelNames, buckets, series: new Map() };
    this.metrics.push(m);
    return {
      observe: (labels, seconds) => {
        const values = labelNames.map((n) => labels[n] ?? "");
        const key = JSON.stringify(values);
        const s = m.series.get(key) ?? { values, counts: buckets.map(() => 0), sum: 0, count: 0 };
        buckets.forEach((b, i) => {
          if (seconds <= b) s.counts[i]++;
        });
        s.sum += seconds;
        s.count++;
        m.series.set(key, s);
      },
    };
  }

  /** Every metric in the text format. */
  render() {
    const out = [];
    for (const m of this.metrics) {
      out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`);
      for (const s of m.series.values()) {
        if (m.type === "counter") {
          out.push(`${m.name}${labelText(m.labelNames, s.values)} ${s.value}`);
          continue;
        }
        m.buckets.forEach((b, i) => out.push(`${m.name}_bucket${labelText([...m.labelNames, "le"], [...s.values, b])} ${s.counts[i]}`));
        out.push(`${m.name}_bucket${labelText([...m.labelNames, "le"], [...s.values, "+Inf"])} ${s.count}`);
        out.push(`${m.name}_sum${labelText(m.labelNames, s.values)} ${s.sum}`);
        out.push(`${m.name}_count${labelText(m.labelNames, s.values)} ${s.count}`);
      }
    }
    return out.join("\n") + "\n";
  }
}
