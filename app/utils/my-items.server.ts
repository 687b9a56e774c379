/**
 * Server side of My Listings / My Requests (/active/listings/, /active/requests/) and of the edit screens
 * (/updatelisting/{id}, /updaterequest/{id}): docs/product/screens.md, "My Listings and Requests".
 *
 * Who may see what:
 * - a retailer (or staff acting as one) sees and edits only that retailer's items; any other id is a 404,
 *   whether it was changed in the URL or in the form;
 * - staff browsing as admin (no retailer chosen) may open and edit ANY listing or request; such an edit is
 *   a correction (listings: corrected_at is set and the owner sees the "Action Required!" re-list notice);
 *   the lists themselves need a retailer, so staff as admin are sent to the retailer picker there.
 */
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import {
  clampLimit,
  getMyItem,
  myItemsByBrand,
  updateMyListing,
  updateMyRequest,
  type MyBrandSection,
  type MyItemDetail,
  type MyKind,
} from "../../db/queries/my-listings";
import { pendingTransactionCount } from "../../db/queries/pending-transactions";
import type { SizesMap } from "../../db/schema";
import { LISTING_CORRECTED_RELIST, LISTING_PENDING_TRANSACTIONS } from "../../domain/messages";
import { safeNextPath } from "../../domain/accounts";
import { LISTING_REASONS, MODIFIED_REASONS, REQUEST_REASONS } from "../../domain/reasons";
import { formatDateTime } from "../../domain/date-format";
import { listingImportHistory } from "../../db/queries/stock-import";
import { getEnv } from "~/utils/env.server";
import { readFormData, requireRetailer, requireUser, type AuthContext } from "~/utils/auth.server";
import { z } from "zod";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { editSchemaFor, SIZES_CHANGED } from "./item-edit-schema";
import { markdownAction, markdownPanel, type MarkdownPanelData } from "./markdown.server";

// ------------------------------------------------------------------------------------------------------
// The lists.

/** Success notices of this area (?notice=...), shown by the list page. */
export const MY_NOTICES = {
  "listing-updated": "Your listing was updated.",
  "listing-deleted": "Your listing was deleted.",
  "request-updated": "Your request was updated.",
  "request-deleted": "Your request was deleted.",
} as const;
export type MyNoticeKey = keyof typeof MY_NOTICES;

function intParam(v: string | null): number | null {
  if (v === null || !/^\d{1,9}$/.test(v.trim())) return null;
  return Number(v.trim());
}

export interface MyItemsLoaderData {
  kind: MyKind;
  search: string;
  /** The limit asked for in the URL (null = default), kept in links. */
  limitParam: number | null;
  sections: MyBrandSection[];
  /** Payout missing and the notice not put off this session ("do this later", the shell's payout banner key). */
  payoutMissing: boolean;
  notice: string | null;
  /** Staff acting as this retailer: its name (staff may see names); null for the retailer itself. */
  actingAs: string | null;
}

/**
 * Query parameters: search (product code), limit (page size per brand, default 4), brand + offset (the page
 * of one brand; the other brands start at their first page), notice. Nonsense numbers fall back to defaults.
 */
export async function myItemsLoader(request: Request, kind: MyKind): Promise<MyItemsLoaderData> {
  const auth = await requireRetailer(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? url.searchParams.get("q") ?? "")
    .trim()
    .slice(0, 100);
  const limitParam = intParam(url.searchParams.get("limit"));
  const limit = clampLimit(limitParam);
  const brand = intParam(url.searchParams.get("brand"));
  const offset = intParam(url.searchParams.get("offset"));
  const offsets = new Map<number, number>();
  if (brand !== null && offset !== null) offsets.set(brand, offset);
  const sections = await myItemsByBrand(db, {
    kind,
    retailerId: auth.retailer.id,
    search: search || null,
    limit,
    offsets,
  });
  const noticeKey = url.searchParams.get("notice");
  return {
    kind,
    search,
    limitParam: limitParam !== null ? limit : null,
    sections,
    payoutMissing: !auth.retailer.btMerchantId && !auth.session.dismissedBanners.includes("payout"),
    notice:
      noticeKey && Object.hasOwn(MY_NOTICES, noticeKey)
        ? MY_NOTICES[noticeKey as MyNoticeKey]
        : null,
    actingAs: auth.user.isStaff ? auth.retailer.storeName : null,
  };
}

// ------------------------------------------------------------------------------------------------------
// The edit screens.

type Scope = { auth: AuthContext; ownerId: number | null; asAdmin: boolean };

/** The owner an edit is scoped to: the effective retailer, or nobody (any owner) for staff as admin. */
async function editScope(request: Request): Promise<Scope> {
  const auth = await requireUser(request);
  if (auth.user.isStaff) {
    return auth.retailer
      ? { auth, ownerId: auth.retailer.id, asAdmin: false }
      : { auth, ownerId: null, asAdmin: true };
  }
  const r = await requireRetailer(request);
  return { auth: r, ownerId: r.retailer.id, asAdmin: false };
}

