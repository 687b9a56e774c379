// How the report writes numbers.

/** Whole milliseconds, "—" when not a number. */
export const ms = (v) => (Number.isFinite(v) ? String(Math.round(v)) : "—");
/** A duration for prose: "744 ms", "28.4 s". */
export const dur = (v) =>
  Number.isFinite(v) ? (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`) : "—";
/** A whole number, "—" when not a number. */
export const f0 = (v) => (Number.isFinite(v) ? String(Math.round(v)) : "—");
