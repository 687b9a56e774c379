/**
 * Anonymity (docs/product/glossary.md, "Anonymity"): a non-staff user sees another retailer only
 * as `retailer-00{id}` (literally "retailer-00" followed by the id: 7 -> "retailer-007", 123 ->
 * "retailer-00123"), never a store name, e-mail, address or phone. Staff see names.
 */

export const ANONYMOUS_RETAILER_PREFIX = "retailer-00";

function assertRetailerId(id: number): void {
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw new RangeError(`retailer id must be a positive integer, got ${String(id)}`);
  }
}

export function anonymousRetailerLabel(id: number): string {
  assertRetailerId(id);
  return `${ANONYMOUS_RETAILER_PREFIX}${id}`;
}

export interface RetailerNameSource {
  readonly id: number;
  readonly storeName?: string | null;
}

/**
 * How a retailer is named to a viewer: staff see the store name (the label when it has none); everyone else
 * sees the anonymous label. A retailer looking at itself (viewerRetailerId === retailer.id) sees its own name.
 */
export function displayRetailer(
  retailer: RetailerNameSource,
  viewerIsStaff: boolean,
  viewerRetailerId?: number | null,
): string {
  const label = anonymousRetailerLabel(retailer.id);
  const ownName = retailer.storeName?.trim();
  if ((viewerIsStaff || viewerRetailerId === retailer.id) && ownName) return ownName;
  return label;
}

/** "Listed by retailer-00{id}" (staff: "Listed by {store name}"). */
export function listedByText(provider: RetailerNameSource, viewerIsStaff = false): string {
  return `Listed by ${displayRetailer(provider, viewerIsStaff)}`;
}

/** "Requested by retailer-00{id}" (staff: "Requested by {store name}"). */
export function requestedByText(requestor: RetailerNameSource, viewerIsStaff = false): string {
  return `Requested by ${displayRetailer(requestor, viewerIsStaff)}`;
}

/** True when a text contains a retailer's anonymous label (useful in tests of pages, PDFs and e-mails). */
export function mentionsAnonymousLabel(text: string, id: number): boolean {
  return new RegExp(`${anonymousRetailerLabel(id)}(?!\\d)`).test(text);
}
