// The money faults of scripts/prod-faults.mjs, after its process faults, on the topology it started; each with
// transactions of its own, clicked through their pages as the load's are (scripts/bench-orders: its set-up,
// purchases and RMAs):
//   payout refused   a purchase whose seller's connected account is gone at the provider (its sandbox object
//                    deleted, as an account closed at Stripe): the payout at pickup is refused (resource_missing)
//   refund refused   a purchase followed by its RMA ("Missing units"), whose charge was refunded in full on the
//                    provider's dashboard before the RMA (the sandbox charge's amount_refunded): the RMA's refund
//                    is refused (amount_too_large)
//   database down    a retailer's payout set-up posted through /getpaid/ (the bank details turned into tokens at
//                    the sandbox's Stripe.js endpoint, as the page's script does), the workers paused until its
//                    workflow has started; as soon as its first step has written (payout_setups "started"),
//                    PostgreSQL (the app's database, the sandbox provider's and Temporal's) is stopped for
//                    --db-down s, then started on the same data; the set-up must finish with one account
//   webhook kill     a purchase whose carrier pickup event is posted to a web process of its own (workers/web.mjs,
//                    its Temporal connection through a proxy that then holds it) and that process SIGKILLed once
//                    the event is stored and its signal is on the way; the worker's relay must deliver it
// The checks (docs/decisions/0042-webhook-inbox.md, 0044-payments-needing-attention.md): each order's end state in
// the read model and its objects at the provider; each held movement open, on staff's "Payments needing
// attention" page and its retailer told (the e-mail, read back from Mailpit, and the alert on /alerts); doubles
// (more provider objects than expected) and lost (a movement neither at the provider nor held, an event not
// delivered, a set-up that did not finish).
import { randomUUID } from "node:crypto";
import { fmtMs, info, step, warn } from "../lib/log.mjs";
import { sleep } from "../lib/proc.mjs";

/** Polls `get` every 500 ms until it returns something truthy; null after `ms`. */
async function until(get, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) return null;
    await sleep(500);
  }
}

