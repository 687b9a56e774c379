// The validation tools fed by real data (docs/product/screens.md, "Staff: validation tools"; ADR
// 0032): brand requests and registration brands become external brands (one per normalised name) and
// staff's match settles the requests; a saved upload's product codes new to the brand become catalogue
// entries, and staff's decision updates the product its line made.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  addUploadEntries,
  listUnresolvedEntries,
  resolveEntry,
} from "../../db/queries/catalogue-entries";
import { createCollectionUpload, saveCollectionUpload } from "../../db/queries/collection-uploads";
import { brandForTypedName, normaliseBrandName } from "../../db/queries/external-brands";
import { listOutbox } from "../../db/queries/outbox";
import { saveBrandsStep } from "../../db/queries/retailers";
import { createBrandRequestForRetailer } from "../../db/queries/settings";
import {
  acceptBrand,
  isExternalBrand,
  listExternalBrands,
  mapBrand,
} from "../../db/queries/validation";
import { brandRequests, brands, catalogueEntries, products, retailerBrands } from "../../db/schema";
import type { UploadRow } from "../../domain/catalogue-upload";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { createRetailer } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { useTestDb } from "./helpers";

const db = useTestDb();

async function retailer(status: "pending" | "active") {
  const email = `vf-${uniqueToken()}@example.test`;
  const r = await createRetailer(db, { status, user: { email } });
  return { id: r.retailer.id, email };
}

const requestsOf = (retailerId: number) =>
  db.select().from(brandRequests).where(eq(brandRequests.retailerId, retailerId));
const links = (retailerId: number) =>
  db.select().from(retailerBrands).where(eq(retailerBrands.retailerId, retailerId));
const mailKinds = async (email: string) =>
  (await listOutbox(db, { toEmail: email })).map((m) => m.kind);

describe("external brands from brand requests and registration", () => {
  it("a typed name becomes one external brand per normalised name, remembering each request and where it was typed", async () => {
    const tok = uniqueToken();
    expect(normaliseBrandName(`  Zed   Wear ${tok} `)).toBe(`Zed Wear ${tok}`);
    const a = await retailer("active");
    const b = await retailer("pending");
    const req = await createBrandRequestForRetailer(db, a.id, {
      brandName: `  Zed   Wear ${tok} `,
    });
    await saveBrandsStep(db, b.id, [{ brandName: `zed wear ${tok.toUpperCase()}` }]);
    const [fromRegistration] = await requestsOf(b.id);
    expect(req.brandId).not.toBeNull();
    expect(fromRegistration.brandId).toBe(req.brandId);
    expect(req.source).toBe("request");
    expect(fromRegistration.source).toBe("registration");
    const [ext] = await db.select().from(brands).where(eq(brands.id, req.brandId!));
    expect(ext).toMatchObject({ name: `Zed Wear ${tok}`, isValid: false, isActive: true });
    expect(await isExternalBrand(db, ext.id)).toBe(true);
    const card = (await listExternalBrands(db)).find((x) => x.id === ext.id);
    expect(card?.requests.map((q) => [q.requestId, q.source, q.status])).toEqual([
      [req.id, "request", "requested"],
      [fromRegistration.id, "registration", "requested"],
    ]);
  });

  it("a name of a brand we carry is matched to it; blank names make nothing", async () => {
    const known = await createBrand(db, { name: `Known ${uniqueToken()}` });
    const a = await retailer("active");
    const req = await createBrandRequestForRetailer(db, a.id, {
      brandName: ` ${known.name.toUpperCase()}`,
    });
    expect(req.brandId).toBe(known.id);
    expect(await isExternalBrand(db, known.id)).toBe(false);
    expect(await brandForTypedName(db, "   ")).toBeNull();
  });

  it("Add Brand: the active requester is authorized and told; the pending one's request waits for activation", async () => {
    const tok = uniqueToken();
    const active = await retailer("active");
    const pending = await retailer("pending");
    const req = await createBrandRequestForRetailer(db, active.id, { brandName: `Accept ${tok}` });
    await saveBrandsStep(db, pending.id, [{ brandName: `accept ${tok}` }]);
    await acceptBrand(db, req.brandId!);
    expect((await db.select().from(brands).where(eq(brands.id, req.brandId!)))[0].isValid).toBe(
      true,
    );
    expect((await links(active.id)).map((l) => [l.brandId, l.status])).toEqual([
      [req.brandId, "authorized"],
    ]);
    expect((await requestsOf(active.id))[0].status).toBe("authorized");
    expect(await mailKinds(active.email)).toEqual(["retailer_brand_authorized"]);
    expect(await links(pending.id)).toEqual([]);
    expect((await requestsOf(pending.id))[0]).toMatchObject({
      status: "requested",
      brandId: req.brandId,
    });
    expect(await mailKinds(pending.email)).toEqual([]);
  });

  it("Change to Existing Brand: the requests move to the valid brand, the requester is authorized for it; the name now reads that brand", async () => {
    const tok = uniqueToken();
    const target = await createBrand(db, { name: `Target ${tok}` });
    const active = await retailer("active");
    const req = await createBrandRequestForRetailer(db, active.id, { brandName: `Typo ${tok}` });
    expect(await mapBrand(db, req.brandId!, target.id)).toBe(true);
    expect((await requestsOf(active.id))[0]).toMatchObject({
      brandId: target.id,
      status: "authorized",
    });
    expect((await links(active.id)).map((l) => l.brandId)).toEqual([target.id]);
    expect(await mailKinds(active.email)).toEqual(["retailer_brand_authorized"]);
    const later = await retailer("active");
    expect(
      (await createBrandRequestForRetailer(db, later.id, { brandName: `TYPO ${tok}` })).brandId,
    ).toBe(target.id);
    // Mapping onto an invalid brand or itself is refused and changes nothing.
    const other = await createBrandRequestForRetailer(db, later.id, { brandName: `Other ${tok}` });
    expect(await mapBrand(db, other.brandId!, other.brandId!)).toBe(false);
    expect(await isExternalBrand(db, other.brandId!)).toBe(true);
  });
});

