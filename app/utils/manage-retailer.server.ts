/**
 * /manage-retailer's server half (docs/product/screens.md "Manage retailer"): the gate of every tab (staff
 * with the "retailer" permission, and the chosen retailer of ?id=), what each tab shows, and one function per
 * intent of the tabs' actions. Each intent needs its own entry of the permissions map besides "retailer"
 * (contacts: retailercontact, brand links: retailerbrand) and comes back to its tab with ?done=<what>.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { getMyItem } from "../../db/queries/my-listings";
import { importsForStaff } from "../../db/queries/stock-import";
import {
  addContact,
  listContactsWithLogin,
  listRetailerBrandLinks,
  listRetailerBrandRequests,
  listRetailerListings,
  listRetailerOrders,
  listRetailerRequests,
  listRetailersPage,
  RETAILER_PAGE_SIZE,
  updateContact,
  updateRetailerInfo,
} from "../../db/queries/retailer-admin";
import {
  authorizeBrands,
  setRetailerStatus,
  unauthorizeBrand,
} from "../../db/queries/retailer-status";
import {
  getBrandsByIds,
  getRetailer,
  listBrandChoices,
  type RetailerRow,
} from "../../db/queries/retailers";
import { findUserById } from "../../db/queries/users";
import { storeInfoFormValues } from "../../domain/accounts";
import { RowId } from "../../domain/ids";
import { formatCents } from "../../domain/money";
import { LISTING_REASONS, MODIFIED_REASONS_FOR_EDIT, REQUEST_REASONS } from "../../domain/reasons";
import { getResource } from "../../domain/resources";
import {
  ContactEditSchema,
  isActiveLabel,
  RETAILER_LIST_TABS,
  retailerColumns,
  RetailerInfoSchema,
  type RetailerListTab,
} from "../../domain/retailer-admin";
import {
  TRANSACTION_TYPE,
  TRANSACTION_TYPE_LABELS,
  type TransactionType,
} from "../../domain/states";
import { formatDate, formatDateTime } from "../../domain/date-format";
import { readFormData } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { formError, parseSubmission } from "~/utils/form.server";
import { noticeLinks } from "~/utils/mail.server";
import { forbidden, mayManage, type StaffContext } from "~/utils/permissions.server";
import { requireRetailerAdmin, sendStaffPasswordReset } from "~/utils/retailer-admin.server";

const LIST_TABS = Object.keys(RETAILER_LIST_TABS) as RetailerListTab[];

// Dates as on every other screen (the marketplace's time zone); "—" where there is none.
const dateOf = (d: Date | null) => (d ? formatDate(d, getEnv().MARKETPLACE_TZ) : "—");
const dateTimeOf = (d: Date | null) => (d ? formatDateTime(d, getEnv().MARKETPLACE_TZ) : "—");

function notFound(message: string): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The retailer of ?id= as the layout's header and tab links show it; null without one (or with a wrong one). */
export async function retailerSummary(url: URL) {
  const id = RowId.safeParse(url.searchParams.get("id"));
  const r = id.success ? await getRetailer(db, id.data) : null;
  return r
    ? { id: r.id, storeName: r.storeName, status: r.status, isActive: isActiveLabel(r.status) }
    : null;
}

/** A tab's gate: staff with "retailer", and the retailer of ?id= (none: back to Choose Retailer; unknown: 404). */
export async function requireChosenRetailer(
  request: Request,
): Promise<{ ctx: StaffContext; retailer: RetailerRow; url: URL }> {
  const ctx = await requireRetailerAdmin(request);
  const url = new URL(request.url);
  const rawId = url.searchParams.get("id");
  if (rawId === null) throw redirect("/manage-retailer");
  const id = RowId.safeParse(rawId);
  const retailer = id.success ? await getRetailer(db, id.data) : null;
  if (!retailer) throw notFound("No such retailer.");
  return { ctx, retailer, url };
}

/** Choose Retailer: a page of retailers by status tab and search. */
export async function retailerListPage(url: URL) {
  const statusRaw = url.searchParams.get("status") ?? "";
  const status = (LIST_TABS as string[]).includes(statusRaw)
    ? (statusRaw as RetailerListTab)
    : "active";
  const page = Math.min(10_000, Math.max(1, Number(url.searchParams.get("page")) || 1));
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const list = await listRetailersPage(db, { statuses: RETAILER_LIST_TABS[status], q, page });
  const rows = list.rows.map((r) => ({
    id: r.id,
    contactEmail: r.contactEmail,
    storeName: r.storeName,
    city: r.city,
    state: r.state,
    segments: r.segments.join(", "),
    priceTier: r.priceTier,
    isActive: isActiveLabel(r.status),
    created: dateOf(r.createdAt),
    lastActive: dateTimeOf(r.lastActiveAt),
  }));
  return {
    status,
    q,
    page,
    pages: Math.max(1, Math.ceil(list.total / RETAILER_PAGE_SIZE)),
    total: list.total,
    rows,
    listTabs: LIST_TABS,
  };
}