/** The e-mails Mailpit received for `to` whose subject starts with `subject`. */
async function mailsTo(mailUi, to, subject) {
  const r = await fetch(`${mailUi}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  if (!r.ok) throw new Error(`Mailpit search answered ${r.status}`);
  const { messages = [] } = await r.json();
  return messages.filter((m) => m.Subject.startsWith(subject));
}

export async function runMoneyFaults({ topology, dbDownS, timeoutMs = 180_000 }) {
  const { HttpClient } = await import("../../tests/e2e/http.ts");
  const F = await import("../../tests/factories/index.ts");
  const { setUp } = await import("../bench-orders/setup.mjs");
  const { runPurchase } = await import("../bench-orders/purchases.mjs");
  const { checkTransactions } = await import("../bench-orders/checks.mjs");
  const { listOpenHeldPayments } = await import("../../db/queries/held-payments.ts");
  const { retailerNoticeAddress } = await import("../../db/queries/order-steps.ts");
  const { sandboxObjectsOfOrders } = await import("../../db/queries/payments.ts");
  const { Client, Connection } = await import("@temporalio/client");

  const tag = `faults-${Date.now().toString(36)}`;
  step(
    `money faults (${tag}): a payout and a refund refused, the database down ${dbDownS} s during a payout set-up, a web process killed between storing and signalling a webhook`,
  );
  const o = {
    orders: 3,
    warmup: 0,
    mix: false,
    swaps: false,
    commandsOnly: false,
    baseUrl: topology.urls.app,
    databaseUrl: topology.urls.database,
    timeoutMs,
    pollMs: 250,
  };
  const bench = await setUp(o, tag);
  const { sql } = bench.dbh;
  // Staff who may open "Payments needing attention" (the set-up's staff may not).
  const { PAYMENTS_ATTENTION_PERMISSION } = await import("../../domain/held-payments.ts");
  const paymentsStaff = new HttpClient(o.baseUrl);
  const staffEmail = `bench-orders-${tag}-payments@bench.test`;
  await F.createStaffUser(bench.dbh.db, {
    email: staffEmail,
    permissions: [PAYMENTS_ATTENTION_PERMISSION],
  });
  await paymentsStaff.signIn(staffEmail, F.DEFAULT_TEST_PASSWORD);
  const [payoutPair, refundPair, webhookPair] = bench.pairs;
  refundPair.kind = "rma";
  refundPair.rmaReason = 2;
  const connection = await Connection.connect({ address: topology.urls.temporal });
  const client = new Client({ connection, namespace: topology.env.TEMPORAL_NAMESPACE });
  const rows = [];
  try {
    // (a) The payout refused: the seller's connected account closed at the provider before the purchase.
    await sql`delete from sandbox_payment_objects where kind = 'account' and id = ${payoutPair.seller.r.btMerchantId}`;
    await runPurchase(bench, payoutPair, false);
    // (b) The refund refused: the purchase's charge refunded in full at the provider before the RMA.
    await runPurchase(bench, refundPair, false, {
      beforeRma: async (ctx) => {
        const changed = await sql`
          update sandbox_payment_objects c set data = jsonb_set(c.data, '{amount_refunded}', pi.data->'amount_received'),
            updated_at = now()
          from sandbox_payment_objects pi
          where pi.kind = 'payment_intent' and pi.data->'metadata'->>'order_id' = ${String(ctx.orderId)}
            and c.id = pi.data->>'latest_charge'`;
        if (changed.count !== 1)
          throw new Error(`order #${ctx.orderId}: no charge to refund at the provider`);
      },
    });
    const clients = new Map(
      bench.pairs.flatMap((p) => [
        [p.seller.r.id, p.seller.http],
        [p.buyer.r.id, p.buyer.http],
      ]),
    );
    const held = await heldRows(bench, paymentsStaff, clients, {
      listOpenHeldPayments,
      retailerNoticeAddress,
      mailUi: topology.urls.mailUi,
    });
    const results = new Map(bench.results.map((r) => [r.i, r]));
    rows.push(
      await payoutRefusedRow(bench, results.get(payoutPair.i), held, sandboxObjectsOfOrders),
      await refundRefusedRow(bench, results.get(refundPair.i), held, sandboxObjectsOfOrders),
    );
    // (c) The web process killed between storing and signalling the carrier's pickup.
    const webhook = { killed: null };
    await runPurchase(bench, webhookPair, false, {
      pickup: (ctx) => pickupThroughKilledWeb(bench, ctx, topology, webhook),
    });
    rows.push(await webhookRow(bench, bench.results.at(-1), webhook, checkTransactions, client));
    // (d) The database down during a payout set-up.
    rows.push(await payoutSetupWithDbDown({ bench, F, HttpClient, topology, client, dbDownS }));
  } finally {
    await connection.close();
    await bench.dbh.close();
  }
  return rows;
}

/**
 * The open held movements as staff's page lists them (the page's query, and the page itself as staff with the
 * permission), each with whether its retailer was told: the e-mail (read back from Mailpit) and the alert on
 * their /alerts (`clients`: retailer id → that retailer's signed-in client).
 */
async function heldRows(
  bench,
  staff,
  clients,
  { listOpenHeldPayments, retailerNoticeAddress, mailUi },
) {
  const { heldKindLabel } = await import("../../domain/held-payments.ts");
  const page = await staff.get("/admin/payments-attention", { follow: true });
  if (page.status !== 200) warn(`/admin/payments-attention answered ${page.status} to staff`);
  const open = await listOpenHeldPayments(bench.dbh.db);
  return Promise.all(
    open.map(async (h) => {
      const to = await retailerNoticeAddress(bench.dbh.db, h.retailerId);
      const subject = `Action needed: a ${heldKindLabel(h.kind).toLowerCase()} is on hold`;
      const mailed = to
        ? await until(async () => (await mailsTo(mailUi, to, subject)).length > 0, 60_000)
        : null;
      const alerts = await clients.get(h.retailerId)?.get("/alerts", { follow: true });
      const alerted = Boolean(
        alerts?.body.includes('data-testid="held-alert"') &&
          alerts.body.includes(`for order ${h.orderExternalId} is on hold.`),
      );
      return {
        ...h,
        onPage: page.body.includes(`data-testid="held-payment" data-payment="${h.paymentId}"`),
        told: Boolean(mailed) && alerted,
        toldText: `${mailed ? `${to} e-mailed` : "no e-mail"}, ${alerted ? "alert on /alerts" : "no alert"}`,
      };
    }),
  );
}