function row(line: number, sku: string, color = "Red"): UploadRow {
  return {
    line,
    sku,
    displayName: `Style ${sku}`,
    description: "from the sheet",
    color,
    priceCents: 2100,
    sizes: ["S"],
    images: [],
    problems: [],
  };
}

async function savedUpload(collectionId: number, rows: UploadRow[]) {
  const uploadId = await createCollectionUpload(db, {
    collectionId,
    uploadedBy: 0,
    fileName: "f.zip",
    rows,
    images: {},
  });
  expect(await saveCollectionUpload(db, collectionId, uploadId)).toMatchObject({ ok: true });
  return uploadId;
}

const entriesOfUpload = (uploadId: number) =>
  db.select().from(catalogueEntries).where(eq(catalogueEntries.uploadId, uploadId));

describe("catalogue entries from collection uploads", () => {
  it("a saved upload's codes new to the brand become entries (its upload, line, brand and product); known codes do not", async () => {
    const tok = uniqueToken().toUpperCase();
    const brand = await createBrand(db);
    const old = await createCollection(db, { brandId: brand.id, name: "Fall" });
    const carried = await createProduct(db, { collectionId: old.id, sku: `AB-${tok}` });
    const col = await createCollection(db, { brandId: brand.id });
    const uploadId = await savedUpload(col.id, [
      row(2, `ab ${tok}`),
      row(3, `NEW${tok}`),
      row(4, `NEW${tok}`, "Blue"),
    ]);
    const entries = await entriesOfUpload(uploadId);
    expect(entries).toHaveLength(1);
    const [made] = await db
      .select()
      .from(products)
      .where(and(eq(products.collectionId, col.id), eq(products.sku, `NEW${tok}`)));
    expect(entries[0]).toMatchObject({
      brandId: brand.id,
      brandName: brand.displayName,
      sku: `NEW${tok}`,
      name: `Style NEW${tok}`,
      priceCents: 2100,
      uploadLine: 3,
      initialProductId: made.id,
      resolvedAt: null,
    });
    const listed = (await listUnresolvedEntries(db)).find((e) => e.id === entries[0].id);
    expect(listed).toMatchObject({
      uploadId,
      uploadLine: 3,
      uploadFile: "f.zip",
      initialProductId: made.id,
    });
    // Candidates: the brand's products, the one the upload made left out.
    expect(listed?.matches.map((m) => m.productId)).toContain(carried.product.id);
    expect(listed?.matches.map((m) => m.productId)).not.toContain(made.id);
    // The same code loaded again in another collection: known now, no second entry; one entry per code anyway.
    const spring = await createCollection(db, { brandId: brand.id, name: "Next" });
    expect(await entriesOfUpload(await savedUpload(spring.id, [row(2, `new-${tok}`)]))).toEqual([]);
    await addUploadEntries(db, brand.id, uploadId, [
      {
        productId: made.id,
        sku: `N.E.W.${tok}`,
        line: 9,
        name: "x",
        description: "",
        priceCents: 1,
        image: "",
      },
    ]);
    expect(await entriesOfUpload(uploadId)).toHaveLength(1);
  });

  async function entryWithProduct() {
    const tok = uniqueToken().toUpperCase();
    const brand = await createBrand(db);
    const col = await createCollection(db, { brandId: brand.id });
    const uploadId = await savedUpload(col.id, [row(2, `E${tok}`)]);
    const [entry] = await entriesOfUpload(uploadId);
    return entry;
  }
  const entry = async (id: number) =>
    (await db.select().from(catalogueEntries).where(eq(catalogueEntries.id, id)))[0];
  const productActive = async (id: number) =>
    (await db.select().from(products).where(eq(products.id, id)))[0].isActive;

  it("Validate: the upload's product is the entry's, still active; a second decision is refused", async () => {
    const e = await entryWithProduct();
    expect(await resolveEntry(db, e.id, { intent: "validate" })).toBe("ok");
    expect(await entry(e.id)).toMatchObject({
      resolution: "validated",
      resolvedProductId: e.initialProductId,
    });
    expect(await productActive(e.initialProductId!)).toBe(true);
    expect(await resolveEntry(db, e.id, { intent: "reject" })).toBe("no-entry");
    expect(await entry(e.id)).toMatchObject({ resolution: "validated" });
  });

  it("This is the product: matched to another product, the upload's duplicate switched off; its own product or an unknown one refused", async () => {
    const e = await entryWithProduct();
    const col = await createCollection(db, { brandId: e.brandId! });
    const other = await createProduct(db, { collectionId: col.id });
    expect(await resolveEntry(db, e.id, { intent: "match", productId: e.initialProductId! })).toBe(
      "no-product",
    );
    expect(await resolveEntry(db, e.id, { intent: "match", productId: 2_000_000_000 })).toBe(
      "no-product",
    );
    expect(await entry(e.id)).toMatchObject({ resolvedAt: null, resolution: null });
    expect(await resolveEntry(db, e.id, { intent: "match", productId: other.product.id })).toBe(
      "ok",
    );
    expect(await entry(e.id)).toMatchObject({
      resolution: "matched",
      resolvedProductId: other.product.id,
    });
    expect(await productActive(e.initialProductId!)).toBe(false);
    expect(await productActive(other.product.id)).toBe(true);
  });

  it("Reject: the upload's product switched off; an entry with no product cannot be validated; unknown entries refused", async () => {
    const e = await entryWithProduct();
    expect(await resolveEntry(db, e.id, { intent: "reject" })).toBe("ok");
    expect(await entry(e.id)).toMatchObject({ resolution: "rejected", resolvedProductId: null });
    expect(await productActive(e.initialProductId!)).toBe(false);
    const [bare] = await db
      .insert(catalogueEntries)
      .values({ brandName: "b", name: "n" })
      .returning();
    expect(await resolveEntry(db, bare.id, { intent: "validate" })).toBe("no-initial");
    expect(await entry(bare.id)).toMatchObject({ resolvedAt: null });
    expect(await resolveEntry(db, 2_000_000_000, { intent: "reject" })).toBe("no-entry");
  });
});
