/**
 * The order pages' forms (one Zod schema per form, used by Conform in the browser and by the action on the
 * server). Messages are the specification's where it quotes one (domain/messages), else the workflow's
 * (workflows/buy/contract BUY_ERRORS), so the browser and the workflow say the same thing.
 */
import { z } from "zod";
import { CANCEL_REASON_REQUIRED, DECLINE_REASON_REQUIRED } from "../../../domain/messages";
import {
  BUYER_DECLINE_DEFAULT_REASON,
  BUYER_DECLINE_REASONS,
  CANCEL_SHIPMENT_REASONS,
  choiceSchema,
  SELLER_DECLINE_REASONS,
  type Choice,
} from "../../../domain/reasons";
import { RATING_MAX, RATING_MIN } from "../../../domain/states";
import { text } from "../../../domain/text";

export const RATING_INVALID = "Please rate every criterion with 1 to 5 stars.";

/** Buyer reasons for declining an order made for its request (0, 1, 2). */
export const CHECKOUT_DECLINE_REASONS: readonly Choice<number>[] = Object.freeze(
  BUYER_DECLINE_REASONS.filter((r) => r.value !== BUYER_DECLINE_DEFAULT_REASON),
);

export const DeclineSaleSchema = z.object({
  intent: z.literal("decline"),
  reason: choiceSchema(SELLER_DECLINE_REASONS, DECLINE_REASON_REQUIRED),
});
export const DeclineCheckoutSchema = z.object({
  intent: z.literal("decline_checkout"),
  reason: choiceSchema(CHECKOUT_DECLINE_REASONS, DECLINE_REASON_REQUIRED),
});
/** Modified purchase: reasons 0, 1, 2; none chosen = the default 30 (docs/product/glossary.md, "Reasons"). */
export const DeclineModifiedSchema = z.object({
  intent: z.literal("decline_modified"),
  reason: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? BUYER_DECLINE_DEFAULT_REASON : v),
    choiceSchema(BUYER_DECLINE_REASONS, DECLINE_REASON_REQUIRED),
  ),
});
export const CancelShipmentSchema = z.object({
  intent: z.literal("cancel_shipment"),
  reason: choiceSchema(CANCEL_SHIPMENT_REASONS, CANCEL_REASON_REQUIRED),
});

const star = z.coerce
  .number({ invalid_type_error: RATING_INVALID, required_error: RATING_INVALID })
  .int(RATING_INVALID)
  .min(RATING_MIN, RATING_INVALID)
  .max(RATING_MAX, RATING_INVALID);

/** Rating: four criteria, 1 to 5 stars each, and comments. */
export const RatingSchema = z.object({
  intent: z.literal("rate"),
  condition: star,
  packaging: star,
  timeliness: star,
  overall: star,
  comments: text({ multiline: true })
    .max(2000, "Please keep your comments under 2000 characters.")
    .optional()
    .default(""),
});

export const RATING_FIELDS = [
  { name: "condition", label: "Condition of items" },
  { name: "packaging", label: "Care in packaging" },
  { name: "timeliness", label: "Timeliness of response" },
  { name: "overall", label: "Overall experience" },
] as const;

/** Unit inputs of the seller's approve / modify form: `units.<contributionId>.<size>` = a whole number >= 0. */
export function parseUnitInputs(
  form: FormData,
): { ok: true; units: Map<number, Record<string, number>> } | { ok: false } {
  const units = new Map<number, Record<string, number>>();
  for (const [key, raw] of form.entries()) {
    const m = /^units\.(\d{1,9})\.(.{1,40})$/.exec(key);
    if (!m) continue;
    const v = String(raw).trim();
    if (!/^\d{1,6}$/.test(v)) return { ok: false };
    const id = Number(m[1]);
    const sizes = units.get(id) ?? {};
    sizes[m[2]] = Number(v);
    units.set(id, sizes);
  }
  return { ok: true, units };
}