function notFound(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

function idParam(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) notFound();
  return Number(raw);
}

/** The item of the URL's id within the owner scope (null: any owner), or a 404. */
async function findItem(
  kind: MyKind,
  rawId: string | undefined,
  ownerId: number | null,
): Promise<MyItemDetail> {
  const item = await getMyItem(db, kind, idParam(rawId), ownerId);
  if (!item) notFound();
  return item;
}

async function loadItem(
  request: Request,
  kind: MyKind,
  rawId: string | undefined,
): Promise<Scope & { item: MyItemDetail }> {
  const scope = await editScope(request);
  return { ...scope, item: await findItem(kind, rawId, scope.ownerId) };
}

export interface EditItemView {
  id: number;
  kind: MyKind;
  brandName: string;
  productName: string;
  sku: string;
  color: string;
  priceCents: number;
  imageUrl: string | null;
  sizeLabels: string[];
  totalUnits: number;
  status: "payoutneeded" | "active" | null;
  corrected: boolean;
}

export interface EditLoaderData {
  item: EditItemView;
  defaultValue: Record<string, string | string[]>;
  reasons: { value: string; label: string }[];
  modifiedReasons: { value: string; label: string }[];
  /** Staff only: whose item this is (names are for staff); never sent to a retailer. */
  ownerName: string | null;
  asAdmin: boolean;
  correctedNotice: string | null;
  notice: string | null;
  /** Listings: the stock imports that changed it, newest first (ADR 0029). */
  imports: { importId: number; fileName: string; action: string; at: string; units: number }[];
  /** The owner's sell listing: its markdown schedule panel (docs/product/markdowns.md); else null. */
  markdown: MarkdownPanelData | null;
}

export async function editLoader(
  request: Request,
  kind: MyKind,
  rawId: string | undefined,
): Promise<EditLoaderData> {
  const { auth, item, asAdmin } = await loadItem(request, kind, rawId);
  const url = new URL(request.url);
  const noticeKey = url.searchParams.get("notice");
  return {
    item: {
      id: item.id,
      kind,
      brandName: item.brandName,
      productName: item.productName,
      sku: item.sku,
      color: item.color,
      priceCents: item.priceCents,
      imageUrl: item.imageUrl,
      sizeLabels: item.sizes.map((s) => s.label),
      totalUnits: item.totalUnits,
      status: item.status,
      corrected: item.correctedAt !== null,
    },
    defaultValue: {
      sizes: item.sizes.map((s) => String(s.count)),
      reason: item.reason,
      modified_reason: "none",
      ...(kind === "listings" ? { listing_type: item.listingType ?? "sell" } : {}),
    },
    reasons: [...(kind === "listings" ? LISTING_REASONS : REQUEST_REASONS)].map((c) => ({
      value: c.value,
      label: c.label,
    })),
    modifiedReasons: MODIFIED_REASONS.map((c) => ({ value: c.value, label: c.label })),
    ownerName: auth.user.isStaff ? item.ownerStoreName : null,
    asAdmin,
    correctedNotice:
      kind === "listings" && item.correctedAt !== null && !asAdmin
        ? LISTING_CORRECTED_RELIST
        : null,
    notice:
      noticeKey && Object.hasOwn(MY_NOTICES, noticeKey)
        ? MY_NOTICES[noticeKey as MyNoticeKey]
        : null,
    imports:
      kind === "listings"
        ? (await listingImportHistory(db, item.id)).map((h) => ({
            importId: h.importId,
            fileName: h.fileName,
            action: h.action,
            at: formatDateTime(h.at, getEnv().MARKETPLACE_TZ, { seconds: false }),
            units: Object.values(h.after).reduce((a, n) => a + n, 0),
          }))
        : [],
    markdown:
      kind === "listings" && item.listingType === "sell" && !asAdmin
        ? await markdownPanel(item.id)
        : null,
  };
}

/** The fields of an edit form beside the edit: the id it was opened for, the staff modal's `back`. */
const EditEnvelope = z.object({ id: z.string().optional(), back: z.string().optional() });

export interface EditActionData {
  result: SubmissionResult<string[]>;
  /** Set when the listing has pending transactions and the save waits for the OK (pendingok). */
  pending: { message: string; count: number; intent: "save" | "delete" } | null;
}

/**
 * Saves an edit. 404 for an id that is not the caller's (URL or form), 400 with the messages and the values
 * for bad input, 409 with "This listing has pending transactions." until the form is sent again with
 * pendingok=on; then the update (one statement, owner-scoped) and a redirect to the list with a notice.
 */
