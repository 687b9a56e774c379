/**
 * The checks of a retailer's card and rating, written once for every kind (each kind refuses with its own
 * error table's code). Pure.
 */
import type { PaymentMethodInput, StoreApprovalRequest } from "./contract";
import { isValidRating } from "../../domain/states";

/** A card as the card form hands it over: a payment method id and its last four. */
export function isPaymentMethod(pm: unknown): pm is PaymentMethodInput {
  const p = pm as PaymentMethodInput | null;
  return (
    !!p &&
    typeof p === "object" &&
    typeof p.paymentMethodId === "string" &&
    p.paymentMethodId.length > 0 &&
    typeof p.lastFour === "string"
  );
}

/** The criteria a rating gives 1 to 5 stars each (docs/product/screens.md, "Rating"). */
export const RATING_CRITERIA = ["condition", "packaging", "timeliness", "overall"] as const;
export const MAX_COMMENT_LENGTH = 2000;

export type Stars = Record<(typeof RATING_CRITERIA)[number], number>;
export type RatingRefusal = "already_rated" | "rating_closed" | "rating_invalid";

/**
 * Why a rating cannot be given now, or null: already given, its window closed (or never opened), or a
 * criterion without 1 to 5 stars.
 */
export function ratingRefusal(
  rated: boolean,
  ratingBy: number | null,
  stars: unknown,
  now: number,
): RatingRefusal | null {
  if (rated) return "already_rated";
  if (ratingBy === null || now >= ratingBy) return "rating_closed";
  const s = stars as Record<string, unknown> | undefined;
  if (!s || typeof s !== "object" || !RATING_CRITERIA.every((k) => isValidRating(s[k])))
    return "rating_invalid";
  return null;
}

/** The rating as it is kept: the four criteria and the comment, trimmed (at most MAX_COMMENT_LENGTH). */
export function ratingOf(cmd: { stars: Stars; comments?: unknown }): {
  stars: Stars;
  comments: string;
} {
  const comments =
    typeof cmd.comments === "string" ? cmd.comments.trim().slice(0, MAX_COMMENT_LENGTH) : "";
  const s = cmd.stars;
  return {
    stars: {
      condition: s.condition,
      packaging: s.packaging,
      timeliness: s.timeliness,
      overall: s.overall,
    },
    comments,
  };
}

/**
 * Why a person may not decide for the buyer's store on what waits for it (docs/product/teams.md): no person named,
 * or the one who placed it; null when it may.
 */
export function storeDecisionRefusal(
  ask: StoreApprovalRequest | null,
  actorUserId: unknown,
): "wrong_party" | "own_order" | null {
  if (typeof actorUserId !== "number" || !Number.isSafeInteger(actorUserId) || actorUserId <= 0)
    return "wrong_party";
  return ask && actorUserId === ask.placedByUserId ? "own_order" : null;
}
