import type { DbOrTx } from "../../db/client";
import {
  createBrand,
  createCollection,
  createProduct,
  SIZE_RUNS,
  type BrandRow,
  type CollectionRow,
  type CreateBrandInput,
  type CreateCollectionInput,
  type CreatedProduct,
  type CreatedVariation,
  type CreateProductInput,
} from "./catalogue";
import {
  authorizeBrand,
  createRetailer,
  type CreatedRetailer,
  type CreateRetailerInput,
} from "./retailers";

/** One product of a world: what createProduct takes, less the collection (the world's own). */
export type WorldProductInput = Omit<CreateProductInput, "collectionId" | "brandId">;

/** A retailer of a world: what createRetailer takes, and whether it may trade the world's brand. */
export type WorldRetailerInput = CreateRetailerInput & { authorized?: boolean };

export interface WorldInput<R extends string> {
  brand?: CreateBrandInput;
  collection?: Omit<CreateCollectionInput, "brandId">;
  /** One product each, in order, as createProduct makes it (default: one apparel product in one colour). */
  products?: WorldProductInput[];
  /** The retailers by the name the test calls them, created in order after the catalogue. */
  retailers?: Record<R, WorldRetailerInput>;
}

export interface World<R extends string> {
  brand: BrandRow;
  collection: CollectionRow;
  products: CreatedProduct[];
  /** The first product's first colour: the variation most tests list and buy. */
  variation: CreatedVariation;
  retailers: Record<R, CreatedRetailer>;
}

const ONE_PRODUCT: WorldProductInput[] = [{ sizes: SIZE_RUNS.apparel, colors: 1 }];

/**
 * The catalogue world a test file starts from: a brand, its collection, its products and the retailers
 * that trade them (authorized for the brand when `authorized` is set). Everything is created through the
 * same factories db/seed.ts uses, in that order.
 */
export async function createWorld<R extends string = never>(
  db: DbOrTx,
  input: WorldInput<R> = {},
): Promise<World<R>> {
  const brand = await createBrand(db, input.brand);
  const collection = await createCollection(db, { ...input.collection, brandId: brand.id });
  const products: CreatedProduct[] = [];
  for (const product of input.products ?? ONE_PRODUCT)
    products.push(
      await createProduct(db, { ...product, collectionId: collection.id, brandId: brand.id }),
    );
  const retailers = {} as Record<R, CreatedRetailer>;
  for (const [name, spec] of Object.entries(input.retailers ?? {}) as [R, WorldRetailerInput][]) {
    const { authorized, ...retailer } = spec;
    retailers[name] = await createRetailer(db, retailer);
    if (authorized) await authorizeBrand(db, retailers[name].retailer.id, brand.id);
  }
  return { brand, collection, products, variation: products[0].variations[0], retailers };
}