/** "listed, told" of the held movements of `orderId` of `kind`; doubles when more than one is held. */
function heldOf(held, orderId, kind) {
  const mine = held.filter((h) => h.orderId === orderId && h.kind === kind);
  return {
    mine,
    text: mine.length
      ? mine
          .map(
            (h) =>
              `${h.reason}, ${h.onPage ? "on staff's page" : "NOT on staff's page"}, ${h.toldText}`,
          )
          .join("; ")
      : "none",
    ok: mine.length === 1 && mine[0].onPage && mine[0].told,
  };
}

/** Intents, transfers and refunds of an order at the provider, as "1 intent captured, 0 transfers, 0 refunds". */
function providerText(objects) {
  const captured = objects.intents.filter((d) => d.status === "succeeded").length;
  return `${objects.intents.length} intent${objects.intents.length === 1 ? "" : "s"} (${captured} captured), ${objects.transfers.length} transfer(s), ${objects.refunds.length} refund(s)`;
}

/** A fault's row before its checks. */
const faultRow = (fault) => ({ fault, ok: false, doubles: 0, lost: 0 });

/** The row of a fault whose transaction did not complete (its step and answer): lost. */
const notCompleted = (row, r) => ({
  ...row,
  order: `#${r?.orderId ?? "?"}`,
  end: `failed: ${r?.error ?? "not run"}`,
  lost: 1,
});

async function orderRow(sql, id) {
  const [r] =
    await sql`select o.id, o.statename, o.stage, (select count(*) from ratings r where r.order_id = o.id)::int as ratings from orders o where o.id = ${id}`;
  return r ?? null;
}

async function payoutRefusedRow(bench, r, held, sandboxObjectsOfOrders) {
  const row = faultRow("provider refuses a payout (seller's account closed)");
  if (!r?.ok) return notCompleted(row, r);
  const order = await orderRow(bench.dbh.sql, r.orderId);
  const objects = (await sandboxObjectsOfOrders(bench.dbh.db, [r.orderId])).get(r.orderId);
  const h = heldOf(held, r.orderId, "transfer");
  const captured = objects.intents.filter((d) => d.status === "succeeded").length;
  row.doubles =
    Math.max(0, captured - 1) +
    objects.transfers.length +
    objects.refunds.length +
    Math.max(0, h.mine.length - 1);
  row.lost = captured < 1 || h.mine.length + objects.transfers.length === 0 ? 1 : 0;
  return {
    ...row,
    order: `#${r.orderId}`,
    end: `${order?.statename}, ${order?.ratings} rating`,
    provider: providerText(objects),
    held: h.text,
    ok:
      order?.statename === "delivered" &&
      order.ratings === 1 &&
      h.ok &&
      row.doubles === 0 &&
      row.lost === 0,
  };
}

async function refundRefusedRow(bench, r, held, sandboxObjectsOfOrders) {
  const row = faultRow("provider refuses an RMA's refund (charge refunded at the provider)");
  if (!r?.ok) return notCompleted(row, r);
  const [order, rma] = [
    await orderRow(bench.dbh.sql, r.orderId),
    await orderRow(bench.dbh.sql, r.rmaId),
  ];
  const objects = await sandboxObjectsOfOrders(bench.dbh.db, [r.orderId, r.rmaId]);
  const [p, m] = [objects.get(r.orderId), objects.get(r.rmaId)];
  const h = heldOf(held, r.rmaId, "refund");
  const pCaptured = p.intents.filter((d) => d.status === "succeeded").length;
  row.doubles =
    Math.max(0, pCaptured - 1) +
    Math.max(0, p.transfers.length - 1) +
    p.refunds.length +
    m.refunds.length +
    Math.max(0, m.intents.length - 1) +
    Math.max(0, h.mine.length - 1);
  row.lost =
    pCaptured < 1 ||
    p.transfers.length < 1 ||
    m.intents.length < 1 ||
    h.mine.length + m.refunds.length === 0
      ? 1
      : 0;
  return {
    ...row,
    order: `#${r.orderId}, RMA #${r.rmaId}`,
    end: `${order?.statename}, ${order?.ratings} rating; RMA ${rma?.stage}`,
    provider: `purchase ${providerText(p)}; RMA: ${m.intents.length} charge(s), ${m.refunds.length} refund(s)`,
    held: h.text,
    ok:
      order?.statename === "delivered" &&
      rma?.stage === "rmacompleted" &&
      h.ok &&
      row.doubles === 0 &&
      row.lost === 0,
  };
}

