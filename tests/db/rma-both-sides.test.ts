/**
 * A retailer's RMAs from both sides (db/queries/rmas.ts listRetailerRmas, rmasOfOrderFor;
 * docs/product/screens.md, "My returns"): each RMA is listed for its victim and its perpetrator with the side,
 * the other party's id, the original order's number, and what the viewer is refunded or charged once staff
 * decided; the status filter and the pages; an outsider sees none.
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { listRetailerRmas, markRmaSeenByPerpetrator, rmasOfOrderFor } from "../../db/queries/rmas";
import { orders } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { uniqueToken } from "../factories";
import { addOrderAction } from "../factories/orders";
import { createRmaSides, createSwapRmaSides, DECIDED_LEDGER } from "../factories/rma-sides";
import { useTestDb } from "./helpers";

const db = useTestDb(2);

describe("listRetailerRmas", () => {
  test("lists the victim's and the perpetrator's RMAs with side, other party, original order and amount", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    const mine = await listRetailerRmas(db, f.buyerId);
    expect(mine.total).toBe(4);
    const byId = new Map(mine.items.map((r) => [r.id, r]));
    expect(byId.get(f.rmas[0].id)).toMatchObject({
      role: "victim",
      otherId: f.sellerId,
      rmaForId: f.sales[0].id,
      rmaForExternalId: f.sales[0].externalId,
      stage: "rmarequested",
      amountCents: null,
    });
    expect(byId.get(f.rmas[1].id)).toMatchObject({
      role: "victim",
      stage: "shipping",
      amountCents: DECIDED_LEDGER.victimRefundCents,
    });
    expect(byId.get(f.rmas[3].id)).toMatchObject({
      role: "perpetrator",
      otherId: f.sellerId,
      rmaForExternalId: f.sales[3].externalId,
    });
    // The newest change first: the decided RMA was changed last.
    expect(mine.items[0].id).toBe(f.rmas[1].id);

    const seller = await listRetailerRmas(db, f.sellerId);
    expect(seller.total).toBe(4);
    const decided = seller.items.find((r) => r.id === f.rmas[1].id);
    expect(decided).toMatchObject({
      role: "perpetrator",
      otherId: f.buyerId,
      amountCents: DECIDED_LEDGER.perpetratorChargeCents,
    });
    expect(seller.items.filter((r) => r.role === "victim").map((r) => r.id)).toEqual([
      f.rmas[3].id,
    ]);

    expect(await listRetailerRmas(db, f.outsiderId)).toMatchObject({ total: 0, items: [] });
  });

  test("the status filter selects stages; pages do not overlap", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    const ids = async (filter: Parameters<typeof listRetailerRmas>[2]) =>
      (await listRetailerRmas(db, f.sellerId, filter)).items.map((r) => r.id);
    expect(await ids({ filter: "shipping" })).toEqual([f.rmas[1].id]);
    expect((await ids({ filter: "rmarequested" })).sort()).toEqual(
      [f.rmas[0].id, f.rmas[2].id, f.rmas[3].id].sort(),
    );
    expect((await ids({ filter: "open" })).length).toBe(4);
    expect(await ids({ filter: "rmacompleted" })).toEqual([]);
    const first = await listRetailerRmas(db, f.sellerId, { limit: 3 });
    const second = await listRetailerRmas(db, f.sellerId, { limit: 3, offset: 3 });
    expect([first.items.length, second.items.length, first.total]).toEqual([3, 1, 4]);
    expect(new Set([...first.items, ...second.items].map((r) => r.id)).size).toBe(4);
  });
});

describe("a swap whose two sides each filed an RMA", () => {
  test("each side lists both: its own as victim, the other's as perpetrator", async () => {
    const f = await createSwapRmaSides(db, uniqueToken().toUpperCase());
    const [provider, receiver] = f.rmas;
    const sides = async (retailerId: number) =>
      (await listRetailerRmas(db, retailerId)).items
        .map((r) => ({ id: r.id, role: r.role, otherId: r.otherId, rmaForId: r.rmaForId }))
        .sort((a, b) => a.id - b.id);
    expect(await sides(f.providerId)).toEqual([
      { id: provider.id, role: "victim", otherId: f.receiverId, rmaForId: f.swap.id },
      { id: receiver.id, role: "perpetrator", otherId: f.receiverId, rmaForId: f.swap.id },
    ]);
    expect(await sides(f.receiverId)).toEqual([
      { id: provider.id, role: "perpetrator", otherId: f.providerId, rmaForId: f.swap.id },
      { id: receiver.id, role: "victim", otherId: f.providerId, rmaForId: f.swap.id },
    ]);
    // The swap's page links each side to both RMAs of the order.
    expect((await rmasOfOrderFor(db, f.swap.id, f.providerId)).map((r) => [r.id, r.role])).toEqual([
      [provider.id, "victim"],
      [receiver.id, "perpetrator"],
    ]);
  });
});

describe("the perpetrator's RMA alerts", () => {
  test("an unseen step of an RMA filed against the retailer alerts it until it opens the RMA; the victim's visit clears nothing", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    const [rma] = await db.select().from(orders).where(eq(orders.id, f.rmas[0].id));
    const alerts = async (retailerId: number) =>
      (await listRetailerRmas(db, retailerId, { alerts: true })).items.map((r) => r.id);
    expect(await alerts(f.sellerId)).toEqual([]);
    await addOrderAction(db, rma, { code: ACTION.RMA_REQUESTED, role: "provider" });
    expect(await alerts(f.sellerId)).toEqual([rma.id]);
    // The victim has no alert of its own RMA and cannot mark the perpetrator's seen.
    expect(await alerts(f.buyerId)).toEqual([]);
    expect(await markRmaSeenByPerpetrator(db, f.buyerId, rma.id)).toBe(0);
    expect(await alerts(f.sellerId)).toEqual([rma.id]);
    expect(await markRmaSeenByPerpetrator(db, f.sellerId, rma.id)).toBe(1);
    expect(await alerts(f.sellerId)).toEqual([]);
    // Staff's decision is news again; the perpetrator's own steps are not.
    await addOrderAction(db, rma, { code: ACTION.PAYMENT_CAPTURED, role: "receiver" });
    expect(await alerts(f.sellerId)).toEqual([]);
    await addOrderAction(db, rma, { code: ACTION.RMA_APPROVED, role: "staff" });
    expect(await alerts(f.sellerId)).toEqual([rma.id]);
    expect(await alerts(f.outsiderId)).toEqual([]);
  });
});

describe("rmasOfOrderFor", () => {
  test("an order's RMA for its victim and its perpetrator; nothing for an outsider", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.buyerId)).toMatchObject([
      { id: f.rmas[0].id, role: "victim" },
    ]);
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.sellerId)).toMatchObject([
      { id: f.rmas[0].id, role: "perpetrator" },
    ]);
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.outsiderId)).toEqual([]);
  });
});
