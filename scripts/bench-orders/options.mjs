// npm run bench:orders: its options (the header of scripts/bench-orders.mjs and the README's "Benchmarks" table).

/** A reader of `--name value` / `--name=value` / a bare `--name` (true) in argv. */
function reader(argv) {
  const get = (name, dflt) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return dflt;
    const a = argv[i];
    if (a.includes("=")) return a.slice(a.indexOf("=") + 1);
    const next = argv[i + 1];
    return next !== undefined && !next.startsWith("--") ? next : true;
  };
  const int = (name, dflt, min = 0) => {
    const v = Number(get(name, dflt));
    if (!Number.isInteger(v) || v < min)
      throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return v;
  };
  const num = (name, dflt, min) => {
    const v = Number(get(name, dflt));
    if (!Number.isFinite(v) || v <= min) throw new Error(`--${name} must be a number > ${min}`);
    return v;
  };
  return { get, int, num, has: (flag) => argv.includes(flag) };
}

/** The modes: which combine, and which refuse each other. */
function modes({ get, int, num, has }) {
  const prod = has("--prod");
  const commandsOnly = has("--commands-only");
  const documentPosts = has("--document-posts");
  if (documentPosts && !commandsOnly)
    throw new Error("--document-posts is a variant of --commands-only");
  const swaps = has("--swaps");
  const mix = has("--mix");
  const offers = has("--offers");
  if (offers && (swaps || mix || commandsOnly))
    throw new Error(
      "--offers runs purchases and offers through full pages: not with --swaps, --mix or --commands-only",
    );
  if (mix && (swaps || commandsOnly))
    throw new Error(
      "--mix runs purchases, swaps and returns through full pages: not with --swaps or --commands-only",
    );
  const scale = int("scale", 1, 1);
  if (scale > 1 && !prod)
    throw new Error(
      "--scale N starts N web processes and N workers of its own: use it with --prod",
    );
  const killEvery = int("kill-worker-every", 0, 0);
  if (killEvery > 0 && (!prod || commandsOnly))
    throw new Error(
      "--kill-worker-every MS kills the bench's own workers: use it with --prod and full pages",
    );
  if (swaps && commandsOnly) throw new Error("--swaps runs full pages only (no --commands-only)");
  const openLoop = get("open-loop", null);
  const rate = openLoop === null ? null : num("open-loop", 2, 0);
  const duration = openLoop === null ? null : num("duration", 60, 0);
  const codec = codecOf(get("codec", "on"), { prod, swaps, mix: mix || offers, killEvery });
  return {
    prod,
    commandsOnly,
    documentPosts,
    swaps,
    mix,
    offers,
    scale,
    killEvery,
    rate,
    duration,
    codec,
  };
}

/**
 * --codec on|off|both: the payload codec of the bench's own stack (PAYLOAD_CODEC); "both" runs the same purchases
 * twice, codec on then off, each on a fresh stack (codec.mjs).
 */
function codecOf(codec, { prod, swaps, mix, killEvery }) {
  if (!["on", "off", "both"].includes(codec)) throw new Error("--codec is on, off or both");
  if (codec === "on") return codec;
  if (!prod)
    throw new Error(
      "--codec off|both switches the codec of the bench's own stack: use it with --prod",
    );
  if (swaps || mix || killEvery > 0)
    throw new Error(
      "--codec off|both measures the codec's cost per purchase: not with --swaps, --mix or --kill-worker-every",
    );
  return codec;
}

/**
 * The docs/performance.md block a run of these modes writes; none for --codec off alone (its figures are not the
 * production configuration's: --codec both writes them beside the codec-on run's).
 */
function blockOf({ killEvery, scale, mix, offers, swaps, commandsOnly, rate, prod, codec }) {
  if (codec === "both") return "orders-codec";
  if (codec === "off") return null;
  if (killEvery > 0) return "orders-kills";
  if (scale > 1) return "orders-scale";
  if (mix) return "orders-mix";
  if (offers) return "orders-offers";
  if (swaps) return "orders-swaps";
  if (commandsOnly) return "orders-commands";
  if (rate) return "orders-open";
  return prod ? "orders-prod" : "orders";
}

export function options(argv = process.argv.slice(2)) {
  const r = reader(argv);
  const m = modes(r);
  const { get, int } = r;
  // Open loop: the number of orders follows from the rate and the duration; all may be in flight at once.
  const orders = m.rate ? Math.max(1, Math.round(m.rate * m.duration)) : int("orders", 20, 1);
  const warmup = int("warmup", 1, 0);
  if (m.commandsOnly && warmup < 1)
    throw new Error(
      "--commands-only needs a warm-up order (--warmup ≥ 1): its forms are the commands' templates",
    );
  return {
    orders,
    concurrency: m.rate ? orders : Math.min(orders, int("concurrency", orders, 1)),
    warmup,
    // Commands only polls the orders table (cheap) rather than reloading pages.
    pollMs: int("poll-ms", m.commandsOnly ? 50 : 250, 10),
    timeoutMs: int("timeout-ms", 60_000, 1000),
    baseUrl: String(get("base-url", process.env.BENCH_BASE_URL ?? "http://localhost:3000")).replace(
      /\/$/,
      "",
    ),
    databaseUrl: String(
      get(
        "database-url",
        process.env.BENCH_DATABASE_URL ??
          process.env.DATABASE_URL ??
          "postgres://postgres:postgres@127.0.0.1:54320/marketplace",
      ),
    ),
    temporalAddress: String(
      get("temporal-address", process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233"),
    ),
    taskQueue: String(get("task-queue", process.env.TEMPORAL_TASK_QUEUE ?? "marketplace")),
    namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
    write: !argv.includes("--no-write") && blockOf(m) !== null,
    // --json FILE: the run's figures as JSON (npm run bench:topology reads them), with per-process CPU detail.
    json: typeof get("json", null) === "string" ? get("json", null) : null,
    build: !argv.includes("--no-build"),
    ...m,
    /** The docs/performance.md block this run writes. */
    block: blockOf(m),
    pollGiven: argv.some((a) => a === "--poll-ms" || a.startsWith("--poll-ms=")),
  };
}

/** The command that reproduces this run (normalised: every option that shapes it, defaults included). */
export function commandLine(o) {
  const a = [];
  if (o.prod) a.push("--prod");
  if (o.prod && !o.build) a.push("--no-build");
  if (o.scale > 1) a.push(`--scale ${o.scale}`);
  if (o.killEvery > 0) a.push(`--kill-worker-every ${o.killEvery}`);
  if (o.commandsOnly) a.push("--commands-only");
  if (o.documentPosts) a.push("--document-posts");
  if (o.swaps) a.push("--swaps");
  if (o.mix) a.push("--mix");
  if (o.offers) a.push("--offers");
  if (o.codec !== "on") a.push(`--codec ${o.codec}`);
  if (o.rate) a.push(`--open-loop ${o.rate}`, `--duration ${o.duration}`);
  else a.push(`--orders ${o.orders}`, `--concurrency ${o.concurrency}`);
  if (o.pollGiven) a.push(`--poll-ms ${o.pollMs}`);
  if (o.timeoutMs !== 60_000) a.push(`--timeout-ms ${o.timeoutMs}`);
  return `npm run bench:orders -- ${a.join(" ")}`;
}
