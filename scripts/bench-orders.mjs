#!/usr/bin/env node
// npm run bench:orders — N purchases through the whole buy flow on the running dev stack (`npm run dev`, or with
// --prod a production build the bench starts itself; modes below), driven over HTTP the way a browser's form
// posts are: orders per second and the p95 latency from a retailer's click to the page showing the new state.
// One module per part in scripts/bench-orders/ (named below); statistics, CPU sampling and the writing of
// docs/performance.md are the bench scripts' shared ones (scripts/lib/stats.mjs, cpu.mjs, perf-doc.mjs).
//
//  1. Data (setup.mjs): in the stack's database (DATABASE_URL), with the shared factories (tests/factories, as
//     the seed and the tests use them): one brand, one product, and per order an independent pair of retailers
//     with logins (seller with payout and a listing of S×2 M×2, buyer), plus one staff login. Names and e-mails
//     carry a run tag (bench-orders-<tag>-…@bench.test), so re-runs never clash and the demo data is not
//     touched. Sellers put a card on file through /settings/card (the page's form, the card workflow).
//  2. Each order (purchases.mjs), over HTTP with a cookie-keeping client (tests/e2e/http.ts), every form read
//     from the page the user is on (scripts/lib/html-forms.mjs) and posted as a browser without JavaScript
//     posts it (clicks.mjs):
//       buyer   /listing/buy/<id> "Add to cart" → /checkout terms → review → "Continue to payment" →
//               pay with the test card 4242… → /buy?ref=checkoutComplete ("Thank you! …")
//       seller  /alerts → the order → "Approve Sale" → /orders shows the order
//       staff   admin order card, Shipping tab: "Simulate pickup" → the card shows state in_route;
//               "Simulate delivery" → state delivered (signed carrier webhook → signal: asynchronous, so
//               the card is reloaded every --poll-ms until it shows the state, as staff would refresh)
//       buyer   the order → /rate/<id> "I received the package" → rating (4 criteria + comments) →
//               "Rating saved!"
//     Per click: from sending the POST until the page the user lands on (redirect followed) shows the new
//     state; split into the action (POST answer), the landing page (GET) and waiting (reloads).
//  3. Prints (report.mjs) per step count, p50 / p95 / p99 / max, orders per second (completed orders / wall
//     time of the timed phase), errors; the CPU time the stack's processes (web, worker, Temporal, Postgres)
//     and the rest of the box used meanwhile (/proc, processes.mjs); and, from the orders' Temporal histories
//     (history.mjs), where each step's time went inside the workflow (workflow-task and activity queue waits
//     and run times per activity). Exit 1 when an order failed. Figures go into docs/performance.md between
//     <!-- orders:begin --> and <!-- orders:end --> (doc.mjs; --no-write skips).
//
// Options (options.mjs): --orders N (20), --concurrency C (default N: all at once), --warmup W (1 order before
// timing, not counted), --poll-ms (250; 50 with --commands-only), --timeout-ms per step (60000), --base-url
// (BENCH_BASE_URL, else http://localhost:3000), --database-url (BENCH_DATABASE_URL / DATABASE_URL, else the dev
// database on 54320), --temporal-address (TEMPORAL_ADDRESS, else 127.0.0.1:7233), --task-queue
// (TEMPORAL_TASK_QUEUE, else marketplace: only to find the worker process for CPU figures), --no-write, --json FILE
// (the figures as JSON, with each web process's and worker's CPU and PostgreSQL's by database, pg-split.mjs: what
// npm run bench:topology, scripts/bench-topology.mjs, tabulates; it runs this script against `npm run prod`'s
// topology and against --prod's dev server and compares them).
//
// Modes (they combine, e.g. --prod --commands-only; the default above is unchanged):
//   --prod               (prod-stack.mjs) no running stack needed: the bench starts and stops its own
//                        production-like one (scripts/lib/prod-stack.mjs): remix build into .data/bench-orders/build
//                        + the workflow bundle (build/workflow-bundle.js) unless --no-build; fresh embedded Postgres
//                        :54360 and file-backed Temporal dev server :7253 under .data/bench-orders, migrated + demo
//                        seed as `npm run dev` does; the worker and `node workers/web.mjs` (:3200) with
//                        NODE_ENV=production, APP_ENV=staging and throwaway random webhook secrets (the production
//                        secret checks run unchanged). Never collides with `npm run dev`, `npm test` or the other
//                        benchmarks. --base-url / --database-url / --temporal-address are ignored. Figures labelled
//                        "production build".
//   --open-loop RATE --duration S   (open-loop.mjs; e.g. --open-loop 2 --duration 60): order k starts at k/RATE s
//                        whatever the earlier ones are doing (RATE × S orders, each its whole flow, concurrently);
//                        prints each step's p50/p95/max, completed orders, errors, the achieved arrival rate and
//                        start lag (whether the rate was kept), the orders in flight and whether order durations grow.
//   --commands-only      (commands-only.mjs) the same orders through the same Remix actions, but only the POSTs: no
//                        page is loaded and no redirect followed; asynchronous steps poll the order's read-model row
//                        (orders.statename, a ratings row for "rate") through the bench's database connection every
//                        --poll-ms. The forms are the warm-up order's (clicked through its pages as above, so it
//                        needs --warmup ≥ 1) with each order's listing and order ids: the workflow ceiling in
//                        orders/s. Each POST goes where the hydrated app's <Form> sends it (Remix single fetch:
//                        <path>.data, the action's data alone, a redirect as 202): no page is rendered. With
//                        --document-posts, the POSTs of a browser without JavaScript instead (the path itself:
//                        an action that answers 200 renders the whole page after it).
//   --swaps              (swaps.mjs) swaps instead of purchases, full pages, with or without --prod / --open-loop:
//                        per swap a pair of retailers with a swap listing each; the receiver puts the provider's
//                        listing in its swap cart → /checkout terms → /checkout/swap pre-authorises its card →
//                        the provider chooses 1 unit of the receiver's swap listing and approves → the receiver
//                        approves → each side makes its payment → staff simulate both parcels' pickups and
//                        deliveries on the admin card → each side rates what it received. Figures: swaps/s and
//                        click → page showing the new state per step; block <!-- orders-swaps:… -->.
//   --mix                (mix.mjs) purchases, swaps and returns, full pages: the pairs take turns, a purchase (as
//                        above), a swap (as --swaps) and a purchase followed by its RMA: the buyer asks one unit back
//                        through the four steps of /create-rma/<id> ("Missing units", or every second time "Other"
//                        with a text asking to ship it back, which books a return parcel), staff approve it on the
//                        admin RMA card (Process RMA → Confirm), simulate the return parcel's pickup and delivery
//                        when there is one, and the RMA ends refunded and charged (rmacompleted).
//                        Block <!-- orders-mix:… -->.
//   --offers             (offers.mjs) purchases by checkout, by an accepted offer and over the buyer's limit, full
//                        pages: the pairs take turns; an offer's buyer offers below the listed price, its seller accepts
//                        it on the offer's page, then its purchase is shipped and rated as a checkout's (the offer's
//                        hold its one intent); an "approval" pair's buyer is a member of its store with a $10 limit an
//                        order, so its checkout waits until the store's approver clicks Approve purchase on the order's
//                        page, then the seller approves as for any purchase.
//   --kill-worker-every MS   (kills.mjs) with --prod (full pages; purchases, --swaps or --mix): a random worker is
//                        SIGKILLed every MS/2..3MS/2 ms and replaced while the orders run; block <!-- orders-kills:… -->.
//                        npm run bench:kills runs 100 kills over --mix. The worker CPU figure counts every worker
//                        that ran (a killed one up to its kill, a replacement with its start-up).
//   --scale N            with --prod: N web processes (on the ports after :3200) behind a round-robin proxy on
//                        :3200 (scripts/lib/rr-proxy.mjs) and N workers on the one task queue, against the one
//                        Temporal server and Postgres (scale-out on one box); block <!-- orders-scale:… -->.
//   --codec on|off|both  (codec.mjs) with --prod, purchases only: the payload codec of the bench's stack
//                        (PAYLOAD_CODEC, default on; staging takes off, production refuses it). both: the same run
//                        twice, each on a fresh stack, codec on then off (the second without rebuilding), and one
//                        report comparing them: web + worker CPU per completed purchase and every click's p95, and
//                        the difference; block <!-- orders-codec:… -->. off alone prints its report, writes no block.
// Every run checks (checks.mjs) each completed transaction in the read model and at the payment provider (its
// sandbox objects), by kind: a purchase one payment intent captured once, one transfer to the seller, no refund; a
// swap three intents (the receiver's checkout pre-authorisation, cancelled, and each side's payment, captured
// once), one transfer of the cash difference, no refund; an RMA its purchase's objects, plus one refund of the
// victim on the purchase's intent and one charge of the perpetrator's card on file, of the amounts its ledger
// shows. Anything more is a double.
// Each mode writes its own block of docs/performance.md: <!-- orders:… --> (default), <!-- orders-prod:… -->
// (--prod), <!-- orders-open:… --> (--open-loop, with or without --prod), <!-- orders-swaps:… --> (--swaps),
// <!-- orders-commands:… --> (--commands-only, any combination), <!-- orders-codec:… --> (--codec both); missing
// markers are created under "Orders". Every report states the mode, the build, the date, the box (cores) and the command, and ends with the mode's figures:
// Temporal server CPU per completed order, pay and approve p50 (one at a time with --concurrency 1), orders/s at
// the run's concurrency with every step's p95 (target ≥ 3/s at 20 on the production build), the open loop's p95,
// and the commands-only orders/s (target ≥ 8/s).
//
// Runs under tsx (it imports the TypeScript factories and HTTP client): it re-executes itself with
// `node --import tsx` when started with plain node.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);
/** Stops what the run started (--prod's stack), for an unexpected error. */
let cleanup = null;

