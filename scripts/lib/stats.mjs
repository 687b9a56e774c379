// Statistics of the bench scripts: nearest-rank percentiles of measured times.

/** The p-th percentile (nearest rank) of an ascending list; NaN when it is empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** The median of a list in any order. */
export const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** Count, p50, p95, p99, max and mean of a list in any order (NaN figures when it is empty). */
export function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN;
  return {
    n: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1] : NaN,
    mean,
  };
}
