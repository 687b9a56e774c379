/**
 * Staff reports below the page: each report's CSV (streamed by csvResponse from a database cursor)
 * parses back with its columns, formula-like text is neutralised, shipments carry their declared value and
 * tracking; the map's query finds retailers within the radius, nearest first, 100 at a time.
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import {
  brandInventoryReport,
  monthlyMetricsReport,
  repRetailers,
  repTradeTotals,
  retailerBrandsReport,
  retailersNear,
  shipmentInsuranceReport,
} from "../../db/queries/reports";
import { orders, retailerBrands, shipments } from "../../db/schema";
import { formatMonth, formatSortableDateTime } from "../../domain/date-format";
import { listRetailersPage } from "../../db/queries/retailer-admin";
import { csvResponse } from "../../app/utils/csv.server";
import { createBrand, SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { addShipment, createOrder } from "../factories/orders";
import { csvRecords } from "../e2e/csv-parse";
import { useTestDb } from "./helpers";
import { REPORT_COLUMNS } from "./report-columns";

const db = useTestDb();

const read = async (r: Response) => csvRecords(await r.text());

describe('CSV reports in the marketplace time zone (docs/product/windows.md, "Time zone")', () => {
  it("write days and months in the zone passed, not in UTC", async () => {
    const tok = uniqueToken();
    const brand = await createBrand(db, { name: `TZ Brand ${tok}` });
    const r = (await createRetailer(db, { storeName: `TZ Store ${tok}` })).retailer;
    await authorizeBrand(db, r.id, brand.id);
    // 06:30 UTC on 1 March 2026: still 28 February (22:30) in Los Angeles.
    await db
      .update(retailerBrands)
      .set({ createdAt: new Date("2026-03-01T06:30:00.000Z") })
      .where(and(eq(retailerBrands.retailerId, r.id), eq(retailerBrands.brandId, brand.id)));
    const created = async (zone: string) =>
      (await read(csvResponse("rb.csv", retailerBrandsReport(db, zone)))).records.find(
        (x) => x.retailer_id === String(r.id),
      )?.created;
    expect(await created("America/Los_Angeles")).toBe("2026-02-28");
    expect(await created("America/New_York")).toBe("2026-03-01");
    expect(await created("UTC")).toBe("2026-03-01");
  });

  it("write the cells with the one formatter (domain/date-format.ts); the monthly buckets are its months", async () => {
    const tok = uniqueToken();
    const {
      products: [p],
    } = await createWorld(db, {
      brand: { name: `TZ Cells ${tok}` },
      products: [{ sku: `TC${tok}`, sizes: SIZE_RUNS.apparel, colors: 1 }],
    });
    const { retailer: a } = await createRetailer(db, { storeName: `TZ Cells A ${tok}` });
    const { retailer: b } = await createRetailer(db, { storeName: `TZ Cells B ${tok}` });
    // 05:30:07 UTC on 1 January 2031: 21:30:07 on 31 December 2030 in Los Angeles, 00:30:07 on 1 January in New York.
    const at = new Date("2031-01-01T05:30:07.000Z");
    const order = await createOrder(db, {
      providerId: a.id,
      receiverId: b.id,
      statename: "ship_order",
      createdAt: at,
      lines: [{ variationId: p.variations[0].id, sizes: { S: 1 } }],
    });
    const ship = await addShipment(db, order.order, { trackingNumber: `TZ${tok.toUpperCase()}` });
    await db.update(shipments).set({ createdAt: at }).where(eq(shipments.id, ship.id));
    const range = { from: new Date("2030-12-30T00:00:00Z"), to: new Date("2031-01-03T00:00:00Z") };
    for (const zone of ["America/Los_Angeles", "America/New_York", "UTC"]) {
      const ins = await read(csvResponse("s.csv", shipmentInsuranceReport(db, range, zone)));
      expect(ins.records.find((r) => r.shipment_id === String(ship.id))?.created).toBe(
        formatSortableDateTime(at, zone),
      );
      const months = (await read(csvResponse("m.csv", monthlyMetricsReport(db, zone)))).records.map(
        (r) => r.month,
      );
      expect(months).toContain(formatMonth(at, zone));
    }
    expect(formatSortableDateTime(at, "America/Los_Angeles")).toBe("2030-12-31 21:30:07");
    expect(formatMonth(at, "America/Los_Angeles")).toBe("2030-12");
    expect(formatMonth(at, "America/New_York")).toBe("2031-01");
    const laMonths = (
      await read(csvResponse("m.csv", monthlyMetricsReport(db, "America/Los_Angeles")))
    ).records.map((r) => r.month);
    expect(laMonths).not.toContain("2031-01");
  });
});

describe("CSV reports", () => {
  it("shipment insurance, monthly metrics, brand inventory and retailer brands parse back with their columns", async () => {
    const tok = uniqueToken();
    const {
      brand,
      products: [p],
    } = await createWorld(db, {
      brand: { name: `=HYPERLINK("x") ${tok}` },
      products: [{ sku: `R${tok}`, sizes: SIZE_RUNS.apparel, colors: 1 }],
    });
    const { retailer: a } = await createRetailer(db, {
      payout: true,
      storeName: `+Plus Store ${tok}`,
    });
    const { retailer: b } = await createRetailer(db, {
      payout: true,
      storeName: `@At Store ${tok}`,
    });
    await authorizeBrand(db, a.id, brand.id);
    await createListing(db, {
      variationId: p.variations[0].id,
      providerId: a.id,
      sizes: { S: 2, M: 1 },
    });
    const order = await createOrder(db, {
      providerId: a.id,
      receiverId: b.id,
      statename: "ship_order",
      lines: [{ variationId: p.variations[0].id, sizes: { S: 2 }, unitPriceCents: 4250 }],
    });
    const ship = await addShipment(db, order.order, { trackingNumber: `1Z${tok.toUpperCase()}` });

    const day = 24 * 3600_000;
    const ins = await read(
      csvResponse(
        "s.csv",
        shipmentInsuranceReport(
          db,
          { from: new Date(Date.now() - day), to: new Date(Date.now() + day) },
          "UTC",
        ),
      ),
    );
    expect(ins.header).toEqual(REPORT_COLUMNS.shipmentInsurance);
    const line = ins.records.find((r) => r.shipment_id === String(ship.id))!;
    expect(line).toMatchObject({
      tracking_number: `1Z${tok.toUpperCase()}`,
      units: "2",
      declared_value: "85.00",
      sender_store: `'+Plus Store ${tok}`,
      receiver_store: `'@At Store ${tok}`,
      transaction_type: "Sale",
    });

    const inv = await read(csvResponse("b.csv", brandInventoryReport(db)));
    expect(inv.header).toEqual(REPORT_COLUMNS.brandInventory);
    const bl = inv.records.find((r) => r.brand_id === String(brand.id))!;
    expect(bl.brand.startsWith("'=")).toBe(true);
    expect(Number(bl.listings) + Number(bl.hidden_listings)).toBe(1);

    const rb = await read(csvResponse("rb.csv", retailerBrandsReport(db, "UTC")));
    expect(rb.header).toEqual(REPORT_COLUMNS.retailerBrands);
    expect(
      rb.records.find((r) => r.retailer_id === String(a.id) && r.brand_id === String(brand.id)),
    ).toMatchObject({
      status: "authorized",
      store_name: `'+Plus Store ${tok}`,
    });

    const mm = await read(csvResponse("m.csv", monthlyMetricsReport(db, "UTC")));
    expect(mm.header).toEqual(REPORT_COLUMNS.monthlyMetrics);
    const month = new Date().toISOString().slice(0, 7);
    const m = mm.records.find((r) => r.month === month)!;
    expect(Number(m.orders)).toBeGreaterThanOrEqual(1);
    expect(Number(m.active_retailers)).toBeGreaterThanOrEqual(2);
    expect(Number(m.gross_value)).toBeGreaterThanOrEqual(85);
  });
});

describe("sales-rep report and the Choose Retailer list", () => {
  it("a rep's retailers with their activity; the list shows each retailer's own contact e-mail", async () => {
    const tok = uniqueToken();
    const { retailer } = await createRetailer(db, {
      state: "WY",
      storeName: `Rep ${tok}`,
      contact: { email: `c-${tok}@example.test` },
    });
    const rows = await repRetailers(db, ["WY"], new Date(Date.now() - 90 * 24 * 3600_000));
    expect(rows.find((r) => r.id === retailer.id)).toMatchObject({
      storeName: `Rep ${tok}`,
      orders: 0,
      listings: 0,
    });
    const page = await listRetailersPage(db, { statuses: ["active"], q: `Rep ${tok}` });
    expect(page.rows.map((r) => [r.id, r.contactEmail])).toEqual([
      [retailer.id, `c-${tok}@example.test`],
    ]);
    expect((await listRetailersPage(db, { statuses: ["active"], q: `c-${tok}@` })).total).toBe(1);
  });
});

describe("sales-rep totals", () => {
  it("count an order between two of the rep's retailers once, and no RMA as a trade", async () => {
    const tok = uniqueToken();
    const state = "QZ"; // a code no other test's retailers use
    const { brand, products } = await createWorld(db, {
      brand: { name: `Rep totals ${tok}` },
      products: [{ sku: `RT${tok}`, sizes: SIZE_RUNS.apparel, colors: 1 }],
    });
    const p = products[0];
    const { retailer: a } = await createRetailer(db, { state, storeName: `Rep A ${tok}` });
    const { retailer: b } = await createRetailer(db, { state, storeName: `Rep B ${tok}` });
    const order = await createOrder(db, {
      providerId: a.id,
      receiverId: b.id,
      statename: "ship_order",
      lines: [{ variationId: p.variations[0].id, sizes: { S: 2 }, unitPriceCents: 4250 }],
    });
    await db.update(orders).set({ stage: "shipping" }).where(eq(orders.id, order.order.id));
    // A return of it, its parcel on the way back: stage "shipping" too, but not a trade.
    await createOrder(db, {
      providerId: b.id,
      receiverId: a.id,
      statename: "ship_order",
      transactionType: 3,
      stage: "shipping",
      lines: [{ variationId: p.variations[0].id, sizes: { S: 1 }, unitPriceCents: 4250 }],
    });
    const since = new Date(Date.now() - 24 * 3600_000);
    const rows = await repRetailers(db, [state], since);
    expect(
      rows
        .filter((r) => r.storeName.endsWith(tok))
        .map((r) => [r.storeName, r.orders, r.valueCents]),
    ).toEqual([
      [`Rep A ${tok}`, 1, 8500],
      [`Rep B ${tok}`, 1, 8500],
    ]);
    expect(await repTradeTotals(db, [state], since)).toEqual({ orders: 1, valueCents: 8500 });
  });
});

describe("retailer map query", () => {
  it("retailers within the radius, nearest first, a page at a time", async () => {
    const tok = uniqueToken();
    const near = await createRetailer(db, { storeName: `Near ${tok}` });
    const far = await createRetailer(db, { storeName: `Far ${tok}` });
    const { retailers } = await import("../../db/schema");
    const { eq } = await import("drizzle-orm");
    await db
      .update(retailers)
      .set({ latitude: 10.001, longitude: 20.001 })
      .where(eq(retailers.id, near.retailer.id));
    await db
      .update(retailers)
      .set({ latitude: 14, longitude: 20 })
      .where(eq(retailers.id, far.retailer.id)); // ~276 miles north
    const hits = await retailersNear(db, {
      lat: 10,
      lon: 20,
      radiusMiles: 100,
      limit: 100,
      offset: 0,
    });
    expect(hits.map((h) => h.id)).toEqual([near.retailer.id]);
    const wide = await retailersNear(db, {
      lat: 10,
      lon: 20,
      radiusMiles: 500,
      limit: 100,
      offset: 0,
    });
    expect(wide.map((h) => h.id)).toEqual([near.retailer.id, far.retailer.id]);
    expect(wide[1].miles).toBeGreaterThan(270);
    expect(
      (await retailersNear(db, { lat: 10, lon: 20, radiusMiles: 500, limit: 1, offset: 1 })).map(
        (h) => h.id,
      ),
    ).toEqual([far.retailer.id]);
  });
});
