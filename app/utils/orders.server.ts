/**
 * Server side of the order pages: who is looking at an order. Commands go to the order's workflow through
 * temporal.server.ts sendOrderCommand (a card step's card is read by card-form.server.ts paymentMethodFromForm);
 * pages never change order state themselves.
 */
import { requireRetailer, requireUser } from "./auth.server";

/** Who is looking at an order: a retailer (own, or acted as by staff), or staff browsing as admin. */
export async function orderViewer(
  request: Request,
): Promise<{ retailerId: number | null; isStaff: boolean }> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && auth.retailer === null) return { retailerId: null, isStaff: true };
  const r = await requireRetailer(request);
  return { retailerId: r.retailer.id, isStaff: r.user.isStaff };
}
