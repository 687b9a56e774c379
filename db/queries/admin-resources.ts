/**
 * The SQL of the generic staff screens (ADR 0020; docs/product/screens.md, "Staff: generic lists and forms"): one adapter per resource of
 * domain/resources maps its field names to columns; list (paged, searched, sorted), read, create, update,
 * delete, activate, chooser options and the export's keyset pages are written once for all of them.
 */
import { and, asc, count, desc, eq, gt, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  EXPORT_CHUNK,
  getResource,
  LIST_PAGE_SIZE,
  type ResourceName,
  type ResourceValues,
} from "../../domain/resources";
import type { Db } from "../client";
import { dbErrorCode } from "../errors";
import {
  brandRequests,
  brands,
  categories,
  collections,
  companies,
  listingRequests,
  listings,
  productVariations,
  products,
  retailerBrands,
  retailerContacts,
  retailers,
  salesReps,
  variationImages,
} from "../schema";
import { MAX_ROW_ID, rowIdOf } from "../../domain/ids";

type Row = Record<string, unknown>;

type Adapter = {
  table: PgTable;
  id: AnyPgColumn;
  /** Field name -> column (relationship fields: the foreign key). */
  columns: Record<string, AnyPgColumn>;
  /** Text columns the search box looks in (an all-digit search also matches the id). */
  search: AnyPgColumn[];
  /** Id columns an all-digit search also matches (besides the row's own id): "Search by id or retailer id". */
  searchIds?: AnyPgColumn[];
  /** What a chooser and a list cell show for a row. */
  label: SQL;
  /** Chooser filters by URL parameter (brand=3, is_valid=true): a column compared to the value, or a predicate of it. */
  filters?: Record<string, AnyPgColumn | ((v: string) => SQL)>;
  hasActive?: AnyPgColumn;
  /** Columns a write sets besides the fields (denormalised keys), or field errors. */
  derive?: (
    db: Db,
    values: ResourceValues,
  ) => Promise<{ set: Row } | { errors: Record<string, string> }>;
};

const ok = (set: Row = {}) => ({ set });

/** The brand of a collection or product row (undefined when there is no such row): what a child row must belong to. */
async function brandOf(
  db: Db,
  t: typeof collections | typeof products,
  id: number,
): Promise<number | undefined> {
  const [row] = await db.select({ brandId: t.brandId }).from(t).where(eq(t.id, id)).limit(1);
  return row?.brandId;
}

