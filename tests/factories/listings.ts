import type { DbOrTx } from "../../db/client";
import { listingRequests, listings, type SizesMap } from "../../db/schema";
import { sumSizes } from "./util";

export type ListingRow = typeof listings.$inferSelect;
export type ListingRequestRow = typeof listingRequests.$inferSelect;

export interface CreateListingInput {
  variationId: number;
  providerId: number;
  sizes: SizesMap;
  listingType?: ListingRow["listingType"];
  reason?: string;
  floorTime?: string | null;
  reservedForRequestId?: number | null;
  /** Derived from the provider's payout set-up (bt_merchant_id) when omitted. */
  status?: ListingRow["status"];
  terms?: boolean;
  createdAt?: Date;
}

async function brandOfVariation(db: DbOrTx, variationId: number): Promise<number> {
  const v = await db.query.productVariations.findFirst({
    where: (pv, { eq }) => eq(pv.id, variationId),
    columns: { brandId: true },
  });
  if (!v) throw new Error(`variation ${variationId} not found`);
  return v.brandId;
}

export async function createListing(db: DbOrTx, input: CreateListingInput): Promise<ListingRow> {
  const brandId = await brandOfVariation(db, input.variationId);
  let status = input.status;
  if (!status) {
    const provider = await db.query.retailers.findFirst({
      where: (r, { eq }) => eq(r.id, input.providerId),
      columns: { btMerchantId: true },
    });
    if (!provider) throw new Error(`retailer ${input.providerId} not found`);
    status = provider.btMerchantId ? "active" : "payoutneeded";
  }
  const [row] = await db
    .insert(listings)
    .values({
      variationId: input.variationId,
      brandId,
      providerId: input.providerId,
      listingType: input.listingType ?? "sell",
      reason: input.reason ?? "overstock",
      floorTime: input.floorTime ?? null,
      reservedForRequestId: input.reservedForRequestId ?? null,
      sizes: input.sizes,
      totalUnits: sumSizes(input.sizes),
      status,
      terms: input.terms ?? true,
      ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
    })
    .returning();
  return row;
}

export interface CreateRequestInput {
  variationId: number;
  requestorId: number;
  sizes: SizesMap;
  reason?: string;
  createdAt?: Date;
}

export async function createRequest(
  db: DbOrTx,
  input: CreateRequestInput,
): Promise<ListingRequestRow> {
  const brandId = await brandOfVariation(db, input.variationId);
  const [row] = await db
    .insert(listingRequests)
    .values({
      variationId: input.variationId,
      brandId,
      requestorId: input.requestorId,
      reason: input.reason ?? "sold_out",
      sizes: input.sizes,
      totalUnits: sumSizes(input.sizes),
      ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
    })
    .returning();
  return row;
}
