/**
 * /admin/validate's server half: one function per stage's form (a brand added or mapped, an entry matched,
 * validated or rejected, a product's category), each answering a refusal as a Conform reply with the card it belongs to, or the
 * redirect that marks the card FIXED!.
 */
import { data, redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { RowId } from "../../domain/ids";
import { resolveEntry } from "../../db/queries/catalogue-entries";
import {
  acceptBrand,
  categoryChoices,
  isExternalBrand,
  mapBrand,
  setProductCategory,
} from "../../db/queries/validation";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";

/** A refusal shown in card `card` (0: none), and its status. */
function refuse(card: number, result: SubmissionResult<string[]>, status: number) {
  return data({ card, result }, { status });
}

/** The cards fixed so far (?fixed=1,2,3: at most 50 ids; what is not an id is left out). */
export function fixedIds(v: string | null): number[] {
  return (v ?? "")
    .split(",")
    .map((x) => RowId.safeParse(x))
    .flatMap((p) => (p.success ? [p.data] : []))
    .slice(0, 50);
}

/** Back to the stage with the card `id` marked FIXED! after those fixed before it, scrolled to it. */
type Fixed = (id: number) => Response;

const BrandSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add-brand"), brand: RowId }),
  z.object({ intent: z.literal("map-brand"), brand: RowId, target: RowId }),
]);

/** Brands: Add Brand (the typed brand becomes valid) or Change to Existing Brand (its listings move to another). */
async function validateBrand(formData: FormData, fixed: Fixed) {
  const submission = parseSubmission(formData, { schema: BrandSchema });
  if (submission.status !== "success") {
    return refuse(
      Number(submission.payload.brand) || 0,
      submission.reply({ formErrors: ["Choose an existing brand."] }),
      400,
    );
  }
  const v = submission.value;
  if (!(await isExternalBrand(db, v.brand)))
    return refuse(
      v.brand,
      submission.reply({ formErrors: ["That brand is not waiting for validation."] }),
      404,
    );
  if (v.intent === "add-brand") await acceptBrand(db, v.brand);
  else if (!(await mapBrand(db, v.brand, v.target))) {
    return refuse(
      v.brand,
      submission.reply({ formErrors: ["Choose a valid brand other than this one."] }),
      400,
    );
  }
  return fixed(v.brand);
}

/** "This is the product" (the intent left out, as before validate and reject existed), Validate or Reject. */
const EntrySchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("match"), entry: RowId, product: RowId }),
  z.object({ intent: z.literal("validate"), entry: RowId }),
  z.object({ intent: z.literal("reject"), entry: RowId }),
]);

const ENTRY_REFUSALS = {
  "no-entry": { status: 404, message: "That entry does not exist, or it is resolved already." },
  "no-product": {
    status: 404,
    message: "That product does not exist, or it is the one made from this entry.",
  },
  "no-initial": {
    status: 400,
    message: "Nothing was made from this entry: choose one of the matches or reject it.",
  },
} as const;

/** Products: an unresolved catalogue entry matched to one of its candidates, validated (its upload's product is right) or rejected. */
async function resolveCatalogueEntry(formData: FormData, fixed: Fixed) {
  if (!formData.has("intent")) formData.set("intent", "match");
  const submission = parseSubmission(formData, { schema: EntrySchema });
  if (submission.status !== "success")
    return refuse(
      Number(submission.payload.entry) || 0,
      submission.reply({ formErrors: ["Choose one of the matches."] }),
      400,
    );
  const v = submission.value;
  const outcome = await resolveEntry(
    db,
    v.entry,
    v.intent === "match" ? { intent: "match", productId: v.product } : { intent: v.intent },
  );
  if (outcome !== "ok") {
    const r = ENTRY_REFUSALS[outcome];
    return refuse(v.entry, submission.reply({ formErrors: [r.message] }), r.status);
  }
  return fixed(v.entry);
}

const CategorySchema = z.object({ product: RowId, category: z.string().trim().optional() });

/** Categories: a listed product's category, typed as the name of an existing one. */
async function setCategory(formData: FormData, fixed: Fixed) {
  const submission = parseSubmission(formData, { schema: CategorySchema });
  if (submission.status !== "success")
    return refuse(0, submission.reply({ formErrors: ["Unknown product."] }), 400);
  const { product, category = "" } = submission.value;
  const match = category
    ? (await categoryChoices(db, category)).find(
        (c) => c.name.toLowerCase() === category.toLowerCase(),
      )
    : undefined;
  if (!match)
    return refuse(
      product,
      submission.reply({ formErrors: ["Choose a category from the list."] }),
      400,
    );
  if (!(await setProductCategory(db, product, match.id)))
    return refuse(product, submission.reply({ formErrors: ["Unknown product."] }), 404);
  return fixed(product);
}

/** The stage's form: brands, products (catalogue entries) or categories. */
export async function validationAction(
  request: Request,
  stage: "brands" | "products" | "categories",
  formData: FormData,
) {
  const fixedAlready = fixedIds(new URL(request.url).searchParams.get("fixed"));
  const fixed: Fixed = (id) =>
    redirect(`/admin/validate/${stage}?fixed=${[...fixedAlready, id].join(",")}#card-${id}`);
  if (stage === "brands") return validateBrand(formData, fixed);
  if (stage === "products") return resolveCatalogueEntry(formData, fixed);
  return setCategory(formData, fixed);
}
