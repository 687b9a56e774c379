// Plans of the statements a bench script's calls run, as PostgreSQL executed them: one connection with
// auto_explain (ANALYZE, BUFFERS, JSON) reporting each statement's plan as a notice. Used by the bench scripts
// (bench-statements, bench-stock), which run under tsx.

/**
 * A handle of one connection (`createDb` of db/client.ts, passed in) with auto_explain loaded;
 * `plansOf(fn)` runs `fn` and returns the JSON plans of the statements it ran on that connection.
 */
export async function autoExplainDb(createDb, url) {
  let sink = null;
  const h = createDb(url, {
    max: 1,
    onnotice: (n) => {
      const at = n.message.indexOf("{");
      if (sink && at >= 0) sink.push(JSON.parse(n.message.slice(at)));
    },
  });
  for (const s of [
    "load 'auto_explain'",
    "set auto_explain.log_min_duration = 0",
    "set auto_explain.log_analyze = on",
    "set auto_explain.log_buffers = on",
    "set auto_explain.log_format = json",
    "set auto_explain.log_level = notice",
  ])
    await h.sql.unsafe(s);
  return {
    h,
    async plansOf(fn) {
      const found = [];
      sink = found;
      try {
        await fn();
      } finally {
        sink = null;
      }
      return found;
    },
  };
}

/** Every node of a JSON plan. */
export function planNodes(plan) {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}