/**
 * The parcel's pickup event posted to a web process of our own whose Temporal connection is then held, the
 * process SIGKILLed once the event is stored and its signal is on the way; then waits until the worker's relay
 * has delivered it and the order is in_route in the read model (where staff's simulated pickup would have put it).
 */
async function pickupThroughKilledWeb(bench, ctx, topology, out) {
  const { freePort, holdingProxy, WebProcess } = await import(
    "../../tests/e2e/reliability-helpers.ts"
  );
  const { signCarrierEvent, CARRIER_SIGNATURE_HEADER } = await import(
    "../../activities/carrier/signature.ts"
  );
  const { buildCarrierEvent } = await import("../../domain/carrier-events.ts");
  const [shipment] = await bench.dbh
    .sql`select tracking_number from shipments where order_id = ${ctx.orderId} and tracking_number is not null`;
  if (!shipment) throw new Error(`order #${ctx.orderId}: no tracking number to scan`);
  const proxy = await holdingProxy(topology.urls.temporal);
  const web = new WebProcess(await freePort(), {
    ...topology.env,
    TEMPORAL_ADDRESS: proxy.address,
  });
  const eventId = `evt_faults_${Date.now().toString(36)}`;
  out.eventId = `carrier:${eventId}`;
  out.orderId = ctx.orderId;
  try {
    await web.start(120_000);
    proxy.hold();
    const raw = JSON.stringify(
      buildCarrierEvent({
        eventId,
        trackingNumber: shipment.tracking_number,
        shipmentId: null,
        status: "picked_up",
        occurredAt: new Date().toISOString(),
      }),
    );
    const posted = fetch(`http://127.0.0.1:${web.port}/webhooks/carrier`, {
      method: "POST",
      body: raw,
      headers: {
        "content-type": "application/json",
        [CARRIER_SIGNATURE_HEADER]: signCarrierEvent(raw, topology.env.CARRIER_WEBHOOK_SECRET),
      },
    }).then(
      (r) => `${r.status}`,
      () => "no answer",
    );
    const inbox = async () =>
      (
        await bench.dbh
          .sql`select processed_at, outcome, attempts from webhook_events where id = ${out.eventId}`
      )[0];
    if (!(await until(inbox, 30_000))) throw new Error("the pickup event was not stored");
    if (!(await until(async () => proxy.heldBytes() > 0, 30_000)))
      throw new Error("the pickup event's signal never left the web process");
    await web.kill();
    out.killed = { answer: await posted, row: await inbox() };
    info(
      `web process killed after storing ${out.eventId}, before its signal (the sender's answer: ${out.killed.answer})`,
    );
    const t = Date.now();
    const delivered = await until(async () => (await inbox())?.outcome === "delivered", 120_000);
    const moved = await until(
      async () => (await orderRow(bench.dbh.sql, ctx.orderId))?.statename === "in_route",
      60_000,
    );
    out.deliveredMs = Date.now() - t;
    if (!delivered || !moved)
      throw new Error(`the stored pickup event did not reach order #${ctx.orderId}`);
  } finally {
    await web.kill();
    await proxy.close();
  }
}

