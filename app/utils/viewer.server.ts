/**
 * Who is browsing the marketplace, and which brands they may see (docs/product/glossary.md, "Roles and
 * permissions"):
 * - a retailer (or staff acting as one): that retailer's authorized brands (retailer_brands, status
 *   'authorized', brand active); its own listings and requests are never offered to it;
 * - staff with no retailer chosen browse "as admin": every active brand, no cart.
 * Staff see the other party's store name on cards; everyone else sees "retailer-00{id}" only.
 */
import { marketBrowseContext } from "../../db/queries/marketplace";
import { requireRetailer, requireUser, type AuthContext } from "./auth.server";
import { db } from "./db.server";

export interface ViewerBrand {
  id: number;
  name: string;
}

export interface Viewer {
  mode: "retailer" | "admin";
  isStaff: boolean;
  /** The effective retailer (own, or the one staff act as); null for staff as admin. */
  retailerId: number | null;
  /** The brands this viewer may browse, sorted by name. */
  brands: ViewerBrand[];
  brandIds: Set<number>;
  /** Staff see store names. */
  withNames: boolean;
  auth: AuthContext;
  /** Product categories for the category filter (read with the brands: one statement). */
  categories: { id: number; name: string }[];
}

/**
 * The marketplace viewer of this request. Signed-out users go to sign-in; a retailer not yet active
 * goes to its status page (requireRetailer); staff with no acting retailer browse as admin.
 */
export async function getViewer(request: Request): Promise<Viewer> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && auth.retailer === null) {
    const { brands, categories } = await marketBrowseContext(db, null);
    return {
      mode: "admin",
      isStaff: true,
      retailerId: null,
      brands,
      brandIds: new Set(brands.map((b) => b.id)),
      withNames: true,
      auth,
      categories,
    };
  }
  const withRetailer = await requireRetailer(request);
  const { brands, categories } = await marketBrowseContext(db, withRetailer.retailer.id);
  return {
    mode: "retailer",
    isStaff: withRetailer.user.isStaff,
    retailerId: withRetailer.retailer.id,
    brands,
    brandIds: new Set(brands.map((b) => b.id)),
    withNames: withRetailer.user.isStaff,
    auth: withRetailer,
    categories,
  };
}