const ADAPTERS: Record<ResourceName, Adapter> = {
  brand: {
    table: brands,
    id: brands.id,
    columns: {
      id: brands.id,
      name: brands.name,
      display_name: brands.displayName,
      business_model: brands.businessModel,
      segments: brands.segments,
      price_tier: brands.priceTier,
      company: brands.companyId,
      alias: brands.alias,
      is_valid: brands.isValid,
      staff_comments: brands.staffComments,
      is_active: brands.isActive,
    },
    search: [brands.name, brands.displayName],
    label: sql`${brands.displayName}`,
    filters: { is_valid: brands.isValid },
    hasActive: brands.isActive,
  },
  company: {
    table: companies,
    id: companies.id,
    columns: {
      id: companies.id,
      name: companies.name,
      first_name: companies.firstName,
      last_name: companies.lastName,
      job_title: companies.jobTitle,
      phone: companies.phone,
      celphone: companies.celphone,
      email: companies.email,
      address1: companies.address1,
      address2: companies.address2,
      city: companies.city,
      state: companies.state,
      postal_code: companies.postalCode,
      country: companies.country,
    },
    search: [companies.name, companies.email],
    label: sql`${companies.name}`,
  },
  collection: {
    table: collections,
    id: collections.id,
    columns: {
      id: collections.id,
      brand: collections.brandId,
      year: collections.year,
      name: collections.name,
      subbrand: collections.subbrand,
      is_active: collections.isActive,
    },
    search: [collections.name, collections.subbrand],
    label: sql`${collections.year}::text || ' ' || ${collections.name} || case when ${collections.subbrand} <> '' then ' (' || ${collections.subbrand} || ')' else '' end`,
    filters: { brand: collections.brandId },
    hasActive: collections.isActive,
  },
  category: {
    table: categories,
    id: categories.id,
    columns: { id: categories.id, name: categories.name, parent: categories.parentId },
    search: [categories.name],
    label: sql`${categories.name}`,
  },
  product: {
    table: products,
    id: products.id,
    columns: {
      id: products.id,
      brand: products.brandId,
      collection: products.collectionId,
      sku: products.sku,
      display_name: products.displayName,
      description: products.description,
      price: products.priceCents,
      category: products.categoryId,
      is_active: products.isActive,
    },
    search: [products.sku, products.displayName],
    label: sql`${products.sku} || ' ' || ${products.displayName}`,
    filters: { brand: products.brandId, collection: products.collectionId },
    hasActive: products.isActive,
    derive: async (db, v) => {
      const brandId = await brandOf(db, collections, Number(v.collection));
      if (brandId !== undefined && brandId !== v.brand)
        return { errors: { collection: "This collection is not one of the chosen brand's." } };
      return ok();
    },
  },
  productvariation: {
    table: productVariations,
    id: productVariations.id,
    columns: {
      id: productVariations.id,
      product: productVariations.productId,
      sku: productVariations.sku,
      color: productVariations.color,
      price: productVariations.priceCents,
      is_active: productVariations.isActive,
    },
    search: [productVariations.sku, productVariations.color],
    label: sql`${productVariations.sku} || ' ' || ${productVariations.color}`,
    filters: { product: productVariations.productId, brand: productVariations.brandId },
    hasActive: productVariations.isActive,
    derive: async (db, v) => {
      const brandId = await brandOf(db, products, Number(v.product));
      return ok(brandId !== undefined ? { brandId } : {});
    },
  },
  retailer: {
    table: retailers,
    id: retailers.id,
    columns: {
      id: retailers.id,
      store_name: retailers.storeName,
      store_email: retailers.storeEmail,
      store_phone: retailers.storePhone,
      business_name: retailers.businessName,
      address1: retailers.address1,
      city: retailers.city,
      state: retailers.state,
      postal_code: retailers.postalCode,
      resale_number: retailers.resaleNumber,
      segments: retailers.segments,
      price_tier: retailers.priceTier,
      status: retailers.status,
      position: retailers.position,
      bt_merchant_id: retailers.btMerchantId,
      created: retailers.createdAt,
    },
    search: [retailers.storeName, retailers.storeEmail],
    label: sql`${retailers.storeName}`,
    filters: { status: retailers.status },
  },
  retailercontact: {
    table: retailerContacts,
    id: retailerContacts.id,
    columns: {
      id: retailerContacts.id,
      retailer: retailerContacts.retailerId,
      first_name: retailerContacts.firstName,
      last_name: retailerContacts.lastName,
      email: retailerContacts.email,
      job_title: retailerContacts.jobTitle,
      job_title_other: retailerContacts.jobTitleOther,
      phone: retailerContacts.phone,
      celphone: retailerContacts.celphone,
      address1: retailerContacts.address1,
      city: retailerContacts.city,
      state: retailerContacts.state,
      postal_code: retailerContacts.postalCode,
    },
    search: [retailerContacts.firstName, retailerContacts.lastName, retailerContacts.email],
    label: sql`${retailerContacts.firstName} || ' ' || ${retailerContacts.lastName}`,
    filters: { retailer: retailerContacts.retailerId },
  },
  retailerbrand: {
    table: retailerBrands,
    id: retailerBrands.id,
    columns: {
      id: retailerBrands.id,
      retailer: retailerBrands.retailerId,
      brand: retailerBrands.brandId,
      status: retailerBrands.status,
      created: retailerBrands.createdAt,
    },
    search: [],
    searchIds: [retailerBrands.retailerId],
    label: sql`${retailerBrands.retailerId}::text || ' / ' || ${retailerBrands.brandId}::text`,
    filters: { retailer: retailerBrands.retailerId, brand: retailerBrands.brandId },
  },
  brandrequest: {
    table: brandRequests,
    id: brandRequests.id,
    columns: {
      id: brandRequests.id,
      retailer: brandRequests.retailerId,
      brand_name: brandRequests.brandName,
      brand: brandRequests.brandId,
      brand_purchase_amount: brandRequests.brandPurchaseAmountCents,
      your_interest_in_this_brand: brandRequests.yourInterestInThisBrand,
      brand_contact_email: brandRequests.brandContactEmail,
      brand_contact_name: brandRequests.brandContactName,
      status: brandRequests.status,
    },
    search: [brandRequests.brandName],
    label: sql`${brandRequests.brandName}`,
    filters: { retailer: brandRequests.retailerId },
  },
  listing: {
    table: listings,
    id: listings.id,
    columns: {
      id: listings.id,
      provider: listings.providerId,
      productvariation: listings.variationId,
      brand: listings.brandId,
      listing_type: listings.listingType,
      status: listings.status,
      total_units: listings.totalUnits,
      price: listings.priceCents,
      created: listings.createdAt,
    },
    search: [listings.skuKey],
    label: sql`'listing ' || ${listings.id}::text`,
    filters: {
      status: listings.status,
      provider: listings.providerId,
      brand: listings.brandId,
      // A listing with units left (0 units = deleted or sold out: docs/product/orders.md, "Listings and requests").
      in_stock: (v) =>
        v === "true"
          ? gt(listings.totalUnits, 0)
          : v === "false"
            ? eq(listings.totalUnits, 0)
            : sql`false`,
    },
  },
  request: {
    table: listingRequests,
    id: listingRequests.id,
    columns: {
      id: listingRequests.id,
      requestor: listingRequests.requestorId,
      productvariation: listingRequests.variationId,
      brand: listingRequests.brandId,
      total_units: listingRequests.totalUnits,
      price: listingRequests.priceCents,
      created: listingRequests.createdAt,
    },
    search: [listingRequests.skuKey],
    label: sql`'request ' || ${listingRequests.id}::text`,
    filters: { requestor: listingRequests.requestorId, brand: listingRequests.brandId },
  },
  salesrep: {
    table: salesReps,
    id: salesReps.id,
    columns: {
      id: salesReps.id,
      territory_name: salesReps.territoryName,
      first_name: salesReps.firstName,
      last_name: salesReps.lastName,
      states: salesReps.states,
    },
    search: [salesReps.territoryName, salesReps.firstName, salesReps.lastName],
    label: sql`${salesReps.territoryName} || ' (' || ${salesReps.firstName} || ' ' || ${salesReps.lastName} || ')'`,
  },
};

