// Every run checks each completed transaction in the read model and at the payment provider, whose sandbox keeps
// every object it made (sandbox_payment_objects): intents by metadata.order_id, transfers by transfer_group,
// refunds by metadata.order_id (an RMA's refund names the RMA). Expected:
// - buy: its purchase delivered and rated; one intent, captured once in full; one transfer; no refund; ledger balanced.
// - offer: as a buy, its intent the offer's hold (the order's authorisation row names it: an offer's hold carries
//   the offer's id in its metadata, not the order's).
// - approval: as a buy, and the order keeps who of the buyer's store approved it (orders.approved_by_user_id).
// - swap: rated by both sides; three intents (the receiver's pre-authorisation cancelled, each side's payment
//   captured once, of the dues its ledger shows); one transfer of the cash difference (none when even); no refund.
// - rma: its purchase as a buy; the RMA rmacompleted with one refund on the purchase's intent and one charge of
//   the perpetrator (an intent captured at once), of the amounts the RMA's ledger shows; no transfer.
// More objects than expected is a double; fewer, or another amount, a miss: both are problems
// (docs/product/money.md).

/** How the report names each kind, and what the check expects of it. */
export const KIND_TEXT = {
  buy: "purchases",
  offer: "purchases by an offer",
  approval: "purchases over the buyer's limit",
  swap: "swaps",
  rma: "purchases with an RMA",
};
export const CHECK_TEXT = {
  buy: "a purchase delivered and rated, one payment intent captured once in full, one transfer, no refund, its ledger balanced",
  offer:
    "a purchase by an offer as a purchase, its one intent the offer's hold (captured once in full at the agreed price)",
  approval:
    "a purchase over its buyer's limit as a purchase, approved by the store's approver (kept on the order)",
  swap: "a swap rated by both sides, three intents (the pre-authorisation cancelled, each side's payment captured once, of the ledger's dues), one transfer of the cash difference, no refund",
  rma: "an RMA completed, with its purchase as above plus one refund on the purchase's intent and one charge of the perpetrator, both of the RMA ledger's amounts",
};

const PURCHASE = { intents: 1, captured: 1, cancelled: 0, transfers: 1, refunds: 0 };
// A swap's transfer: the cash difference, paid out to the side with the larger goods (none when even).
const swapWanted = (ledger) => ({
  intents: 3,
  captured: 2,
  cancelled: 1,
  transfers: !ledger?.callItEven && ledger?.differenceCents > 0 ? 1 : 0,
  refunds: 0,
});
const RMA = { intents: 1, captured: 1, cancelled: 0, transfers: 0, refunds: 1 };

/** The provider's objects of an order, counted. */
function counted({ intents: xs, transfers, refunds }) {
  return {
    intents: xs.length,
    captured: xs.filter((d) => d.status === "succeeded" && d.amount_received === d.amount).length,
    cancelled: xs.filter((d) => d.status === "canceled").length,
    transfers: transfers.length,
    refunds: refunds.length,
  };
}

/** The swap's ratings, and its amounts at the provider against its ledger's. */
function checkSwap(t, order, objects) {
  if (!order || order.ratings < 2)
    t.problems.push(`${t.what}: ${order?.ratings ?? 0} ratings, not 2`);
  const ledger = order?.ledger ?? {};
  t.expect(t.r.orderId, t.what, swapWanted(ledger));
  // The provider's amounts are the ledger's: each side's payment its due, the transfer the difference.
  const paid = objects.intents
    .filter((d) => d.status === "succeeded")
    .map((d) => d.amount_received)
    .sort((a, b) => a - b);
  const due = [ledger.providerDueCents, ledger.receiverDueCents].sort((a, b) => a - b);
  if (paid.join() !== due.join())
    t.problems.push(
      `${t.what}: the sides paid ${paid.join(" and ")}, the ledger says ${due.join(" and ")}`,
    );
  const sent = objects.transfers.map((d) => d.amount);
  if (sent.length === 1 && sent[0] !== ledger.differenceCents)
    t.problems.push(
      `${t.what}: transferred ${sent[0]}, the ledger's difference is ${ledger.differenceCents}`,
    );
}

