/**
 * The brand admin's server half (docs/product/screens.md, "Staff: brand admin"): the tabs and who may open
 * them, each tab's data, and the action with one function per form: the brand's info, a new collection,
 * activate / deactivate all of a collection's products, add the brand to a retailer, and the lists' row
 * actions. Refusals are Conform replies with their 4xx.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { localDateISO } from "../../domain/business-days";
import { RowId } from "../../domain/ids";
import { formatCents } from "../../domain/money";
import {
  CHOOSER_LIMIT,
  LIST_PAGE_SIZE,
  RESOURCES,
  type ResourceName,
} from "../../domain/resources";
import {
  chooserOptions,
  listResource,
  saveResource,
  setCollectionProductsActive,
  variationsOfProducts,
} from "../../db/queries/admin-resources";
import { listAdminOrders } from "../../db/queries/order-views/staff-lists";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";
import { chooserData, loadEditRow, saveResourceForm } from "~/utils/resource-form.server";
import { rowAction } from "~/utils/resource-list.server";

/** The tabs, each with the resource a staff user must be allowed to manage. */
const TABS = [
  { tab: "choose", label: "Choose Brand", needs: "brand" },
  { tab: "info", label: "Info", needs: "brand" },
  { tab: "collections", label: "Collections", needs: "collection" },
  { tab: "uploads", label: "Collection Uploads", needs: "product" },
  { tab: "products", label: "Products", needs: "product" },
  { tab: "retailers", label: "Retailers", needs: "retailerbrand" },
  { tab: "listings", label: "Listings", needs: "listing" },
  { tab: "requests", label: "Requests", needs: "request" },
  { tab: "transactions", label: "Transactions", needs: "brand" },
] as const satisfies readonly { tab: string; label: string; needs: ResourceName }[];
type Tab = (typeof TABS)[number]["tab"];

/** An id of the query string: null when absent, -1 when it is not an id. */
const optionalId = (v: string | null) =>
  v === null || v === "" ? null : (RowId.safeParse(v).data ?? -1);

/** Staff with the brand permission and the tab's; the brand (and collection) from the query string. */
async function context(request: Request, rawTab: string | undefined) {
  const ctx = await requirePermission(request, "brand");
  const tab = TABS.find((t) => t.tab === (rawTab ?? "choose"));
  if (!tab) throw notFound();
  if (!mayManage(ctx, tab.needs)) throw forbidden(RESOURCES[tab.needs].plural);
  const url = new URL(request.url);
  const brandId = optionalId(url.searchParams.get("brand"));
  const collectionId = optionalId(url.searchParams.get("collection"));
  if (brandId === -1 || collectionId === -1) throw notFound();
  return { ctx, tab: tab.tab as Tab, url, brandId, collectionId };
}

/** The page: the tabs this user may open, and the open tab's data (Choose Brand needs no brand; the others do). */
export async function brandAdminData(request: Request, rawTab: string | undefined) {
  const { ctx, tab, url, brandId, collectionId } = await context(request, rawTab);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get("page")) || 1));
  const tabs = TABS.filter((t) => mayManage(ctx, t.needs)).map((t) => ({
    tab: t.tab,
    label: t.label,
  }));
  const base = {
    tab,
    tabs,
    brandId,
    collectionId,
    search,
    page,
    done: url.searchParams.get("done"),
    today: localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  };
  if (tab === "choose")
    return { ...base, brands: await chooserOptions(db, "brand", { search, limit: CHOOSER_LIMIT }) };
  if (brandId === null) throw redirect("/manage-brand/choose");
  const brand = await loadEditRow("brand", RESOURCES.brand, brandId);
  if (!brand) throw notFound();
  const out = {
    ...base,
    brandName: String(brand.values.display_name || brand.values.name),
    brandId,
  };
  if (tab === "info") return { ...out, info: brand };
  return { ...out, ...(await tabData(tab, { brandId, collectionId, page, url })) };
}