/** The WHERE of a search: the id when all digits, else a case-insensitive substring of the text columns. */
function searchWhere(a: Adapter, search: string | undefined): SQL | undefined {
  const q = (search ?? "").trim();
  if (!q) return undefined;
  const id = rowIdOf(q);
  const byId = id !== null ? [a.id, ...(a.searchIds ?? [])].map((c) => eq(c, id)) : [];
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const texts = a.search.map((c) => ilike(c, pattern));
  return or(...byId, ...texts) ?? sql`false`;
}

/**
 * Filters by parameter name (only the adapter's own; others are ignored). A value is compared in the column's
 * own type, so the column's indexes serve it; a value the type cannot hold (an id that is not a number, a
 * status that does not exist) matches nothing instead of failing the query.
 */
function filterWhere(a: Adapter, filters: Record<string, string> | undefined): SQL[] {
  const out: SQL[] = [];
  for (const [k, v] of Object.entries(filters ?? {})) {
    const col = a.filters?.[k];
    if (col && v !== "") out.push(typeof col === "function" ? col(v) : filterValue(col, v));
  }
  return out;
}

function filterValue(col: AnyPgColumn, v: string): SQL {
  if (col.enumValues?.length) return col.enumValues.includes(v) ? eq(col, v) : sql`false`;
  if (col.dataType === "number")
    return /^\d{1,10}$/.test(v) && Number(v) <= MAX_ROW_ID ? eq(col, Number(v)) : sql`false`;
  if (col.dataType === "string") return eq(col, v);
  return sql`${col}::text = ${v}`;
}