/** The RMA's stage, and its refund and charge at the provider against its ledger's. */
function checkRma(t, rma, objects, purchaseObjects) {
  const { r } = t;
  const name = `RMA #${r.rmaId} of order #${r.orderId}`;
  if (!rma || rma.stage !== "rmacompleted")
    t.problems.push(`${name}: stage ${rma?.stage ?? "no row"}, not rmacompleted`);
  t.expect(r.rmaId, name, RMA);
  const refund = objects.refunds[0];
  const charge = objects.intents[0];
  const purchaseIntent = purchaseObjects.intents[0];
  const ledger = rma?.ledger ?? {};
  if (
    refund &&
    (refund.amount !== ledger.victimRefundCents || refund.payment_intent !== purchaseIntent?.id)
  )
    t.problems.push(
      `${name}: refund of ${refund.amount} on ${refund.payment_intent}, the ledger says ${ledger.victimRefundCents} on ${purchaseIntent?.id}`,
    );
  if (charge && charge.amount !== ledger.perpetratorChargeCents)
    t.problems.push(
      `${name}: charge of ${charge.amount}, the ledger says ${ledger.perpetratorChargeCents}`,
    );
}

/** One transaction's problems; `double` when the provider holds more objects than expected. */
function checkOne(r, rows, objects) {
  const order = rows.get(r.orderId);
  const t = {
    r,
    what: r.kind === "swap" ? `swap #${r.orderId}` : `order #${r.orderId}`,
    problems: [],
    double: false,
  };
  t.expect = (id, name, want) => {
    const got = counted(objects.get(id));
    const bad = Object.keys(want).filter((k) => got[k] !== want[k]);
    if (bad.length)
      t.problems.push(
        `${name}: at the provider ${bad.map((b) => `${b} ${got[b]} (expected ${want[b]})`).join(", ")}`,
      );
    if (bad.some((b) => got[b] > want[b])) t.double = true;
  };
  if (r.kind === "swap") checkSwap(t, order, objects.get(r.orderId));
  else {
    if (!order || !["delivered", "completed"].includes(order.statename) || order.ratings < 1)
      t.problems.push(`${t.what}: ${order?.statename ?? "no row"}, ${order?.ratings ?? 0} ratings`);
    if (order?.ledger?.balanced !== true) t.problems.push(`${t.what}: its ledger does not balance`);
    t.expect(r.orderId, t.what, PURCHASE);
    if (r.kind === "approval" && !order?.approved_by_user_id)
      t.problems.push(`${t.what}: no approver kept on the order`);
  }
  if (r.kind === "rma")
    checkRma(t, rows.get(r.rmaId), objects.get(r.rmaId), objects.get(r.orderId));
  return t;
}

/** Each completed transaction (results of kind buy, swap or rma): { ok, doubles, problems, kinds: { kind: { n, ok } } }. */
export async function checkTransactions(dbh, done) {
  const out = { ok: 0, doubles: 0, problems: [], kinds: {} };
  if (!done.length) return out;
  const ids = [...done.map((r) => r.orderId), ...done.filter((r) => r.rmaId).map((r) => r.rmaId)];
  const rows = new Map(
    (
      await dbh.sql`select o.id, o.statename, o.stage, o.ledger, o.approved_by_user_id, (select count(*) from ratings r where r.order_id = o.id)::int as ratings from orders o where o.id = any(${ids})`
    ).map((r) => [r.id, r]),
  );
  // The provider's objects of each order, as the reliability tests read them (db/queries/payments).
  const { sandboxObjectsOfOrders } = await import("../../db/queries/payments.ts");
  const objects = await sandboxObjectsOfOrders(dbh.db, ids); // an entry (maybe empty lists) for every id
  // A purchase by an offer: its intent is the offer's hold, named by the order's authorisation row.
  const offerIds = done.filter((r) => r.kind === "offer").map((r) => r.orderId);
  if (offerIds.length)
    for (const h of await dbh.sql`select p.order_id, s.data from payments p join sandbox_payment_objects s on s.id = p.provider_ref where p.txtype = 'authorization' and p.order_id = any(${offerIds})`)
      objects.get(h.order_id).intents.push(h.data);
  for (const r of done) {
    const k = (out.kinds[r.kind] ??= { n: 0, ok: 0 });
    k.n += 1;
    const t = checkOne(r, rows, objects);
    if (t.double) out.doubles += 1;
    if (t.problems.length) out.problems.push(...t.problems);
    else {
      out.ok += 1;
      k.ok += 1;
    }
  }
  return out;
}
