/**
 * The generic list's row actions (docs/product/screens.md, "Staff: generic lists and forms"), shared by /admin/:class_name and the brand
 * admin's tabs: delete, activate / deactivate, add a variation to a product.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { AddVariationSchema, type ResourceDef, type ResourceName } from "../../domain/resources";
import { addVariation, deleteResource, setResourceActive } from "../../db/queries/admin-resources";
import { getBrandLink, noticeBrandLinkChange } from "../../db/queries/retailer-status";
import { db } from "./db.server";
import { formError, parseSubmission } from "./form.server";
import { forbidden } from "./permissions.server";
import { RowId } from "../../domain/ids";

const RowAction = z.object({
  intent: z.enum(["delete", "activate", "deactivate"]),
  id: RowId,
});

/**
 * Runs a row action of `form`; a redirect to `back` with ?done= on success, else Conform's reply: the form's
 * error, and for an add-variation the fields' errors with what was sent (its product_id names the product).
 */
export async function rowAction(
  form: FormData,
  name: ResourceName,
  resource: ResourceDef,
  back: string,
) {
  const done = (d: string) => redirect(`${back}${back.includes("?") ? "&" : "?"}done=${d}`);
  const fail = (message: string, status: number) => data(formError(message), { status });
  if (form.get("intent") === "add-variation") {
    if (name !== "product") return fail("Variations are added to products.", 400);
    const submission = parseSubmission(form, { schema: AddVariationSchema });
    if (submission.status !== "success")
      return data(submission.reply({ formErrors: ["Please fix the fields in red."] }), {
        status: 400,
      });
    const { product_id, option, value, price } = submission.value;
    const id = await addVariation(db, product_id, { option, value, priceCents: price as number });
    if (id === null) return fail("That product does not exist.", 404);
    return done("variation-added");
  }
  const parsed = parseSubmission(form, { schema: RowAction });
  if (parsed.status !== "success") return fail("Unknown action or row.", 400);
  const { intent, id } = parsed.value;
  if (intent === "delete") {
    if (!resource.can_delete) throw forbidden(resource.plural);
    // A deleted brand link tells its retailer (docs/product/screens.md, "Notices to retailers").
    const link = name === "retailerbrand" ? await getBrandLink(db, id) : null;
    const deleted = await deleteResource(db, name, id);
    if (deleted) await noticeBrandLinkChange(db, link, null);
    if (deleted === null) return fail("That row does not exist.", 404);
    if (!deleted)
      return fail(
        `This ${resource.label.toLowerCase()} is still used by other records and cannot be deleted.`,
        409,
      );
    return done("deleted");
  }
  if (!resource.has_active) return fail(`${resource.plural} cannot be activated.`, 400);
  if (!(await setResourceActive(db, name, id, intent === "activate")))
    return fail("That row does not exist.", 404);
  return done(intent === "activate" ? "activated" : "deactivated");
}