export type ListQuery = {
  page: number;
  search?: string;
  sort?: string;
  dir?: "asc" | "desc";
  filters?: Record<string, string>;
};
/** `count` is exact up to COUNT_CAP; past it `capped` is true (the list says "10,000+" and pages on with Next). */
export type ListResult = {
  rows: Row[];
  count: number;
  capped?: boolean;
  labels: Record<string, Record<number, string>>;
};

/** Counting 200,000 rows on every page costs more than the page itself: counts stop here. */
export const COUNT_CAP = 10_000;

function listedColumns(name: ResourceName): Record<string, AnyPgColumn> {
  const a = ADAPTERS[name];
  const def = getResource(name)!;
  const cols: Record<string, AnyPgColumn> = { id: a.id };
  for (const f of def.fields) if (f.list && a.columns[f.name]) cols[f.name] = a.columns[f.name];
  if (a.hasActive) cols.is_active = a.hasActive;
  return cols;
}

/** Labels of the related rows of these rows' relationship fields: { field: { id: label } }. */
async function relationLabels(
  db: Db,
  name: ResourceName,
  rows: Row[],
): Promise<Record<string, Record<number, string>>> {
  const out: Record<string, Record<number, string>> = {};
  for (const f of getResource(name)!.fields) {
    if (f.type !== "field" || !f.relationship_resource) continue;
    const ids = [
      ...new Set(rows.map((r) => r[f.name]).filter((v): v is number => typeof v === "number")),
    ];
    out[f.name] = ids.length
      ? await labelsFor(db, f.relationship_resource as ResourceName, ids)
      : {};
  }
  return out;
}

export async function labelsFor(
  db: Db,
  name: ResourceName,
  ids: number[],
): Promise<Record<number, string>> {
  const a = ADAPTERS[name];
  const rows = await db
    .select({ id: sql<number>`${a.id}`, label: sql<string>`${a.label}` })
    .from(a.table)
    .where(inArray(a.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.label]));
}

/** One page (LIST_PAGE_SIZE rows) of the generic list, with the total and the related rows' labels. */
export async function listResource(db: Db, name: ResourceName, q: ListQuery): Promise<ListResult> {
  const a = ADAPTERS[name];
  const def = getResource(name)!;
  const where = and(searchWhere(a, q.search), ...filterWhere(a, q.filters));
  const sortField = def.fields.find((f) => f.name === q.sort && f.sortable);
  const sortCol = sortField ? a.columns[sortField.name] : a.id;
  const dir = q.dir === "asc" ? asc : desc;
  // Deferred join: the offset walks the sort's index for ids only, then the page's 50 rows are read by id, so a
  // deep page (offset 199,950) skips rows without reading their columns.
  const [rows, [{ n }]] = await Promise.all([
    db
      .select(listedColumns(name))
      .from(a.table)
      .where(
        inArray(
          a.id,
          db
            .select({ id: a.id })
            .from(a.table)
            .where(where)
            .orderBy(dir(sortCol), dir(a.id))
            .limit(LIST_PAGE_SIZE)
            .offset(Math.max(0, q.page - 1) * LIST_PAGE_SIZE),
        ),
      )
      .orderBy(dir(sortCol), dir(a.id)),
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(a.table)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as("capped"),
    ),
  ]);
  const capped = n > COUNT_CAP;
  return {
    rows: rows as Row[],
    count: capped ? COUNT_CAP : n,
    capped,
    labels: await relationLabels(db, name, rows as Row[]),
  };
}

/**
 * The export's pages: rows of every field with a column, by id, EXPORT_CHUNK at a time (keyset, so memory
 * stays at one chunk whatever the table's size), each with the labels of its relationships.
 */
