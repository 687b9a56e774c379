/**
 * Server side of the order pages: who is looking at an order. Commands go to the order's workflow through
 * temporal.server.ts sendOrderCommand (a card step's card is read by card-form.server.ts paymentMethodFromForm);
 * pages never change order state themselves.
 */
import { may } from "../../domain/teams";
import { requireRetailer, requireUser } from "./auth.server";

/**
 * Who is looking at an order: a retailer (own, or acted as by staff), or staff browsing as admin; with the
 * person (its id and its roles in the store), for what only some people of a store may do on an order (the
 * store's approval of a purchase over a buyer's limit: docs/product/teams.md).
 */
export async function orderViewer(request: Request): Promise<{
  retailerId: number | null;
  isStaff: boolean;
  userId: number;
  mayApprove: boolean;
}> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && auth.retailer === null)
    return { retailerId: null, isStaff: true, userId: auth.user.id, mayApprove: false };
  const r = await requireRetailer(request);
  return {
    retailerId: r.retailer.id,
    isStaff: r.user.isStaff,
    userId: r.user.id,
    mayApprove: mayApproveForStore(r.user),
  };
}

/** Whether a person may approve for its store (an approver, the owner; staff acting as the store). */
export const mayApproveForStore = (user: { isStaff: boolean; storeRoles: string[] }): boolean =>
  user.isStaff || may(user.storeRoles, "approve");