/** Info: the retailer's columns as the info form's values, and its dates. */
export function infoTab(r: RetailerRow) {
  return {
    info: {
      ...storeInfoFormValues(r),
      segments: r.segments.join("; "),
      price_tier: r.priceTier,
      latitude: r.latitude === null ? "" : String(r.latitude),
      longitude: r.longitude === null ? "" : String(r.longitude),
      status: r.status,
    },
    created: dateTimeOf(r.createdAt),
    lastActive: dateTimeOf(r.lastActiveAt),
    payout: r.btMerchantId !== null,
  };
}

/** Contacts, each with whether it has a login (a password reset needs one). */
export async function contactsTab(retailerId: number) {
  const contacts = await listContactsWithLogin(db, retailerId);
  return contacts.map((c) => ({
    id: c.id,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    job_title: c.jobTitle,
    job_title_other: c.jobTitleOther,
    phone: c.phone,
    celphone: c.celphone,
    hasLogin: c.loginUserId !== null,
  }));
}

/** Brands: the retailer's brand links, its brand requests, and the brands it could still be linked to. */
export async function brandsTab(retailerId: number) {
  const [links, requests, choices] = await Promise.all([
    listRetailerBrandLinks(db, retailerId),
    listRetailerBrandRequests(db, retailerId),
    listBrandChoices(db),
  ]);
  const linked = new Set(links.map((l) => l.brandId));
  return {
    links: links.map((l) => ({ ...l, created: dateOf(l.createdAt) })),
    requests: requests.map((q) => ({
      id: q.id,
      brandName: q.brandName,
      amount: q.brandPurchaseAmountCents === null ? "—" : formatCents(q.brandPurchaseAmountCents),
      interest: q.yourInterestInThisBrand.join(", "),
      contact: [q.brandContactName, q.brandContactEmail].filter(Boolean).join(" · "),
      status: q.status,
    })),
    choices: choices
      .filter((c) => !linked.has(c.id))
      .map((c) => ({ id: c.id, name: c.displayName || c.name })),
  };
}

/** Listings or Requests: the retailer's items, and the one the modal edits (?edit=<id>, this retailer's own). */
export async function itemsTab(
  kind: "listings" | "requests",
  retailerId: number,
  edit: string | null,
) {
  const list = await (kind === "listings" ? listRetailerListings : listRetailerRequests)(
    db,
    retailerId,
  );
  const items = list.map((i) => ({
    ...i,
    price: formatCents(i.priceCents),
    created: dateOf(i.createdAt),
  }));
  const id = RowId.safeParse(edit);
  const item = id.success ? await getMyItem(db, kind, id.data, retailerId) : null;
  const editing = item
    ? {
        id: item.id,
        title: `${item.brandName} ${item.productName} ${item.color} (${item.sku})`,
        sizes: item.sizes.map((x) => ({ label: x.label, count: x.count })),
        reason: item.reason,
        listingType: item.listingType,
        reasons: [...(kind === "listings" ? LISTING_REASONS : REQUEST_REASONS)].map((c) => ({
          value: c.value,
          label: c.label,
        })),
        modifiedReasons: MODIFIED_REASONS_FOR_EDIT.map((c) => ({ value: c.value, label: c.label })),
      }
    : null;
  return { kind, items, editing };
}

/** Stock imports (docs/guides/stock-import.md "Staff"): who sent each file (a user, or an API token), when, its lines and refused rows. */
export async function importsTab(retailerId: number) {
  const list = await importsForStaff(db, retailerId);
  return list.map((i) => ({
    id: i.id,
    fileName: i.fileName,
    status: i.status,
    wholeSurplus: i.wholeSurplus,
    created: dateTimeOf(i.createdAt),
    confirmed: i.confirmedAt ? dateTimeOf(i.confirmedAt) : null,
    by: i.tokenName !== null ? `API token “${i.tokenName}”` : (i.uploader ?? "—"),
    lines: i.lines,
    refused: i.refused.map((r) => ({ lines: r.lines, code: r.code, messages: r.messages })),
  }));
}

/** Transactions (purchases and swaps) or RMAs the retailer is a party of. */
export async function ordersTab(kind: "transactions" | "rmas", retailerId: number) {
  const list =
    kind === "rmas"
      ? await listRetailerOrders(db, retailerId, { transactionType: TRANSACTION_TYPE.RMA })
      : (await listRetailerOrders(db, retailerId)).filter(
          (o) => o.transactionType !== TRANSACTION_TYPE.RMA,
        );
  const orders = list.map((o) => ({
    ...o,
    value: formatCents(o.valueCents),
    created: dateOf(o.createdAt),
    type: TRANSACTION_TYPE_LABELS[o.transactionType as TransactionType],
  }));
  return { kind, orders };
}