export async function* exportResource(
  db: Db,
  name: ResourceName,
  q: Pick<ListQuery, "search" | "filters">,
): AsyncGenerator<ListResult> {
  const a = ADAPTERS[name];
  let after = 0;
  for (;;) {
    const rows = (await db
      .select(a.columns)
      .from(a.table)
      .where(and(gt(a.id, after), searchWhere(a, q.search), ...filterWhere(a, q.filters)))
      .orderBy(asc(a.id))
      .limit(EXPORT_CHUNK)) as Row[];
    if (rows.length === 0) return;
    yield { rows, count: rows.length, labels: await relationLabels(db, name, rows) };
    if (rows.length < EXPORT_CHUNK) return;
    after = rows[rows.length - 1].id as number;
  }
}

/** One row, every field with a column, plus labels of its relationships and (variations) its images. */
export async function getResourceRow(
  db: Db,
  name: ResourceName,
  id: number,
): Promise<{ row: Row; labels: Record<string, Record<number, string>> } | null> {
  const a = ADAPTERS[name];
  const rows = (await db.select(a.columns).from(a.table).where(eq(a.id, id)).limit(1)) as Row[];
  if (!rows[0]) return null;
  const row = rows[0];
  if (name === "productvariation") {
    row.images = await db
      .select({
        id: variationImages.id,
        url: variationImages.url,
        thumbnailUrl: variationImages.thumbnailUrl,
      })
      .from(variationImages)
      .where(eq(variationImages.variationId, id))
      .orderBy(asc(variationImages.position), asc(variationImages.id));
  }
  return { row, labels: await relationLabels(db, name, rows) };
}

export type SaveResult =
  | { ok: true; id: number }
  | { ok: false; errors: Record<string, string>; formError?: string };

/** The related rows must exist (a foreign key would refuse them with an exception). */
async function missingRelations(
  db: Db,
  name: ResourceName,
  values: ResourceValues,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const f of getResource(name)!.fields) {
    const v = values[f.name];
    if (f.type !== "field" || f.read_only || typeof v !== "number") continue;
    const target = ADAPTERS[f.relationship_resource as ResourceName];
    const hit = await db
      .select({ id: sql`1` })
      .from(target.table)
      .where(eq(target.id, v))
      .limit(1);
    if (hit.length === 0) errors[f.name] = "That choice does not exist.";
  }
  return errors;
}

/** Field values (already validated by the resource's Zod schema) to column values. */
function toColumns(name: ResourceName, values: ResourceValues): Row {
  const a = ADAPTERS[name];
  const set: Row = {};
  for (const [field, v] of Object.entries(values)) {
    const col = a.columns[field];
    if (!col || field === "id") continue;
    const key = Object.entries(a.table).find(([, c]) => c === col)?.[0];
    if (!key) continue;
    // Blank optional text stays "" where the column is NOT NULL text.
    set[key] = v === null && col.notNull && col.columnType === "PgText" ? "" : v;
  }
  return set;
}

/** Creates (id null) or updates a row; field errors instead of an exception for what the database refuses. */
export async function saveResource(
  db: Db,
  name: ResourceName,
  id: number | null,
  values: ResourceValues,
): Promise<SaveResult> {
  const a = ADAPTERS[name];
  const missing = await missingRelations(db, name, values);
  if (Object.keys(missing).length) return { ok: false, errors: missing };
  const derived = a.derive ? await a.derive(db, values) : ok();
  if ("errors" in derived) return { ok: false, errors: derived.errors };
  const set = { ...toColumns(name, values), ...derived.set };
  try {
    if (id === null) {
      const [row] = (await db.insert(a.table).values(set).returning({ id: a.id })) as {
        id: number;
      }[];
      return { ok: true, id: row.id };
    }
    const rows = (await db
      .update(a.table)
      .set(set)
      .where(eq(a.id, id))
      .returning({ id: a.id })) as { id: number }[];
    if (rows.length === 0)
      return { ok: false, errors: {}, formError: "That row no longer exists." };
    return { ok: true, id };
  } catch (e) {
    const code = dbErrorCode(e);
    if (code === "23505")
      return { ok: false, errors: {}, formError: "A row with these values already exists." };
    if (code === "23503")
      return { ok: false, errors: {}, formError: "A related row does not exist." };
    if (code === "23514" || code === "22P02" || code === "22003")
      return { ok: false, errors: {}, formError: "The database refused these values." };
    throw e;
  }
}