/** A brand's tab other than Choose Brand and Info. */
async function tabData(
  tab: Exclude<Tab, "choose" | "info">,
  {
    brandId,
    collectionId,
    page,
    url,
  }: { brandId: number; collectionId: number | null; page: number; url: URL },
) {
  const list = (name: ResourceName, filters: Record<string, string>) =>
    listResource(db, name, { page, filters });
  switch (tab) {
    case "collections": {
      const newValues = {
        brand: String(brandId),
        year: String(new Date().getFullYear()),
        is_active: "true",
      };
      return {
        list: await list("collection", { brand: String(brandId) }),
        create: { values: newValues, choosers: await chooserData(RESOURCES.collection, newValues) },
      };
    }
    case "uploads":
    case "products": {
      const collections = await chooserOptions(db, "collection", {
        filters: { brand: String(brandId) },
        limit: 1000,
      });
      if (tab === "uploads" || collectionId === null) return { collections };
      const products = await list("product", { collection: String(collectionId) });
      return {
        collections,
        list: products,
        variations: await variationsOfProducts(
          db,
          products.rows.map((r) => Number(r.id)),
        ),
      };
    }
    case "retailers": {
      const retailer = optionalId(url.searchParams.get("retailer"));
      return {
        list: await list("retailerbrand", {
          brand: String(brandId),
          ...(retailer && retailer > 0 ? { retailer: String(retailer) } : {}),
        }),
      };
    }
    case "listings":
      return { list: await list("listing", { brand: String(brandId) }) };
    case "requests":
      return { list: await list("request", { brand: String(brandId) }) };
    case "transactions": {
      const orders = await listAdminOrders(db, {
        brandId,
        limit: LIST_PAGE_SIZE,
        offset: (page - 1) * LIST_PAGE_SIZE,
      });
      return {
        ordersTotal: orders.total,
        orders: orders.items.map((o) => ({
          id: o.id,
          externalId: o.externalId,
          type: o.typeLabel,
          provider: o.providerName,
          receiver: o.receiverName,
          status: o.displayStatus,
          value: formatCents(o.valueCents),
          modifiedAt: o.modifiedAt,
        })),
      };
    }
  }
}

/** Where a form of the tab comes back to (the tab, its brand and collection), with ?done= added. */
type Back = (done: string) => Response;

/** The tab's form: the brand's info, a new collection, or (forms of the lists) the intent's function. */
export async function brandAdminAction(request: Request, rawTab: string | undefined) {
  const { tab, url, brandId, collectionId } = await context(request, rawTab);
  if (brandId === null) return data(formError("Choose a brand first."), { status: 400 });
  const path = `/manage-brand/${tab}?brand=${brandId}${collectionId ? `&collection=${collectionId}` : ""}`;
  const back: Back = (done) => redirect(`${path}&done=${done}`);
  if (tab === "info") {
    const r = await saveResourceForm(request, "brand", RESOURCES.brand, brandId);
    return "reply" in r ? r.reply : back("saved");
  }
  if (tab === "collections" && url.searchParams.get("create") === "1") {
    const r = await saveResourceForm(request, "collection", RESOURCES.collection, null);
    return "reply" in r ? r.reply : back("created");
  }
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (tab === "products" && (intent === "activate-all" || intent === "deactivate-all"))
    return setAllProductsActive(collectionId, intent === "activate-all", back);
  if (tab === "retailers" && intent === "add-retailer")
    return addBrandToRetailer(formData, brandId, back);
  const target: Partial<Record<Tab, ResourceName>> = {
    collections: "collection",
    products: "product",
    retailers: "retailerbrand",
  };
  const name = target[tab];
  if (!name) return data(formError("Unknown action."), { status: 400 });
  return rowAction(formData, name, RESOURCES[name], path);
}

/** Products: activate all / deactivate all of the chosen collection's products. */
async function setAllProductsActive(collectionId: number | null, active: boolean, back: Back) {
  if (collectionId === null) return data(formError("Choose a collection first."), { status: 400 });
  await setCollectionProductsActive(db, collectionId, active);
  return back(active ? "activated" : "deactivated");
}

const AddRetailerSchema = z.object({ retailer: RowId });

/** Retailers: "Add this brand to retailer (id)", an authorized link. */
async function addBrandToRetailer(formData: FormData, brandId: number, back: Back) {
  const submission = parseSubmission(formData, { schema: AddRetailerSchema });
  if (submission.status !== "success")
    return data(submission.reply({ formErrors: ["Enter a retailer id."] }), { status: 400 });
  const r = await saveResource(db, "retailerbrand", null, {
    retailer: submission.value.retailer,
    brand: brandId,
    status: "authorized",
  });
  if (!r.ok) {
    return data(
      submission.reply({
        formErrors: [
          r.errors.retailer
            ? "That retailer does not exist."
            : (r.formError ?? "Could not add the brand."),
        ],
      }),
      { status: 400 },
    );
  }
  return back("added");
}
