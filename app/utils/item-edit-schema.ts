/**
 * The edit form of /updatelisting/{id} and /updaterequest/{id} (docs/product/screens.md, "My Listings and
 * Requests"): one Zod schema per kind,
 * used by Conform in the browser and by the action on the server.
 *
 * Fields: sizes[i] (unit count of the i-th size of the product's run, integer >= 0), reason,
 * modified_reason (anything but "none"), listing_type (listings), intent (save | delete), pendingok.
 * Delete = save with every size at zero (the server zeroes them whatever was typed); it still needs a reason.
 */
import { z } from "zod";
import {
  MODIFIED_REASON_REQUIRED_LISTING,
  MODIFIED_REASON_REQUIRED_REQUEST,
} from "../../domain/messages";
import {
  LISTING_REASONS,
  MODIFIED_REASONS_FOR_EDIT,
  REQUEST_REASONS,
  choiceSchema,
} from "../../domain/reasons";

export type EditKind = "listings" | "requests";

/** ours: a size counter that is not a whole number of units. */
export const SIZE_COUNT_MESSAGE = "Enter a whole number of units, 0 or more.";
/** ours: the reason select left empty. */
export const REASON_REQUIRED = "Please choose a reason.";
/** ours: a listing type other than sell or swap. */
export const LISTING_TYPE_REQUIRED = "Please choose Sell or Swap.";
/** ours: the size list of the form does not match the product (the page was stale or tampered with). */
export const SIZES_CHANGED =
  "The sizes of this product changed. Please reload the page and try again.";

export const MAX_UNITS_PER_SIZE = 100000;

const sizeCount = z
  .number({ required_error: SIZE_COUNT_MESSAGE, invalid_type_error: SIZE_COUNT_MESSAGE })
  .int(SIZE_COUNT_MESSAGE)
  .min(0, SIZE_COUNT_MESSAGE)
  .max(MAX_UNITS_PER_SIZE, SIZE_COUNT_MESSAGE);

function modifiedReason(kind: EditKind) {
  return choiceSchema(
    MODIFIED_REASONS_FOR_EDIT,
    kind === "listings" ? MODIFIED_REASON_REQUIRED_LISTING : MODIFIED_REASON_REQUIRED_REQUEST,
  );
}

export const editListingSchema = z.object({
  sizes: z.array(sizeCount, { required_error: SIZES_CHANGED, invalid_type_error: SIZES_CHANGED }),
  listing_type: z.enum(["sell", "swap"], { errorMap: () => ({ message: LISTING_TYPE_REQUIRED }) }),
  reason: choiceSchema(LISTING_REASONS, REASON_REQUIRED),
  modified_reason: modifiedReason("listings"),
  intent: z.enum(["save", "delete"]).default("save"),
  pendingok: z.literal("on").optional(),
});

export const editRequestSchema = z.object({
  sizes: z.array(sizeCount, { required_error: SIZES_CHANGED, invalid_type_error: SIZES_CHANGED }),
  reason: choiceSchema(REQUEST_REASONS, REASON_REQUIRED),
  modified_reason: modifiedReason("requests"),
  intent: z.enum(["save", "delete"]).default("save"),
});

export function editSchemaFor(kind: EditKind) {
  return kind === "listings" ? editListingSchema : editRequestSchema;
}

export type EditListingValue = z.infer<typeof editListingSchema>;
export type EditRequestValue = z.infer<typeof editRequestSchema>;
