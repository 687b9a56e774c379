/**
 * Retailer admin (spec 002 §2.6, issue 13): Choose Retailer (Active / Pending / Inactive / All) and, for the
 * chosen retailer (?id=), the tabs Info, Contacts, Brands, Listings, Requests, Transactions and RMAs.
 * Modals (contact edit) open by URL (?edit=<contact id>|new), so they work without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { formatCents } from "../../domain/money";
import { getResource } from "../../domain/resources";
import { ContactEditSchema, isActiveLabel, RETAILER_LIST_TABS, retailerColumns, RetailerInfoSchema, type RetailerListTab } from "../../domain/retailer-admin";
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
import { authorizeBrands, getBrandsByIds, getRetailer, listBrandChoices, unauthorizeBrand } from "../../db/queries/retailers";
import { findUserById } from "../../db/queries/users";
import { getMyItem } from "../../db/queries/my-listings";
import { storeInfoFormValues } from "../../domain/accounts";
import { LISTING_REASONS, MODIFIED_REASONS_FOR_EDIT, REQUEST_REASONS } from "../../domain/reasons";
import { TRANSACTION_TYPE, TRANSACTION_TYPE_LABELS, type TransactionType } from "../../domain/states";
import { formatDate, formatDateTime } from "~/components/orders/format";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import adminCss from "~/styles/retailer-admin.css";
import { readFormData } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";
import { forbidden, mayManage } from "~/utils/permissions.server";
import { requireRetailerAdmin, sendStaffPasswordReset } from "~/utils/retailer-admin.server";
import { ContactInfoFields, StoreInfoFields } from "./__accounts-ui";
import { ErrorList, Field } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Manage retailer") }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountsCss },
  { rel: "stylesheet", href: adminCss },
];

const TABS = ["choose", "info", "contacts", "brands", "listings", "requests", "transactions", "rmas"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  choose: "Choose Retailer",
  info: "Info",
  contacts: "Contacts",
  brands: "Brands",
  listings: "Listings",
  requests: "Requests",
  transactions: "Transactions",
  rmas: "RMAs",
};
const LIST_TABS = Object.keys(RETAILER_LIST_TABS) as RetailerListTab[];
const MAX_ID = 2_147_483_647;
const IdSchema = z.coerce.number().int().positive().max(MAX_ID);

// Dates as on every other screen (the marketplace's time zone); "—" where there is none.
const dateOf = (d: Date | null) => (d ? formatDate(d.toISOString()) : "—");
const dateTimeOf = (d: Date | null) => (d ? formatDateTime(d.toISOString()) : "—");

function notFound(message: string): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

function parseTab(tab: string | undefined): Tab {
  if (tab === undefined) return "choose";
  if ((TABS as readonly string[]).includes(tab)) return tab as Tab;
  throw notFound("No such tab.");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  const url = new URL(request.url);
  const tab = parseTab(params.tab);
  const rawId = url.searchParams.get("id");
  if (tab === "choose" || rawId === null) {
    if (tab !== "choose") throw redirect("/manage-retailer");
    const status = (LIST_TABS as string[]).includes(url.searchParams.get("status") ?? "") ? (url.searchParams.get("status") as RetailerListTab) : "active";
    const page = Math.min(10_000, Math.max(1, Number(url.searchParams.get("page")) || 1));
    const q = (url.searchParams.get("q") ?? "").slice(0, 100);
    const list = await listRetailersPage(db, {
      statuses: RETAILER_LIST_TABS[status],
      q,
      page,
    });
    return {
      tab: "choose" as const,
      status,
      q,
      page,
      pages: Math.max(1, Math.ceil(list.total / RETAILER_PAGE_SIZE)),
      total: list.total,
      rows: list.rows.map((r) => ({
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
      })),
    };
  }
  const id = IdSchema.safeParse(rawId);
  if (!id.success) throw notFound("No such retailer.");
  const r = await getRetailer(db, id.data);
  if (!r) throw notFound("No such retailer.");
  const retailer = {
    id: r.id,
    storeName: r.storeName,
    status: r.status,
    isActive: isActiveLabel(r.status),
  };
  const base = {
    retailer,
    done: url.searchParams.get("done"),
    edit: url.searchParams.get("edit"),
  };
  const items = (list: Awaited<ReturnType<typeof listRetailerListings>>) =>
    list.map((i) => ({
      ...i,
      price: formatCents(i.priceCents),
      created: dateOf(i.createdAt),
    }));
  const ordersOf = (list: Awaited<ReturnType<typeof listRetailerOrders>>) =>
    list.map((o) => ({
      ...o,
      value: formatCents(o.valueCents),
      created: dateOf(o.createdAt),
      type: TRANSACTION_TYPE_LABELS[o.transactionType as TransactionType],
    }));
  switch (tab) {
    case "info":
      return {
        tab: "info" as const,
        ...base,
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
    case "contacts": {
      const contacts = await listContactsWithLogin(db, r.id);
      return {
        tab: "contacts" as const,
        ...base,
        contacts: contacts.map((c) => ({
          id: c.id,
          first_name: c.firstName,
          last_name: c.lastName,
          email: c.email,
          job_title: c.jobTitle,
          job_title_other: c.jobTitleOther,
          phone: c.phone,
          celphone: c.celphone,
          hasLogin: c.loginUserId !== null,
        })),
      };
    }
    case "brands": {
      const [links, requests, choices] = await Promise.all([listRetailerBrandLinks(db, r.id), listRetailerBrandRequests(db, r.id), listBrandChoices(db)]);
      const linked = new Set(links.map((l) => l.brandId));
      return {
        tab: "brands" as const,
        ...base,
        links: links.map((l) => ({ ...l, created: dateOf(l.createdAt) })),
        requests: requests.map((q) => ({
          id: q.id,
          brandName: q.brandName,
          amount: q.brandPurchaseAmountCents === null ? "—" : formatCents(q.brandPurchaseAmountCents),
          interest: q.yourInterestInThisBrand.join(", "),
          contact: [q.brandContactName, q.brandContactEmail].filter(Boolean).join(" · "),
          status: q.status,
        })),
        choices: choices.filter((c) => !linked.has(c.id)).map((c) => ({ id: c.id, name: c.displayName || c.name })),
      };
    }
    case "listings":
      return {
        tab: "listings" as const,
        ...base,
        items: items(await listRetailerListings(db, r.id)),
        editing: await editingItem("listings", r.id, base.edit),
      };
    case "requests":
      return {
        tab: "requests" as const,
        ...base,
        items: items(await listRetailerRequests(db, r.id)),
        editing: await editingItem("requests", r.id, base.edit),
      };
    case "transactions":
      return {
        tab: "transactions" as const,
        ...base,
        orders: ordersOf((await listRetailerOrders(db, r.id)).filter((o) => o.transactionType !== TRANSACTION_TYPE.RMA)),
      };
    case "rmas":
      return {
        tab: "rmas" as const,
        ...base,
        orders: ordersOf(await listRetailerOrders(db, r.id, { transactionType: TRANSACTION_TYPE.RMA })),
      };
  }
}

/** The listing or request the modal edits (?edit=<id>): this retailer's own, else none. */
async function editingItem(kind: "listings" | "requests", retailerId: number, raw: string | null) {
  const id = IdSchema.safeParse(raw);
  const item = id.success ? await getMyItem(db, kind, id.data, retailerId) : null;
  if (!item) return null;
  return {
    id: item.id,
    title: `${item.brandName} ${item.productName} ${item.color} (${item.sku})`,
    sizes: item.sizes.map((x) => ({ label: x.label, count: x.count })),
    reason: item.reason,
    listingType: item.listingType,
    reasons: [...(kind === "listings" ? LISTING_REASONS : REQUEST_REASONS)].map((c) => ({ value: c.value, label: c.label })),
    modifiedReasons: MODIFIED_REASONS_FOR_EDIT.map((c) => ({
      value: c.value,
      label: c.label,
    })),
  };
}