async function webhookRow(bench, r, webhook, checkTransactions, client) {
  const row = faultRow("web process killed between storing and signalling a webhook");
  if (!r?.ok) return notCompleted(row, r);
  const order = `#${r.orderId}`;
  const checked = await checkTransactions(bench.dbh, [r]);
  const history = await client.workflow.getHandle(`buy-order:${r.orderId}`).fetchHistory();
  const signals = (history.events ?? []).filter(
    (e) => e.workflowExecutionSignaledEventAttributes?.signalName === "carrierEvent",
  ).length;
  const [ev] = await bench.dbh
    .sql`select outcome, attempts from webhook_events where id = ${webhook.eventId}`;
  const o = await orderRow(bench.dbh.sql, r.orderId);
  const objects = (
    await (
      await import("../../db/queries/payments.ts")
    ).sandboxObjectsOfOrders(bench.dbh.db, [r.orderId])
  ).get(r.orderId);
  // Two carrier events reach the order: the pickup (through the relay) and staff's delivery.
  row.doubles = checked.doubles + Math.max(0, signals - 2);
  row.lost = ev?.outcome === "delivered" ? 0 : 1;
  return {
    ...row,
    order,
    end: `${o?.statename}, ${o?.ratings} rating; the sender had ${webhook.killed?.answer ?? "?"}; the event ${ev?.outcome ?? "missing"} by the relay ${fmtMs(webhook.deliveredMs ?? 0)} after the kill (attempt ${ev?.attempts}), ${signals} carrier signals`,
    provider: providerText(objects),
    held: "none (nothing refused)",
    ok: checked.ok === 1 && row.doubles === 0 && row.lost === 0 && signals === 2,
    note: checked.problems.join("; "),
  };
}

const STATUS = ["UNSPECIFIED", "RUNNING", "COMPLETED", "FAILED", "CANCELED", "TERMINATED"];

/** A workflow's status by name (DescribeWorkflowExecution, without decoding its memo: the payload codec's). */
async function statusOf(client, workflowId) {
  const d = await client.workflowService.describeWorkflowExecution({
    namespace: client.options.namespace,
    execution: { workflowId },
  });
  const s = d.workflowExecutionInfo?.status ?? 0;
  return STATUS[s] ?? `status ${s}`;
}

/** "at the stop: <activities> done, <activity> running" at `t` (ms), from the workflow's history. */
async function stepsAround(handle, t) {
  const history = await handle.fetchHistory();
  const ms = (e) =>
    Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
  const typeOf = new Map();
  const done = [];
  const running = new Set();
  for (const e of history.events ?? []) {
    if (ms(e) >= t) break;
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      typeOf.set(String(e.eventId), scheduled.activityType?.name);
      running.add(String(e.eventId));
    }
    const ended =
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes;
    if (ended) {
      const id = String(ended.scheduledEventId);
      running.delete(id);
      done.push(typeOf.get(id));
    }
  }
  const now = [...running].map((id) => typeOf.get(id));
  return `at the stop: ${done.length ? `${done.join(", ")} done` : "no step done"}, ${now.length ? `${now.join(", ")} running` : "none running"}`;
}

