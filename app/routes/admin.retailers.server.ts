/**
 * /admin/retailers' server half: the sections' rows as the page shows them, and the action with one function
 * per intent (activate, deny, inactivate, authorize, unauthorize). Every intent names a retailer and maybe
 * brands; both are checked first (400 "Choose a retailer.", 404 "That retailer does not exist.", 400 "That
 * brand does not exist."), then the intent runs or refuses with a message. Refusals are Conform replies.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { RowId } from "../../domain/ids";
import { formatCents } from "../../domain/money";
import { getResource } from "../../domain/resources";
import {
  authorizeBrands,
  setRetailerStatus,
  unauthorizeBrand,
} from "../../db/queries/retailer-status";
import {
  getBrandsByIds,
  getRetailer,
  type RetailerAdminEntry,
  type RetailerRow,
} from "../../db/queries/retailers";
import { formatDate } from "../../domain/date-format";
import type { RetailerCardEntry } from "~/components/admin/RetailerCard";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { noticeLinks } from "~/utils/mail.server";
import { forbidden, mayManage, type StaffContext } from "~/utils/permissions.server";

/** A retailer's card on the page. */
export function retailerCard(e: RetailerAdminEntry): RetailerCardEntry {
  return {
    id: e.retailer.id,
    storeName: e.retailer.storeName,
    city: e.retailer.city,
    state: e.retailer.state,
    status: e.retailer.status,
    storeEmail: e.retailer.storeEmail,
    storePhone: e.retailer.storePhone,
    setupComplete: e.retailer.setupCompletedAt !== null,
    createdAt: formatDate(e.retailer.createdAt, getEnv().MARKETPLACE_TZ),
    contact: e.contact
      ? {
          name: `${e.contact.firstName} ${e.contact.lastName}`.trim(),
          celphone: e.contact.celphone,
          phone: e.contact.phone,
        }
      : null,
    userEmails: e.userEmails,
    brandRequests: e.brandRequests.map((r) => ({
      id: r.id,
      brandName: r.brandName,
      brandId: r.brandId,
      amount: r.brandPurchaseAmountCents !== null ? formatCents(r.brandPurchaseAmountCents) : null,
      interests: r.yourInterestInThisBrand,
      contact: [r.brandContactName, r.brandContactEmail].filter(Boolean).join(" · "),
      status: r.status,
    })),
    authorizedBrands: e.authorizedBrands.map((b) => ({ id: b.id, name: b.displayName || b.name })),
  };
}

/**
 * The brands a form names (every checked box, or the one select; "" is the select's "Authorize a brand…"
 * placeholder): their ids, or null when one of them is not an id at all.
 */
const BrandIds = z
  .array(z.unknown())
  .default([])
  .transform((values) => {
    const ids = values.flatMap((v) => (v === undefined || v === "" ? [] : [RowId.safeParse(v)]));
    return ids.every((p) => p.success) ? ids.map((p) => p.data as number) : null;
  });

const RetailerActionSchema = z.object({ retailerId: RowId, brandId: BrandIds });

type Target = { retailer: RetailerRow; brandIds: number[] };

async function activate({ retailer, brandIds }: Target): Promise<string | null> {
  await setRetailerStatus(db, retailer.id, "active", noticeLinks(), brandIds);
  return null;
}

async function deny({ retailer }: Target): Promise<string | null> {
  await setRetailerStatus(db, retailer.id, "denied", noticeLinks());
  return null;
}

async function inactivate({ retailer }: Target): Promise<string | null> {
  await setRetailerStatus(db, retailer.id, "inactive", noticeLinks());
  return null;
}

async function authorize({ retailer, brandIds }: Target): Promise<string | null> {
  if (brandIds.length === 0) return "Choose a brand to authorize.";
  await authorizeBrands(db, retailer.id, brandIds);
  return null;
}

async function unauthorize({ retailer, brandIds }: Target): Promise<string | null> {
  if (brandIds.length !== 1) return "Choose a brand.";
  await unauthorizeBrand(db, retailer.id, brandIds[0]);
  return null;
}

/** Each intent: null when done, else the message it refuses with (a 400). */
const INTENTS: Record<string, (target: Target) => Promise<string | null>> = {
  activate,
  deny,
  inactivate,
  authorize,
  unauthorize,
};

export async function retailerAction(ctx: StaffContext, request: Request, formData: FormData) {
  const intent = String(formData.get("intent") ?? "");
  // Brand links need their own entry of the map, as on manage-retailer's Brands tab.
  if ((intent === "authorize" || intent === "unauthorize") && !mayManage(ctx, "retailerbrand"))
    throw forbidden(getResource("retailerbrand")!.plural);
  const submission = parseSubmission(formData, { schema: RetailerActionSchema });
  const refuse = (message: string, status = 400) =>
    data(submission.reply({ formErrors: [message] }), { status });
  // Only the retailer id can fail the parse: a brand that is not an id is a null list, refused below.
  if (submission.status !== "success") return refuse("Choose a retailer.");
  const retailer = await getRetailer(db, submission.value.retailerId);
  if (!retailer) return refuse("That retailer does not exist.", 404);
  const brandIds = submission.value.brandId;
  const uniqueBrandIds = [...new Set(brandIds)];
  if (
    brandIds === null ||
    (await getBrandsByIds(db, uniqueBrandIds)).length !== uniqueBrandIds.length
  )
    return refuse("That brand does not exist.");
  const run = Object.hasOwn(INTENTS, intent) ? INTENTS[intent] : null;
  if (!run) return refuse("Unknown action.");
  const refused = await run({ retailer, brandIds });
  if (refused) return refuse(refused);
  // Back to the same sections, pages and search (the form posts to the page's own URL), with the outcome.
  const back = new URLSearchParams(new URL(request.url).search);
  for (const k of ["index", "_routes", "done"]) back.delete(k);
  back.set("done", intent);
  return redirect(`/admin/retailers?${back}#retailer-${retailer.id}`);
}
