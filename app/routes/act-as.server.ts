/**
 * /act-as's server half: staff choose a retailer (and optionally one of its authorized brands) to act as,
 * kept in the session, or clear it. One function per intent; refusals are Conform replies with a 400.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { safeNextPath } from "../../domain/accounts";
import { RowId } from "../../domain/ids";
import { getRetailer, isBrandAuthorized } from "../../db/queries/retailers";
import { setActing } from "../../db/queries/sessions";
import type { AuthContext } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";

const CHOOSE_RETAILER = "Choose a retailer.";

/** Where to go afterwards: a path of this site, else the intent's own answer. */
const RedirectTo = z.string().optional().catch(undefined);

const ClearSchema = z.object({ redirectTo: RedirectTo });

/** The act and brand forms: the retailer, and for brand one of its authorized brands (empty: all of them). */
const ActSchema = z.object({
  retailerId: RowId,
  brandId: RowId.optional(),
  redirectTo: RedirectTo,
});

/** Acts as nobody again (the marketplace shows every retailer). */
export async function clearActing(auth: AuthContext, formData: FormData) {
  const submission = parseSubmission(formData, { schema: ClearSchema });
  const back = submission.status === "success" ? safeNextPath(submission.value.redirectTo) : null;
  await setActing(db, auth.session.id, null, null);
  return redirect(back ?? "/act-as");
}

/** Acts as the chosen retailer (intent act), or as one of its brands (intent brand). */
export async function actAs(auth: AuthContext, formData: FormData, intent: "act" | "brand") {
  const submission = parseSubmission(formData, { schema: ActSchema });
  if (submission.status !== "success")
    return data(submission.reply({ formErrors: [CHOOSE_RETAILER] }), { status: 400 });
  const { retailerId, brandId, redirectTo } = submission.value;
  const retailer = await getRetailer(db, retailerId);
  if (!retailer)
    return data(submission.reply({ formErrors: ["That retailer does not exist."] }), {
      status: 400,
    });
  if (brandId !== undefined && !(await isBrandAuthorized(db, retailer.id, brandId))) {
    return data(
      submission.reply({ formErrors: ["That brand is not authorized for this retailer."] }),
      { status: 400 },
    );
  }
  await setActing(db, auth.session.id, retailer.id, brandId ?? null);
  return redirect(
    safeNextPath(redirectTo) ?? (intent === "brand" ? "/act-as" : "/act-as?chosen=1"),
  );
}
