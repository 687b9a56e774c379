import { z } from "zod";
import { text } from "../text";
import { fieldSchema, FIELD_MESSAGES } from "./fields";
import { productvariation } from "./definitions";
import { RowId } from "../ids";

/** The variation editor's forms (docs/product/screens.md, "Staff: variation editor"), from the productvariation definition's own fields. */
const defField = (name: string) => productvariation.fields.find((f) => f.name === name)!;

export const VariationEditSchema = z.object({
  sku: fieldSchema(defField("sku")),
  price: fieldSchema(defField("price")),
  is_active: fieldSchema(defField("is_active")),
});

/** Size labels to add: blank ones are skipped; at most 40 characters, 100 at once. */
export const AddSizesSchema = z.object({
  size_label: z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(z.string())
      .max(100)
      .transform((labels) => [...new Set(labels.map((l) => l.trim()).filter((l) => l !== ""))])
      .pipe(z.array(text().min(1).max(40, FIELD_MESSAGES.tooLong(40)))),
  ),
});

export const ImageIdSchema = z.object({ image_id: RowId });