/** The timed run's transactions checked, and (purchases only) their Temporal histories read. */
async function outcomeOf(bench) {
  const { checkTransactions } = await import("./bench-orders/checks.mjs");
  const { temporalBreakdown } = await import("./bench-orders/history.mjs");
  const { c, warn } = await import("./lib/log.mjs");
  const timed = bench.results.filter((r) => !r.warm);
  const completed = timed.filter((r) => r.ok);
  const failed = timed.filter((r) => !r.ok);
  const checked = await checkTransactions(bench.dbh, completed);
  for (const p of checked.problems) console.error(c.red(`✗ ${p}`));
  await bench.dbh.close();
  // The histories' breakdown names the buy workflow's updates: purchases only.
  const buyIds = completed.filter((r) => r.kind === "buy").map((r) => r.orderId);
  const breakdown =
    !buyIds.length || bench.o.mix
      ? null
      : await temporalBreakdown(bench.o, buyIds).catch((e) => {
          warn(`Temporal histories not read: ${e?.message ?? e}`);
          return null;
        });
  return { timed, completed, failed, checked, breakdown };
}

/**
 * One run: its stack (openStack: --prod's own, else the running one) up, the data, the warm-up and the timed
 * transactions, the report printed, the stack stopped; returns { o (the options, pointed at the stack), report,
 * json (figuresJson), figures, prodStack, run, code (1 when a transaction failed or the check afterwards found a
 * problem) }.
 */