const INTENTS = ["info", "contact", "send-reset", "brand-add", "brand-delete"] as const;

/** Which entry of the permissions map each action needs besides "retailer" (issue 12's resource names). */
const INTENT_PERMISSION: Record<(typeof INTENTS)[number], "retailer" | "retailercontact" | "retailerbrand"> = {
  info: "retailer",
  contact: "retailercontact",
  "send-reset": "retailercontact",
  "brand-add": "retailerbrand",
  "brand-delete": "retailerbrand",
};

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRetailerAdmin(request);
  const tab = parseTab(params.tab);
  const url = new URL(request.url);
  const id = IdSchema.safeParse(url.searchParams.get("id"));
  if (!id.success) return data({ error: "Choose a retailer first." }, { status: 400 });
  const retailer = await getRetailer(db, id.data);
  if (!retailer) throw notFound("No such retailer.");
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  if (!(INTENTS as readonly string[]).includes(intent)) return data({ error: "Unknown action." }, { status: 400 });
  const needed = INTENT_PERMISSION[intent as (typeof INTENTS)[number]];
  if (!mayManage(ctx, needed)) throw forbidden(getResource(needed)!.plural);
  const back = (done: string) => redirect(`/manage-retailer/${tab}?id=${retailer.id}&done=${done}`, 303);

  switch (intent as (typeof INTENTS)[number]) {
    case "info": {
      const submission = parseSubmission(form, { schema: RetailerInfoSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      await updateRetailerInfo(db, retailer.id, {
        ...retailerColumns(v),
        status: v.status,
      });
      return back("info");
    }
    case "contact": {
      const submission = parseSubmission(form, { schema: ContactEditSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const input = {
        firstName: v.first_name,
        lastName: v.last_name,
        email: v.email,
        jobTitle: v.job_title,
        jobTitleOther: v.job_title === "Other" ? v.job_title_other ?? "" : "",
        phone: v.phone,
        celphone: v.celphone,
      };
      if (v.contact_id === undefined) await addContact(db, retailer.id, input);
      else if (!(await updateContact(db, retailer.id, v.contact_id, input))) return data({ error: "No such contact." }, { status: 404 });
      return back("contact");
    }
    case "send-reset": {
      const contactId = IdSchema.safeParse(form.get("contact_id"));
      if (!contactId.success) return data({ error: "Choose a contact." }, { status: 400 });
      const contact = (await listContactsWithLogin(db, retailer.id)).find((c) => c.id === contactId.data);
      if (!contact) return data({ error: "No such contact." }, { status: 404 });
      const user = contact.loginUserId !== null ? await findUserById(db, contact.loginUserId) : null;
      if (!user)
        return data(
          {
            error: "This contact has no login yet, so there is no password to reset.",
          },
          { status: 409 }
        );
      await sendStaffPasswordReset({ id: user.id, email: user.email });
      return back("reset");
    }
    case "brand-add":
    case "brand-delete": {
      const brandId = IdSchema.safeParse(form.get("brand_id"));
      if (!brandId.success || (await getBrandsByIds(db, [brandId.data])).length !== 1) return data({ error: "Choose a brand." }, { status: 400 });
      if (intent === "brand-add") await authorizeBrands(db, retailer.id, [brandId.data]);
      else await unauthorizeBrand(db, retailer.id, brandId.data);
      return back(intent);
    }
  }
}

const DONE: Record<string, string> = {
  info: "Retailer saved.",
  contact: "Contact saved.",
  reset: "A password reset e-mail is on its way to the contact.",
  "brand-add": "Brand added.",
  "brand-delete": "Brand link deleted.",
  "listing-updated": "Listing saved.",
  "listing-deleted": "Listing deleted.",
  "request-updated": "Request saved.",
  "request-deleted": "Request deleted.",
};

type LoaderData = Awaited<ReturnType<typeof loader>>;
type Chosen<T extends Tab> = Extract<LoaderData, { tab: T }>;

export default function ManageRetailer() {
  const d = useLoaderData<typeof loader>() as LoaderData;
  const actionData = useActionData<typeof action>() as { error?: string } | undefined;
  const chosen = d.tab === "choose" ? null : (d as Exclude<LoaderData, { tab: "choose" }>);
  return (
    <section className="page retailer-admin">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>
        Manage retailer
        {chosen ? `: ${chosen.retailer.storeName} #${chosen.retailer.id}` : ""}
      </h1>
      <nav className="tabs" aria-label="Retailer admin">
        {TABS.map((t) =>
          t === "choose" || chosen ? (
            <Link
              key={t}
              to={t === "choose" ? "/manage-retailer" : `/manage-retailer/${t}?id=${chosen!.retailer.id}`}
              aria-current={d.tab === t ? "page" : undefined}
              className={d.tab === t ? "active" : ""}
            >
              {TAB_LABELS[t]}
            </Link>
          ) : null
        )}
      </nav>
      {actionData?.error ? (
        <p className="alert alert-danger" role="alert">
          {actionData.error}
        </p>
      ) : null}
      {chosen?.done && DONE[chosen.done] ? (
        <p className="alert alert-success" role="status">
          {DONE[chosen.done]}
        </p>
      ) : null}
      {d.tab === "choose" ? <ChooseRetailer d={d as Chosen<"choose">} /> : null}
      {d.tab === "info" ? <InfoTab d={d as Chosen<"info">} /> : null}
      {d.tab === "contacts" ? <ContactsTab d={d as Chosen<"contacts">} /> : null}
      {d.tab === "brands" ? <BrandsTab d={d as Chosen<"brands">} /> : null}
      {d.tab === "listings" || d.tab === "requests" ? <ItemsTab d={d as Chosen<"listings"> | Chosen<"requests">} /> : null}
      {d.tab === "transactions" || d.tab === "rmas" ? <OrdersTab d={d as Chosen<"transactions"> | Chosen<"rmas">} /> : null}
    </section>
  );
}

function ChooseRetailer({ d }: { d: Chosen<"choose"> }) {
  const qs = (over: Record<string, string | number>) => {
    const p = new URLSearchParams({
      status: d.status,
      ...(d.q ? { q: d.q } : {}),
    });
    for (const [k, v] of Object.entries(over)) p.set(k, String(v));
    return `/manage-retailer?${p}`;
  };
  return (
    <>
      <nav className="tabs subtabs" aria-label="Retailer status">
        {LIST_TABS.map((s) => (
          <Link key={s} to={qs({ status: s, page: 1 })} className={d.status === s ? "active" : ""} aria-current={d.status === s ? "page" : undefined}>
            {s[0].toUpperCase() + s.slice(1)}
          </Link>
        ))}
      </nav>
      <Form method="get" className="inline-form search-form">
        <input type="hidden" name="status" value={d.status} />
        <input type="search" name="q" defaultValue={d.q} aria-label="Search retailers" placeholder="id, store, city or e-mail" />
        <button type="submit" className="button button-small">
          Search
        </button>
      </Form>
      <p className="muted">
        {d.total} retailer{d.total === 1 ? "" : "s"}
      </p>
      <div className="table-scroll">
        <table className="table" data-testid="retailer-list">
          <thead>
            <tr>
              {["id", "contact_email", "store_name", "city", "state", "segments", "price_tier", "is_active", "created", "last_active"].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {d.rows.map((r) => (
              <tr key={r.id} data-testid={`retailer-row-${r.id}`}>
                <td>
                  <Link to={`/manage-retailer/info?id=${r.id}`}>{r.id}</Link>
                </td>
                <td>{r.contactEmail}</td>
                <td>
                  <Link to={`/manage-retailer/info?id=${r.id}`}>{r.storeName || "(no store name yet)"}</Link>
                </td>
                <td>{r.city}</td>
                <td>{r.state}</td>
                <td>{r.segments}</td>
                <td>{r.priceTier}</td>
                <td>{r.isActive}</td>
                <td>{r.created}</td>
                <td>{r.lastActive}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {d.pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          {d.page > 1 ? <Link to={qs({ page: d.page - 1 })}>← Previous</Link> : null} Page {d.page} of {d.pages}{" "}
          {d.page < d.pages ? <Link to={qs({ page: d.page + 1 })}>Next →</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

function InfoTab({ d }: { d: Chosen<"info"> }) {
  const actionData = useActionData<typeof action>() as { result?: SubmissionResult<string[]> } | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof RetailerInfoSchema>, z.output<typeof RetailerInfoSchema>>({
    id: "retailer-info",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: d.info,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerInfoSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <p className="muted">
        is_active {d.retailer.isActive} · created {d.created} · last active {d.lastActive} · payout {d.payout ? "set up" : "not set up"}
      </p>
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="info-form">
        <input type="hidden" name="intent" value="info" />
        <ErrorList kind="form" errors={form.errors} />
        <StoreInfoFields fields={fields} />
        <div className="form-row">
          <Field label="Segments" htmlFor={fields.segments.id} errors={fields.segments.errors} hint="Separated by ; or ,">
            <input id={fields.segments.id} name={fields.segments.name} defaultValue={d.info.segments} />
          </Field>
          <Field label="Price tier" htmlFor={fields.price_tier.id} errors={fields.price_tier.errors}>
            <input id={fields.price_tier.id} name={fields.price_tier.name} defaultValue={d.info.price_tier} />
          </Field>
        </div>
        <div className="form-row">
          <Field label="Latitude" htmlFor={fields.latitude.id} errors={fields.latitude.errors}>
            <input id={fields.latitude.id} name={fields.latitude.name} defaultValue={d.info.latitude} inputMode="decimal" />
          </Field>
          <Field label="Longitude" htmlFor={fields.longitude.id} errors={fields.longitude.errors}>
            <input id={fields.longitude.id} name={fields.longitude.name} defaultValue={d.info.longitude} inputMode="decimal" />
          </Field>
        </div>
        <Field label="Status" htmlFor={fields.status.id} errors={fields.status.errors}>
          <select id={fields.status.id} name={fields.status.name} defaultValue={d.info.status}>
            <option value="pending">pending (is_active none)</option>
            <option value="active">active</option>
            <option value="inactive">inactive</option>
            <option value="denied">denied</option>
          </select>
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save retailer
          </button>
        </div>
      </Form>
    </>
  );
}

function ContactsTab({ d }: { d: Chosen<"contacts"> }) {
  const busy = useNavigation().state !== "idle";
  const editing = d.edit === "new" ? "new" : d.contacts.find((c) => String(c.id) === d.edit);
  return (
    <>
      <table className="table" data-testid="contacts">
        <thead>
          <tr>
            {["first_name", "last_name", "email", "job_title", "phone", "celphone", ""].map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {d.contacts.map((c) => (
            <tr key={c.id} data-testid={`contact-${c.id}`}>
              <td>{c.first_name}</td>
              <td>{c.last_name}</td>
              <td>{c.email}</td>
              <td>{c.job_title === "Other" ? c.job_title_other || "Other" : c.job_title}</td>
              <td>{c.phone}</td>
              <td>{c.celphone}</td>
              <td className="row-actions">
                <Link to={`/manage-retailer/contacts?id=${d.retailer.id}&edit=${c.id}`} className="button button-small button-outline">
                  Edit
                </Link>{" "}
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="send-reset" />
                  <input type="hidden" name="contact_id" value={c.id} />
                  <button
                    type="submit"
                    className="button button-small"
                    disabled={busy || !c.hasLogin}
                    title={c.hasLogin ? undefined : "This contact has no login yet"}
                  >
                    Send PW reset
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.contacts.length === 0 ? <p className="muted">No contacts yet.</p> : null}
      <p>
        <Link to={`/manage-retailer/contacts?id=${d.retailer.id}&edit=new`}>Add a contact</Link>
      </p>
      {editing ? <ContactModal retailerId={d.retailer.id} contact={editing === "new" ? null : editing} /> : null}
    </>
  );
}

function ContactModal({ retailerId, contact }: { retailerId: number; contact: Chosen<"contacts">["contacts"][number] | null }) {
  const actionData = useActionData<typeof action>() as { result?: SubmissionResult<string[]> } | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof ContactEditSchema>, z.output<typeof ContactEditSchema>>({
    id: `contact-${contact?.id ?? "new"}`,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: contact ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactEditSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [params] = useSearchParams();
  return (
    <Modal testId="contact-modal" title={contact ? `Edit ${contact.first_name} ${contact.last_name}` : "Add a contact"}>
      <Form
        method="post"
        action={`?${new URLSearchParams({
          id: params.get("id") ?? String(retailerId),
        })}`}
        {...getFormProps(form)}
        className="form-stack"
      >
        <input type="hidden" name="intent" value="contact" />
        {contact ? <input type="hidden" name="contact_id" value={contact.id} /> : null}
        <ErrorList kind="form" errors={form.errors} />
        <Field label="E-mail" htmlFor={fields.email.id} errors={fields.email.errors}>
          <input id={fields.email.id} name={fields.email.name} type="email" defaultValue={contact?.email ?? ""} />
        </Field>
        <ContactInfoFields fields={fields} jobIsOther={fields.job_title.value === "Other"} />
        <SaveCancel label="Save contact" back={`/manage-retailer/contacts?id=${retailerId}`} disabled={navigation.state === "submitting"} />
      </Form>
    </Modal>
  );
}

function BrandsTab({ d }: { d: Chosen<"brands"> }) {
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <h2>Brand links</h2>
      <table className="table" data-testid="brand-links">
        <thead>
          <tr>
            <th>brand</th>
            <th>status</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {d.links.map((l) => (
            <tr key={l.brandId}>
              <td>{l.brandName}</td>
              <td>{l.status}</td>
              <td>{l.created}</td>
              <td>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="brand-delete" />
                  <input type="hidden" name="brand_id" value={l.brandId} />
                  <button type="submit" className="button button-small button-outline" disabled={busy} aria-label={`Delete ${l.brandName}`}>
                    Delete
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.links.length === 0 ? <p className="muted">No brand links.</p> : null}
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="brand-add" />
        <select name="brand_id" aria-label="Brand to add" defaultValue="">
          <option value="">Add a brand…</option>
          {d.choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button button-small" disabled={busy}>
          Add brand
        </button>
      </Form>
      <h2>Brand requests</h2>
      {d.requests.length === 0 ? (
        <p className="muted">No brand requests.</p>
      ) : (
        <table className="table" data-testid="brand-requests">
          <thead>
            <tr>
              <th>brand_name</th>
              <th>brand_purchase_amount</th>
              <th>your_interest_in_this_brand</th>
              <th>brand contact</th>
              <th>status</th>
            </tr>
          </thead>
          <tbody>
            {d.requests.map((q) => (
              <tr key={q.id}>
                <td>{q.brandName}</td>
                <td>{q.amount}</td>
                <td>{q.interest || "—"}</td>
                <td>{q.contact || "—"}</td>
                <td>{q.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Acts as the retailer (kept in the session), then opens a page as it: "add listing" / "request listing". */
function ActAsButton({ retailerId, to, label }: { retailerId: number; to: string; label: string }) {
  return (
    <Form method="post" action="/act-as" className="inline-form">
      <input type="hidden" name="intent" value="act" />
      <input type="hidden" name="retailerId" value={retailerId} />
      <input type="hidden" name="redirectTo" value={to} />
      <button type="submit" className="button button-small">
        {label}
      </button>
    </Form>
  );
}

function ItemsTab({ d }: { d: Chosen<"listings"> | Chosen<"requests"> }) {
  const listing = d.tab === "listings";
  return (
    <>
      <p>
        <ActAsButton retailerId={d.retailer.id} to={listing ? "/addlisting" : "/requestlisting"} label={listing ? "add listing" : "request listing"} />{" "}
        <span className="muted">(acts as this retailer)</span>
      </p>
      {d.items.length === 0 ? (
        <p className="muted">{listing ? "No listings." : "No requests."}</p>
      ) : (
        <table className="table" data-testid={listing ? "listings" : "requests"}>
          <thead>
            <tr>
              <th>id</th>
              <th>brand</th>
              <th>sku</th>
              <th>product</th>
              <th>color</th>
              <th>units</th>
              <th>price</th>
              <th>status</th>
              <th>created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {d.items.map((i) => (
              <tr key={i.id}>
                <td>{i.id}</td>
                <td>{i.brandName}</td>
                <td>{i.sku}</td>
                <td>{i.productName}</td>
                <td>{i.color}</td>
                <td>{i.totalUnits}</td>
                <td>{i.price}</td>
                <td>{i.status}</td>
                <td>{i.created}</td>
                <td>
                  <Link
                    to={`/manage-retailer/${d.tab}?id=${d.retailer.id}&edit=${i.id}`}
                    className="button button-small button-outline"
                    aria-label={`Edit ${i.id}`}
                  >
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {d.editing ? <ItemModal d={d} item={d.editing} /> : null}
    </>
  );
}

/**
 * Modal edit of a listing or request: the sizes, reason, type and the modified reason, saved by the listing
 * editor's own action (/updatelisting/:id, /updaterequest/:id: staff's change is a correction), which comes
 * back here. Its refusals (bad input, pending transactions) show on the full editor.
 */
function ItemModal({ d, item }: { d: Chosen<"listings"> | Chosen<"requests">; item: NonNullable<Chosen<"listings">["editing"]> }) {
  const listing = d.tab === "listings";
  const back = `/manage-retailer/${d.tab}?id=${d.retailer.id}`;
  return (
    <Modal testId="item-modal" title={`Edit ${listing ? "listing" : "request"} #${item.id}`}>
      <p className="muted">{item.title}</p>
      <Form method="post" action={listing ? `/updatelisting/${item.id}` : `/updaterequest/${item.id}`} className="form-stack">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="back" value={back} />
        <div className="form-row">
          {item.sizes.map((sz, idx) => (
            <label key={sz.label} className="field">
              {sz.label}
              <input name={`sizes[${idx}]`} type="number" min={0} step={1} defaultValue={sz.count} />
            </label>
          ))}
        </div>
        {listing ? (
          <label className="field">
            Type
            <select name="listing_type" defaultValue={item.listingType ?? "sell"}>
              <option value="sell">Sell</option>
              <option value="swap">Swap</option>
            </select>
          </label>
        ) : null}
        <ChoiceSelect label="Reason" name="reason" choices={item.reasons} defaultValue={item.reason} />
        <ChoiceSelect label="Why is it changing?" name="modified_reason" choices={item.modifiedReasons} defaultValue="" placeholder="Choose…" />
        <SaveCancel label="Save" back={back} />
      </Form>
    </Modal>
  );
}

/** A modal opened by URL (works without JavaScript): a dialog over a backdrop. */
function Modal({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <div className="modal-backdrop">
      <dialog open className="modal" aria-labelledby={`${testId}-title`} data-testid={testId}>
        <h2 id={`${testId}-title`}>{title}</h2>
        {children}
      </dialog>
    </div>
  );
}

function SaveCancel({ label, back, disabled }: { label: string; back: string; disabled?: boolean }) {
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={disabled}>
        {label}
      </button>
      <Link to={back} className="button button-outline">
        Cancel
      </Link>
    </div>
  );
}

function ChoiceSelect(p: { label: string; name: string; choices: { value: string; label: string }[]; defaultValue: string; placeholder?: string }) {
  return (
    <label className="field">
      {p.label}
      <select name={p.name} defaultValue={p.defaultValue}>
        {p.placeholder !== undefined ? <option value="">{p.placeholder}</option> : null}
        {p.choices.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function OrdersTab({ d }: { d: Chosen<"transactions"> | Chosen<"rmas"> }) {
  if (d.orders.length === 0) return <p className="muted">{d.tab === "rmas" ? "No RMAs yet." : "No transactions yet."}</p>;
  return (
    <table className="table" data-testid="orders">
      <thead>
        <tr>
          <th>order</th>
          <th>type</th>
          <th>role</th>
          <th>other side</th>
          <th>brand</th>
          <th>status</th>
          <th>stage</th>
          <th>value</th>
          <th>created</th>
        </tr>
      </thead>
      <tbody>
        {d.orders.map((o) => (
          <tr key={o.id}>
            <td>{o.externalId}</td>
            <td>{o.type}</td>
            <td>{o.role}</td>
            <td>
              <Link to={`/manage-retailer/info?id=${o.otherId}`}>
                {o.otherName} #{o.otherId}
              </Link>
            </td>
            <td>{o.brandName ?? "—"}</td>
            <td>{o.displayStatus}</td>
            <td>{o.stage}</td>
            <td>{o.value}</td>
            <td>{o.created}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