/** The payout set-up posted through the page, PostgreSQL stopped once its workflow has started, for `dbDownS`. */
async function payoutSetupWithDbDown({ bench, F, HttpClient, topology, client, dbDownS }) {
  const { payoutDetailsSchema } = await import("../../domain/payout.ts");
  const { payoutSetupWorkflowId } = await import("../../workflows/payout/contract.ts");
  const { validPayoutForm } = await import("../../tests/factories/payout.ts");
  const { accountTokenData, bankAccountTokenData, personTokenData, PAYOUT_TOKEN_FIELDS } =
    await import("../../domain/payout-tokens.ts");
  const { sql } = bench.dbh;
  const row = faultRow(`PostgreSQL stopped ${fmtMs(dbDownS * 1000)} during a payout set-up`);
  const email = `${bench.pairs[0].seller.email.replace(/seller\d+@/, "setup@")}`;
  const { retailer } = await F.createRetailer(bench.dbh.db, { payout: false, user: { email } });
  const http = new HttpClient(topology.urls.app);
  await http.signIn(email, F.DEFAULT_TEST_PASSWORD);
  const details = payoutDetailsSchema.parse({
    ...validPayoutForm,
    buslegal_name: `Faults ${retailer.id} LLC`,
  });
  const tokens = {};
  for (const [kind, data] of [
    ["account", accountTokenData(details)],
    ["person", personTokenData(details)],
    ["bank_account", bankAccountTokenData(details)],
  ]) {
    const r = await http.postRaw(
      "/sandbox/v1/tokens",
      JSON.stringify({ kind, data }),
      "application/json",
    );
    if (r.status !== 200)
      throw new Error(`/sandbox/v1/tokens answered ${r.status}: ${r.body.slice(0, 200)}`);
    tokens[PAYOUT_TOKEN_FIELDS[kind]] = JSON.parse(r.body).token.id;
  }
  // The workers paused (SIGSTOP) while the page starts the set-up, then resumed, and the database stopped as soon
  // as the set-up's first step has written (payout_setups "started"): so that it goes down in the middle of the
  // set-up (the provider's account being made), not after its end (the whole set-up takes well under a second).
  const workers = Object.entries(topology.processes).filter(([name]) => name.startsWith("worker-"));
  const submissionId = randomUUID();
  const workflowId = payoutSetupWorkflowId(retailer.id, submissionId);
  for (const [, w] of workers) w.kill("SIGSTOP");
  const t0 = Date.now();
  const posted = http
    .postForm("/getpaid/", {
      first_name: details.first_name,
      last_name: details.last_name,
      email: details.email,
      street_address: details.street_address,
      locality: details.locality,
      region: details.region,
      postal_code: details.postal_code,
      buslegal_name: details.buslegal_name,
      busstreet_address: details.busstreet_address,
      buslocality: details.buslocality,
      busregion: details.busregion,
      buspostal_code: details.buspostal_code,
      ...tokens,
      bustax_id_last4: details.bustax_id.slice(-4),
      tos_accepted: "on",
      submission_id: submissionId,
    })
    .then(
      (r) => `${r.status}${r.location ? ` → ${r.location}` : ""}`,
      (e) => `no answer (${e.message})`,
    );
  const started = await until(() => statusOf(client, workflowId), 60_000);
  if (!started) {
    for (const [, w] of workers) w.kill("SIGCONT");
    return {
      ...row,
      order: `retailer #${retailer.id}`,
      end: `the set-up never started (the page: ${await posted})`,
      lost: 1,
    };
  }
  for (const [, w] of workers) w.kill("SIGCONT");
  const tResumed = Date.now();
  while (
    Date.now() - tResumed < 30_000 &&
    !(await sql`select 1 from payout_setups where workflow_id = ${workflowId}`).length
  )
    await sleep(5);
  step(
    `PostgreSQL stopped for ${dbDownS} s (the set-up ${workflowId} started ${fmtMs(tResumed - t0)} after the post, the workers resumed ${fmtMs(Date.now() - tResumed)} before)`,
  );
  const tStop = Date.now();
  await topology.restartPostgres(dbDownS * 1000);
  info(`PostgreSQL back after ${fmtMs(Date.now() - tStop)}`);
  const answer = await posted;
  const handle = client.workflow.getHandle(workflowId);
  const tBack = Date.now();
  const outcome = await until(async () => {
    const status = await statusOf(client, workflowId);
    return status === "RUNNING" ? null : status;
  }, 600_000);
  const finishedMs = Date.now() - tBack;
  const at = await stepsAround(handle, tStop).catch((e) => `history not read: ${e.message}`);
  const [r] = await sql`select bt_merchant_id from retailers where id = ${retailer.id}`;
  const accounts =
    await sql`select id from sandbox_payment_objects where kind = 'account' and data->'metadata'->>'retailerId' = ${String(retailer.id)}`;
  const [profile] =
    await sql`select retailer_id from payout_profiles where retailer_id = ${retailer.id}`;
  row.doubles = Math.max(0, accounts.length - 1);
  row.lost = outcome === "COMPLETED" && profile && r?.bt_merchant_id ? 0 : 1;
  return {
    ...row,
    order: `retailer #${retailer.id}'s set-up`,
    end: `${outcome ?? "still running"} ${fmtMs(finishedMs)} after the database was back (${at}); the page answered ${answer}; profile ${profile ? "saved" : "missing"}`,
    provider: `${accounts.length} connected account(s)${accounts.length === 1 && accounts[0].id === r?.bt_merchant_id ? ", the retailer's" : ""}`,
    held: "none (nothing refused)",
    ok:
      outcome === "COMPLETED" &&
      accounts.length === 1 &&
      accounts[0].id === r?.bt_merchant_id &&
      Boolean(profile),
  };
}