async function runOnce(o) {
  const { openStack } = await import("./bench-orders/prod-stack.mjs");
  const { setUp } = await import("./bench-orders/setup.mjs");
  const { timedRun, warmUp } = await import("./bench-orders/run.mjs");
  const { figuresJson, figuresOf, reportText } = await import("./bench-orders/report.mjs");
  const { c, step } = await import("./lib/log.mjs");
  const stack = await openStack(o);
  cleanup = stack.stop;
  // The HTTP client sends the app's own Origin (the app refuses foreign ones): point it at our base URL.
  process.env.E2E_BASE_URL = o.baseUrl;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  step(
    `bench-orders ${tag}: ${o.orders} orders (+${o.warmup} warm-up), ${o.rate ? `open loop ${o.rate}/s for ${o.duration} s` : `concurrency ${o.concurrency}`}, ` +
      `${o.commandsOnly ? "commands only" : "full pages"}, ${o.prod ? `production build, payload codec ${o.codec}` : "dev stack"}, app ${o.baseUrl}, poll ${o.pollMs} ms`,
  );
  const bench = await setUp(o, tag);
  if (!(await warmUp(bench))) {
    console.error(c.red("the warm-up order failed: not starting the timed run"));
    await bench.dbh.close();
    await stack.finish(1);
  }
  const run = await timedRun(bench, stack.prodStack);
  const figures = figuresOf(bench, run, await outcomeOf(bench));
  const report = reportText(bench, run, figures, stack.prodStack);
  console.log(`\n${report}\n`);
  await stack.stop();
  cleanup = null;
  const { failed, completed, checked } = figures;
  return {
    o,
    report,
    json: figuresJson(bench, run, figures),
    figures,
    prodStack: stack.prodStack,
    run,
    code: failed.length > 0 || completed.length === 0 || checked.problems.length > 0 ? 1 : 0,
  };
}

async function main() {
  const { options } = await import("./bench-orders/options.mjs");
  const { codecComparison } = await import("./bench-orders/codec.mjs");
  const { writeOrdersDoc } = await import("./bench-orders/doc.mjs");
  const { c, info } = await import("./lib/log.mjs");
  const o = options();
  // --codec both: the same run twice, codec on then off, and one report comparing them (codec.mjs).
  const out = o.codec === "both" ? await codecComparison(o, runOnce) : await runOnce(o);
  if (o.json) fs.writeFileSync(o.json, JSON.stringify(out.json, null, 2));
  if (o.write) {
    writeOrdersDoc(out.report, o.block);
    info(
      c.dim(
        `figures written to docs/performance.md (<!-- ${o.block}:begin --> … <!-- ${o.block}:end -->)`,
      ),
    );
  } else if (o.codec === "off")
    info(c.dim("--codec off alone writes no block: --codec both writes the comparison"));
  process.exit(out.code);
}

if (!process.env.BENCH_ORDERS_UNDER_TSX) {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_ORDERS_UNDER_TSX: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main().catch(async (e) => {
    console.error(e?.stack ?? e);
    await cleanup?.();
    process.exit(1);
  });
}