export async function editAction(request: Request, kind: MyKind, rawId: string | undefined) {
  const scope = await editScope(request);
  const form = await readFormData(request);
  // A save from the retailer admin's modal (its `back` is a /manage-retailer/ page) is staff's correction,
  // whichever retailer they are acting as at the moment (docs/product/screens.md, "Staff: retailer admin": the modal edit).
  const envelope = parseSubmission(form, { schema: EditEnvelope });
  // A form-wide refusal of the reading itself (a NUL in a field: app/utils/form.server.ts), with its message.
  if (envelope.status === "error" && envelope.error?.[""])
    return data<EditActionData>({ result: envelope.reply(), pending: null }, { status: 400 });
  const { id: formId, back } =
    envelope.status === "success" ? envelope.value : { id: "", back: undefined };
  const fromAdmin = scope.auth.user.isStaff && adminBack(back) !== null;
  const { ownerId, asAdmin } = fromAdmin ? { ownerId: null, asAdmin: true } : scope;
  const item = await findItem(kind, rawId, ownerId);

  // An id in the form must be the one of the URL: a tampered form is as unknown as a tampered URL.
  if (formId !== undefined && formId !== String(item.id)) notFound();

  // The markdown panel's intents: the owner's own schedule (staff browsing as admin have none to set).
  const rawIntent = form.get("intent");
  if (typeof rawIntent === "string" && rawIntent.startsWith("markdown")) {
    if (kind !== "listings" || asAdmin || ownerId === null) notFound();
    return markdownAction(form, item.id, ownerId);
  }

  const intent = form.get("intent") === "delete" ? "delete" : "save";
  if (intent === "delete") {
    // Delete = every size at zero (docs/product/orders.md, "Listings and requests"), whatever the counters said.
    for (const key of [...form.keys()]) if (/^sizes\[\d+\]$/.test(key)) form.delete(key);
    item.sizes.forEach((_, i) => form.set(`sizes[${i}]`, "0"));
  }

  const submission = parseSubmission(form, { schema: editSchemaFor(kind) });
  if (submission.status !== "success") {
    return data<EditActionData>({ result: submission.reply(), pending: null }, { status: 400 });
  }
  const value = submission.value as {
    sizes: number[];
    reason: string;
    modified_reason: string;
    intent: "save" | "delete";
    listing_type?: "sell" | "swap";
    pendingok?: "on";
  };
  if (value.sizes.length !== item.sizes.length) {
    return data<EditActionData>(
      { result: submission.reply({ formErrors: [SIZES_CHANGED] }), pending: null },
      { status: 400 },
    );
  }
  const sizes: SizesMap = {};
  item.sizes.forEach((s, i) => {
    sizes[s.label] = value.sizes[i];
  });

  if (kind === "listings") {
    const pendingok = value.pendingok === "on";
    if (!pendingok) {
      const count = await pendingTransactionCount(db, item.id);
      if (count > 0) {
        return data<EditActionData>(
          {
            result: submission.reply(),
            pending: { message: LISTING_PENDING_TRANSACTIONS, count, intent },
          },
          { status: 409 },
        );
      }
    }
    const saved = await updateMyListing(db, {
      id: item.id,
      ownerId,
      sizes,
      reason: value.reason,
      modifiedReason: value.modified_reason,
      listingType: value.listing_type,
      correction: asAdmin,
    });
    if (!saved) notFound();
    const notice = saved.totalUnits === 0 ? "listing-deleted" : "listing-updated";
    throw redirect(
      staffBack(back, asAdmin, notice) ??
        (asAdmin
          ? `/updatelisting/${item.id}?notice=${notice}`
          : `/active/listings?notice=${notice}`),
    );
  }

  const saved = await updateMyRequest(db, {
    id: item.id,
    ownerId,
    sizes,
    reason: value.reason,
    modifiedReason: value.modified_reason,
  });
  if (!saved) notFound();
  const notice = saved.totalUnits === 0 ? "request-deleted" : "request-updated";
  throw redirect(
    staffBack(back, asAdmin, notice) ??
      (asAdmin
        ? `/updaterequest/${item.id}?notice=${notice}`
        : `/active/requests?notice=${notice}`),
  );
}

/** The retailer admin modal's `back` field (ADR 0018): only a /manage-retailer/ page of this site; null otherwise. */
function adminBack(sent: string | undefined): string | null {
  const back = safeNextPath(sent ?? "");
  return back && back.startsWith("/manage-retailer/") ? back : null;
}

/** Where staff editing as admin go after a save made from the retailer admin's modal: its `back`, with the notice. */
function staffBack(sent: string | undefined, asAdmin: boolean, notice: string): string | null {
  const back = asAdmin ? adminBack(sent) : null;
  if (!back) return null;
  return `${back}${back.includes("?") ? "&" : "?"}done=${notice}`;
}
