import type { DbOrTx } from "../../db/client";
import {
  brands,
  collections,
  companies,
  productSizes,
  products,
  productVariations,
  variationImages,
} from "../../db/schema";
import { placeholderImage, uniqueToken } from "./util";

export type BrandRow = typeof brands.$inferSelect;
export type CollectionRow = typeof collections.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type ProductSizeRow = typeof productSizes.$inferSelect;
export type VariationRow = typeof productVariations.$inferSelect;
export type VariationImageRow = typeof variationImages.$inferSelect;

export interface CreateBrandInput {
  name?: string;
  displayName?: string;
  businessModel?: string;
  segments?: string[];
  priceTier?: string;
  /** Creates a company (the brand's owner, with a contact) when given. */
  company?: Partial<typeof companies.$inferInsert> & { name: string };
  isActive?: boolean;
}

export async function createBrand(db: DbOrTx, input: CreateBrandInput = {}): Promise<BrandRow> {
  const name = input.name ?? `Brand ${uniqueToken()}`;
  let companyId: number | null = null;
  if (input.company) {
    const [company] = await db.insert(companies).values(input.company).returning();
    companyId = company.id;
  }
  const [brand] = await db
    .insert(brands)
    .values({
      name,
      displayName: input.displayName ?? name,
      businessModel: input.businessModel ?? "wholesale",
      segments: input.segments ?? [],
      priceTier: input.priceTier ?? "",
      companyId,
      isActive: input.isActive ?? true,
    })
    .returning();
  return brand;
}

export interface CreateCollectionInput {
  brandId: number;
  year?: number;
  name?: string;
  subbrand?: string;
  isActive?: boolean;
}

export async function createCollection(
  db: DbOrTx,
  input: CreateCollectionInput,
): Promise<CollectionRow> {
  const [row] = await db
    .insert(collections)
    .values({
      brandId: input.brandId,
      year: input.year ?? 2025,
      name: input.name ?? "Spring",
      subbrand: input.subbrand ?? "",
      isActive: input.isActive ?? true,
    })
    .returning();
  return row;
}

export const SIZE_RUNS = {
  apparel: ["XS", "S", "M", "L", "XL"],
  footwear: ["6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12"],
  denim: ["26", "27", "28", "29", "30", "31", "32", "33", "34", "36"],
} as const;

export interface CreateProductInput {
  collectionId: number;
  /** Taken from the collection when omitted. */
  brandId?: number;
  sku?: string;
  displayName?: string;
  description?: string;
  /** Wholesale cost in cents. */
  priceCents?: number;
  /** Size labels in display order. */
  sizes?: readonly string[];
  /** Colour names (one variation each) or a count of made-up colours. */
  colors?: readonly string[] | number;
  /** Overrides the variation price (cents) per colour index; defaults to the product price. */
  variationPriceCents?: (index: number) => number;
  /** Barcodes of the i-th colour variation (domain/barcodes.ts); none by default. */
  variationBarcodes?: (index: number) => string[];
}

export interface CreatedVariation extends VariationRow {
  images: VariationImageRow[];
}

export interface CreatedProduct {
  product: ProductRow;
  sizes: ProductSizeRow[];
  variations: CreatedVariation[];
}

const DEFAULT_COLORS = ["Black", "Navy", "Olive", "Rust", "Sand", "Slate"];

function colorCode(color: string): string {
  const letters = color
    .replace(/[^A-Za-z ]/g, "")
    .split(/\s+/)
    .filter(Boolean);
  if (letters.length > 1)
    return letters
      .map((w) => w[0])
      .join("")
      .toUpperCase()
      .slice(0, 3);
  return (letters[0] ?? "CLR").slice(0, 3).toUpperCase();
}

/** A product with its size run and N colour variations, each with two placeholder images. */
export async function createProduct(
  db: DbOrTx,
  input: CreateProductInput,
): Promise<CreatedProduct> {
  let brandId = input.brandId;
  if (brandId === undefined) {
    const col = await db.query.collections.findFirst({
      where: (c, { eq }) => eq(c.id, input.collectionId),
    });
    if (!col) throw new Error(`createProduct: collection ${input.collectionId} not found`);
    brandId = col.brandId;
  }
  const sku = input.sku ?? `P-${uniqueToken().toUpperCase()}`;
  const displayName = input.displayName ?? `Style ${sku}`;
  const priceCents = input.priceCents ?? 2500;
  const [product] = await db
    .insert(products)
    .values({
      collectionId: input.collectionId,
      brandId,
      sku,
      displayName,
      description: input.description ?? "",
      priceCents,
    })
    .returning();

  const sizeLabels = input.sizes ?? SIZE_RUNS.apparel;
  const sizes =
    sizeLabels.length === 0
      ? []
      : await db
          .insert(productSizes)
          .values(sizeLabels.map((label, position) => ({ productId: product.id, label, position })))
          .returning();

  const colorNames =
    typeof input.colors === "number"
      ? Array.from(
          { length: input.colors },
          (_, i) =>
            DEFAULT_COLORS[i % DEFAULT_COLORS.length] + (i >= DEFAULT_COLORS.length ? ` ${i}` : ""),
        )
      : (input.colors ?? DEFAULT_COLORS.slice(0, 2));

  const variations: CreatedVariation[] = [];
  for (const [i, color] of colorNames.entries()) {
    const [variation] = await db
      .insert(productVariations)
      .values({
        productId: product.id,
        brandId,
        sku: `${sku}-${colorCode(color)}${i >= DEFAULT_COLORS.length ? i : ""}`,
        color,
        priceCents: input.variationPriceCents ? input.variationPriceCents(i) : priceCents,
        options: { color },
        barcodes: input.variationBarcodes?.(i) ?? [],
      })
      .returning();
    const images = await db
      .insert(variationImages)
      .values([
        {
          variationId: variation.id,
          url: placeholderImage(displayName, color, 600),
          thumbnailUrl: placeholderImage(displayName, color, 160),
          description: `${displayName}, ${color}, front`,
          position: 0,
        },
        {
          variationId: variation.id,
          url: placeholderImage(`${displayName} (back)`, color, 600),
          thumbnailUrl: placeholderImage(`${displayName} (back)`, color, 160),
          description: `${displayName}, ${color}, back`,
          position: 1,
        },
      ])
      .returning();
    variations.push({ ...variation, images });
  }
  return { product, sizes, variations };
}
