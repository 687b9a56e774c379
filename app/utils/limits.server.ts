/**
 * A buyer's limits on what cannot wait for its store's approval (docs/product/teams.md, "Limits and approval").
 */
import { storeApprovalsFor } from "../../db/queries/team";
import { offerHoldCents } from "../../domain/offers";
import { TEAM_MSG } from "../../domain/teams";
import { db } from "./db.server";

/**
 * An offer whose hold is over the person's limit (docs/product/teams.md, "Limits and approval"): its message, else
 * null. An offer holds the card at once and the seller answers it, so it is refused rather than held for an
 * approver; the same check guards the buyer's counter and its acceptance of a higher counter (offers.$id).
 */
export async function offerOverLimit(
  userId: number,
  sizes: Record<string, number>,
  unitPriceCents: number,
  timeZone: string,
): Promise<string | null> {
  const units = Object.fromEntries(Object.entries(sizes).filter(([, n]) => n > 0));
  if (Object.keys(units).length === 0 || unitPriceCents <= 0) return null;
  const [need] = await storeApprovalsFor(db, userId, [offerHoldCents(units, unitPriceCents)], {
    timeZone,
  });
  return need ? TEAM_MSG.overLimitForOffer(need.limitCents) : null;
}