// ---------------------------------------------------------------------------------------------------------
// The tabs' actions.

/** One click on a tab: who, on which retailer, the form as read, back to which tab. */
export type TabIntent = { ctx: StaffContext; retailer: RetailerRow; form: FormData; tab: string };

/** A tab action's gate and its form: staff, a chosen retailer (none: 400; unknown: 404), the form read once. */
export async function readTabAction(
  request: Request,
  tab: string,
): Promise<TabIntent | ReturnType<typeof refuse>> {
  const ctx = await requireRetailerAdmin(request);
  const id = RowId.safeParse(new URL(request.url).searchParams.get("id"));
  if (!id.success) return refuse(400, "Choose a retailer first.");
  const retailer = await getRetailer(db, id.data);
  if (!retailer) throw notFound("No such retailer.");
  return { ctx, retailer, form: await readFormData(request), tab };
}

/** A refusal before (or instead of) a form's parse: a form-level error with its status. */
export const refuse = (status: number, message: string) => data(formError(message), { status });

function requireManage(ctx: StaffContext, name: "retailer" | "retailercontact" | "retailerbrand") {
  if (!mayManage(ctx, name)) throw forbidden(getResource(name)!.plural);
}

const back = (c: TabIntent, done: string) =>
  redirect(`/manage-retailer/${c.tab}?id=${c.retailer.id}&done=${done}`, 303);

/** Info: the store's columns and the retailer's status. */
export async function saveInfo(c: TabIntent) {
  requireManage(c.ctx, "retailer");
  const submission = parseSubmission(c.form, { schema: RetailerInfoSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await updateRetailerInfo(db, c.retailer.id, retailerColumns(submission.value));
  // The status last, through the one function that tells the retailer (docs/product/screens.md, "Notices to retailers").
  await setRetailerStatus(db, c.retailer.id, submission.value.status, noticeLinks());
  return back(c, "info");
}

/** Contacts: a new contact, or an edit of one of this retailer's. */
export async function saveContact(c: TabIntent) {
  requireManage(c.ctx, "retailercontact");
  const submission = parseSubmission(c.form, { schema: ContactEditSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  const input = {
    firstName: v.first_name,
    lastName: v.last_name,
    email: v.email,
    jobTitle: v.job_title,
    jobTitleOther: v.job_title === "Other" ? (v.job_title_other ?? "") : "",
    phone: v.phone,
    celphone: v.celphone,
  };
  if (v.contact_id === undefined) await addContact(db, c.retailer.id, input);
  else if (!(await updateContact(db, c.retailer.id, v.contact_id, input)))
    return refuse(404, "No such contact.");
  return back(c, "contact");
}

/** The contact of a "Send PW reset", the brand of a brand-add or brand-delete. */
const ContactChoice = z.object({ contact_id: RowId });
const BrandChoice = z.object({ brand_id: RowId });

/** Contacts: "Send PW reset" e-mails the contact's login a reset link (staff never see it). */
export async function sendReset(c: TabIntent) {
  requireManage(c.ctx, "retailercontact");
  const submission = parseSubmission(c.form, { schema: ContactChoice });
  if (submission.status !== "success") return refuse(400, "Choose a contact.");
  const contactId = submission.value.contact_id;
  const contact = (await listContactsWithLogin(db, c.retailer.id)).find((x) => x.id === contactId);
  if (!contact) return refuse(404, "No such contact.");
  const user = contact.loginUserId !== null ? await findUserById(db, contact.loginUserId) : null;
  if (!user) return refuse(409, "This contact has no login yet, so there is no password to reset.");
  await sendStaffPasswordReset({ id: user.id, email: user.email });
  return back(c, "reset");
}

/** Brands: link the retailer to a brand (brand-add), or delete a link (brand-delete). */
export async function changeBrandLink(c: TabIntent, intent: "brand-add" | "brand-delete") {
  requireManage(c.ctx, "retailerbrand");
  const submission = parseSubmission(c.form, { schema: BrandChoice });
  const brandId = submission.status === "success" ? submission.value.brand_id : null;
  if (brandId === null || (await getBrandsByIds(db, [brandId])).length !== 1)
    return refuse(400, "Choose a brand.");
  if (intent === "brand-add") await authorizeBrands(db, c.retailer.id, [brandId]);
  else await unauthorizeBrand(db, c.retailer.id, brandId);
  return back(c, intent);
}
