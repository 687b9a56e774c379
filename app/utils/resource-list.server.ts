/**
 * The generic list's row actions (docs/product/screens.md, "Staff: generic lists and forms"), shared by /admin/:class_name and the brand
 * admin's tabs: delete, activate / deactivate, add a variation to a product. Bad input is a 4xx with a
 * message; a redirect to `back` with ?done= on success.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { AddVariationSchema, type ResourceDef, type ResourceName } from "../../domain/resources";
import { addVariation, deleteResource, setResourceActive } from "../../db/queries/admin-resources";
import { db } from "./db.server";
import { parseSubmission } from "./form.server";
import { forbidden } from "./permissions.server";

const RowAction = z.object({
  intent: z.enum(["delete", "activate", "deactivate"]),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export type RowActionReply = { error: string; productId?: number; errors?: Record<string, string[]> };

export async function rowAction(form: FormData, name: ResourceName, resource: ResourceDef, back: string) {
  const done = (d: string) => redirect(`${back}${back.includes("?") ? "&" : "?"}done=${d}`);
  const fail = (r: RowActionReply, status: number) => data(r, { status });
  if (form.get("intent") === "add-variation") {
    if (name !== "product") return fail({ error: "Variations are added to products." }, 400);
    const submission = parseSubmission(form, { schema: AddVariationSchema });
    const productId = Number(form.get("product_id")) || 0;
    if (submission.status !== "success")
      return fail({ error: "Please fix the fields in red.", productId, errors: (submission.error ?? {}) as Record<string, string[]> }, 400);
    const { product_id, option, value, price } = submission.value;
    const id = await addVariation(db, product_id, { option, value, priceCents: price as number });
    if (id === null) return fail({ error: "That product does not exist." }, 404);
    return done("variation-added");
  }
  const parsed = RowAction.safeParse({ intent: form.get("intent"), id: form.get("id") });
  if (!parsed.success) return fail({ error: "Unknown action or row." }, 400);
  const { intent, id } = parsed.data;
  if (intent === "delete") {
    if (!resource.can_delete) throw forbidden(resource.plural);
    const deleted = await deleteResource(db, name, id);
    if (deleted === null) return fail({ error: "That row does not exist." }, 404);
    if (!deleted) return fail({ error: `This ${resource.label.toLowerCase()} is still used by other records and cannot be deleted.` }, 409);
    return done("deleted");
  }
  if (!resource.has_active) return fail({ error: `${resource.plural} cannot be activated.` }, 400);
  if (!(await setResourceActive(db, name, id, intent === "activate"))) return fail({ error: "That row does not exist." }, 404);
  return done(intent === "activate" ? "activated" : "deactivated");
}