/** Deletes a row; false when other rows still need it (orders, ...), so it is kept. Null when absent. */
export async function deleteResource(
  db: Db,
  name: ResourceName,
  id: number,
): Promise<boolean | null> {
  const a = ADAPTERS[name];
  try {
    const rows = await db.delete(a.table).where(eq(a.id, id)).returning({ id: a.id });
    return rows.length > 0 ? true : null;
  } catch (e) {
    if (dbErrorCode(e) === "23503") return false;
    throw e;
  }
}

/** Activate / deactivate; false when the resource has no is_active or the row is absent. */
export async function setResourceActive(
  db: Db,
  name: ResourceName,
  id: number,
  active: boolean,
): Promise<boolean> {
  const a = ADAPTERS[name];
  if (!a.hasActive) return false;
  const key = Object.entries(a.table).find(([, c]) => c === a.hasActive)![0];
  const rows = await db
    .update(a.table)
    .set({ [key]: active })
    .where(eq(a.id, id))
    .returning({ id: a.id });
  return rows.length > 0;
}

/** Chooser suggestions: id and display_name, searched and filtered, at most `limit`. */
export async function chooserOptions(
  db: Db,
  name: ResourceName,
  q: { search?: string; filters?: Record<string, string>; limit: number },
): Promise<{ id: number; display_name: string }[]> {
  const a = ADAPTERS[name];
  const rows = await db
    .select({ id: sql<number>`${a.id}`, display_name: sql<string>`${a.label}` })
    .from(a.table)
    .where(and(searchWhere(a, q.search), ...filterWhere(a, q.filters)))
    .orderBy(sql`${a.label}`, asc(a.id))
    .limit(q.limit);
  return rows;
}

export type VariationSummary = {
  id: number;
  productId: number;
  sku: string;
  color: string;
  priceCents: number;
  isActive: boolean;
};

/** The columns of a VariationSummary (the product rows' variations, the variation editor). */
export const variationSummaryColumns = {
  id: productVariations.id,
  productId: productVariations.productId,
  sku: productVariations.sku,
  color: productVariations.color,
  priceCents: productVariations.priceCents,
  isActive: productVariations.isActive,
};

/** The variations of these products (the expandable product rows), inactive ones included. */
export async function variationsOfProducts(
  db: Db,
  productIds: number[],
): Promise<VariationSummary[]> {
  if (productIds.length === 0) return [];
  return db
    .select(variationSummaryColumns)
    .from(productVariations)
    .where(inArray(productVariations.productId, productIds))
    .orderBy(asc(productVariations.productId), asc(productVariations.id));
}

/**
 * The add-variation modal (option, value and price required): a variation of the product
 * with options { [option]: value }, its colour the value when the option is a colour, the product's sku.
 */
export async function addVariation(
  db: Db,
  productId: number,
  input: { option: string; value: string; priceCents: number },
): Promise<number | null> {
  const [p] = await db
    .select({ sku: products.sku, brandId: products.brandId })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  if (!p) return null;
  const [v] = await db
    .insert(productVariations)
    .values({
      productId,
      brandId: p.brandId,
      sku: p.sku,
      color: input.value,
      priceCents: input.priceCents,
      options: { [input.option]: input.value },
    })
    .returning({ id: productVariations.id });
  return v.id;
}

/** 'activate all' / 'deactivate all' of the brand admin's Products tab: every product of one collection. */
export async function setCollectionProductsActive(
  db: Db,
  collectionId: number,
  active: boolean,
): Promise<number> {
  const rows = await db
    .update(products)
    .set({ isActive: active })
    .where(eq(products.collectionId, collectionId))
    .returning({ id: products.id });
  return rows.length;
}
