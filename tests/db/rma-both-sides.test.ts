/**
 * A retailer's RMAs from both sides (db/queries/rmas.ts listRetailerRmas, rmasOfOrderFor;
 * docs/product/screens.md, "My returns"): each RMA is listed for its victim and its perpetrator with the side,
 * the other party's id, the original order's number, and what the viewer is refunded or charged once staff
 * decided; the status filter and the pages; an outsider sees none.
 */
import { describe, expect, test } from "vitest";
import { listRetailerRmas, rmasOfOrderFor } from "../../db/queries/rmas";
import { uniqueToken } from "../factories";
import { createRmaSides, DECIDED_LEDGER } from "../factories/rma-sides";
import { openTestDb } from "./helpers";

const handle = openTestDb(2);
const db = handle.db;

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
    expect(byId.get(f.rmas[1].id)).toMatchObject({ role: "victim", stage: "shipping", amountCents: DECIDED_LEDGER.victimRefundCents });
    expect(byId.get(f.rmas[3].id)).toMatchObject({ role: "perpetrator", otherId: f.sellerId, rmaForExternalId: f.sales[3].externalId });
    // The newest change first: the decided RMA was changed last.
    expect(mine.items[0].id).toBe(f.rmas[1].id);

    const seller = await listRetailerRmas(db, f.sellerId);
    expect(seller.total).toBe(4);
    const decided = seller.items.find((r) => r.id === f.rmas[1].id);
    expect(decided).toMatchObject({ role: "perpetrator", otherId: f.buyerId, amountCents: DECIDED_LEDGER.perpetratorChargeCents });
    expect(seller.items.filter((r) => r.role === "victim").map((r) => r.id)).toEqual([f.rmas[3].id]);

    expect(await listRetailerRmas(db, f.outsiderId)).toMatchObject({ total: 0, items: [] });
  });

  test("the status filter selects stages; pages do not overlap", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    const ids = async (filter: Parameters<typeof listRetailerRmas>[2]) =>
      (await listRetailerRmas(db, f.sellerId, filter)).items.map((r) => r.id);
    expect(await ids({ filter: "shipping" })).toEqual([f.rmas[1].id]);
    expect((await ids({ filter: "rmarequested" })).sort()).toEqual([f.rmas[0].id, f.rmas[2].id, f.rmas[3].id].sort());
    expect((await ids({ filter: "open" })).length).toBe(4);
    expect(await ids({ filter: "rmacompleted" })).toEqual([]);
    const first = await listRetailerRmas(db, f.sellerId, { limit: 3 });
    const second = await listRetailerRmas(db, f.sellerId, { limit: 3, offset: 3 });
    expect([first.items.length, second.items.length, first.total]).toEqual([3, 1, 4]);
    expect(new Set([...first.items, ...second.items].map((r) => r.id)).size).toBe(4);
  });
});

describe("rmasOfOrderFor", () => {
  test("an order's RMA for its victim and its perpetrator; nothing for an outsider", async () => {
    const f = await createRmaSides(db, uniqueToken().toUpperCase());
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.buyerId)).toMatchObject([{ id: f.rmas[0].id, role: "victim" }]);
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.sellerId)).toMatchObject([{ id: f.rmas[0].id, role: "perpetrator" }]);
    expect(await rmasOfOrderFor(db, f.sales[0].id, f.outsiderId)).toEqual([]);
  });
});
