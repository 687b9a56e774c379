/**
 * The IDOR matrix: every route of app/routes that takes a parameter (an id, a file name, a
 * token, a tab) has a case here, and the first test fails when a route file with a parameter has none, so a
 * new route cannot slip in unchecked. Each case names what the parameter points at and, for objects that
 * belong to somebody, who owns them; then every probe (the GET of the page, the POST of each of its commands)
 * is sent as four outsiders:
 *
 *   other     an active retailer that is no party to the object (and is not authorized for the owner's brand)
 *   pending   a user whose retailer waits for activation
 *   inactive  a user of an inactive retailer (authorized for the shared brand, not the owner's)
 *   anonymous no session
 *
 * and, for the staff-users screens, a fifth: `ungranted`, a staff user holding every resource of the permissions
 * map but not the Staff users right (403).
 *
 * Each must be refused (404 or 403, or sent to sign-in, /error/ or its own status page, never to the object),
 * its answer must carry none of the object's marks (order numbers, the private product's sku, the owner's
 * store name), and the rows the object lives in must be byte-for-byte the same afterwards.
 * Positive controls prove the fixtures are real: each object opens (200) for its owner or for staff, so a
 * refusal above is a refusal and not a missing row.
 *
 * The objects are made with the factories (read-model rows as the workflows leave them): every refusal
 * happens before a workflow would be asked, so no workflow runs here.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray, like, ne, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "./harness";
import {
  brands,
  carts,
  listingMarkdowns,
  listingRequests,
  listings,
  offers,
  orderActions,
  orderContributions,
  orderMessages,
  orders,
  outboxEmails,
  passwordResetTokens,
  payments,
  staffUserChanges,
  ratings,
  retailerBrands,
  retailers,
  sandboxCarrierShipments,
  shipments,
  uploads,
  users,
} from "../../db/schema";
import { getEnv } from "../../app/utils/env.server";
import { inviteMember } from "../../db/queries/team";
import { generateResetToken, hashResetToken } from "../../app/utils/password.server";
import { formatMonth } from "../../domain/date-format";
import { RESOURCE_NAMES } from "../../domain/resources";
import { STAFF_USERS_PERMISSION } from "../../domain/staff-users";
import { createBrand } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { DEFAULT_TEST_PASSWORD } from "../factories";
import { createOrderAt, createRmaOf, createSwapOrder } from "../factories/orders";
import { TINY_PNG } from "./form-fixtures";
import { freshEmail, HttpClient, leakedTrace, type FormFields, type HttpResponse } from "./http";

const tok = uniqueToken().toUpperCase();
const uploadDir = path.resolve(process.env.UPLOAD_DIR ?? ".data/uploads");
const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");
/** The address an outsider's forged invitation names: no account may appear under it. */
const staffInviteEmail = `idor-invite-${tok.toLowerCase()}@example.test`;
/** The current month in the marketplace zone: a statement that exists (docs/product/screens.md, "Statements"). */
const statementMonth = formatMonth(new Date(), getEnv().MARKETPLACE_TZ);

type Persona = "other" | "pending" | "inactive" | "anonymous" | "ungranted";
const PERSONAS: readonly Persona[] = ["other", "pending", "inactive", "anonymous"];
const personas: Record<Persona, HttpClient> = {
  other: new HttpClient(),
  pending: new HttpClient(),
  inactive: new HttpClient(),
  anonymous: new HttpClient(),
  ungranted: new HttpClient(),
};
const owners = { a: new HttpClient(), b: new HttpClient(), staff: new HttpClient() };
type Owner = keyof typeof owners;

/** Everything the cases point at: retailer A's objects (B is A's counterparty in its orders). */
interface Fixtures {
  a: number;
  b: number;
  userA: number;
  brandPriv: { id: number; name: string };
  variationPriv: number;
  sku: string;
  listing: number;
  request: number;
  /** B's offer on A's listing (docs/product/offers.md), as its workflow leaves the row. */
  offer: number;
  buy: { id: number; externalId: string };
  actionId: number;
  swap: { id: number; externalId: string };
  rma: { id: number; externalId: string };
  tracking: string;
  photo: string;
  rmaPhoto: string;
  catalogueImage: string;
  reset: { token: string };
  /** A's invitation of someone into its team (docs/product/teams.md): the link's token. */
  invitation: { token: string };
  /** A staff account (permissions: brand) whose page only holders of the Staff users right open. */
  staffTarget: { id: number; email: string };
}
let fx: Fixtures;

/** One request an outsider sends. */
interface Probe {
  method: "GET" | "POST";
  path: string;
  form?: FormFields;
  /** Follow redirects and judge where it lands (a route that only redirects to another page of the object). */
  follow?: boolean;
  /** The answer an outsider may get instead of a refusal (a page of its own that must not show the object). */
  scoped?: true;
  /** A check of its own for routes whose refusal is not a status (the reset link answers "invalid"). */
  refused?: (r: HttpResponse) => string | null;
}

interface Case {
  /** What the parameter points at, and who may use it. */
  what: string;
  /** Outsiders probed (default: all four). */
  personas?: readonly Persona[];
  probes: (f: Fixtures) => Probe[];
  /** Positive controls: the object opens for its owner (status 200, or the check given). */
  opens?: (
    f: Fixtures,
  ) => { as: Owner; path: string; check?: (r: HttpResponse) => string | null }[];
}

/** A refusal that is a 404 with the invitation's message (a wrong token finds nothing). */
const notFound = (r: HttpResponse) =>
  r.status === 404 ? null : `answered ${r.status} ${r.body.slice(0, 80)}`;

const staffOnly = (
  what: string,
  probes: (f: Fixtures) => Probe[],
  opens: (f: Fixtures) => string[],
): Case => ({
  what: `${what} (staff only)`,
  probes,
  opens: (f) => opens(f).map((p) => ({ as: "staff" as const, path: p })),
});
const get = (p: string, extra: Partial<Probe> = {}): Probe => ({
  method: "GET",
  path: p,
  ...extra,
});
const post = (p: string, form: FormFields, extra: Partial<Probe> = {}): Probe => ({
  method: "POST",
  path: p,
  form,
  ...extra,
});

/**
 * The matrix: one case per route file of app/routes with a parameter in its name. A new route file with a
 * `$` fails the first test until it has a case here.
 */
const MATRIX: Record<string, Case> = {
  "$.tsx": {
    what: "no object: the catch-all answers 404 for any unknown path",
    probes: () => [get(`/no-such-page-${tok}`), post(`/no-such-page-${tok}`, { id: 1 })],
  },
  "active.$tab.tsx": {
    what: "a tab of the viewer's own listings or requests: another retailer's items never show",
    probes: () => [
      get("/active/listings", { scoped: true }),
      get("/active/requests", { scoped: true }),
    ],
    opens: (f) => [
      {
        as: "a",
        path: "/active/listings",
        check: (r) => (r.body.includes(f.sku) ? null : "A's listing is not on A's page"),
      },
      {
        as: "a",
        path: "/active/requests",
        check: (r) => (r.body.includes(f.sku) ? null : "A's request is not on A's page"),
      },
    ],
  },
  "admin.$class_name.$id.tsx": staffOnly(
    "a staff record (here retailer A's row and contact)",
    (f) => [
      get(`/admin/retailer/${f.a}`),
      post(`/admin/retailer/${f.a}`, { store_name: `Taken ${tok}`, intent: "save" }),
      post(`/admin/retailer/${f.a}`, { intent: "delete" }),
    ],
    (f) => [`/admin/retailer/${f.a}`],
  ),
  "admin.$class_name._index.tsx": staffOnly(
    "a staff list and its bulk actions",
    (f) => [
      get("/admin/retailer/"),
      post("/admin/brand/", {
        action: "delete_selected",
        selected: f.brandPriv.id,
        confirm: "yes",
      }),
    ],
    () => ["/admin/retailer/"],
  ),
  "admin.$class_name.choices.tsx": staffOnly(
    "a staff picker's choices",
    () => [get(`/admin/retailer/choices?q=${tok}`)],
    () => [`/admin/retailer/choices?q=${tok}`],
  ),
  "admin.$class_name.export.tsx": staffOnly(
    "a staff list's CSV export",
    () => [get("/admin/retailer/export")],
    () => ["/admin/retailer/export"],
  ),
  "admin.$class_name.new.tsx": staffOnly(
    "a staff create form",
    () => [
      get("/admin/brand/new"),
      post("/admin/brand/new", { name: `New ${tok}`, display_name: `New ${tok}`, intent: "save" }),
    ],
    () => ["/admin/brand/new"],
  ),
  "admin.active-rmas.($stage).tsx": staffOnly(
    "the RMA screen and its decision",
    (f) => [
      get(`/admin/active-rmas/all?open=${f.rma.id}`),
      post("/admin/active-rmas/all", { intent: "decide", rma: f.rma.id, fee: "0" }),
    ],
    (f) => [`/admin/active-rmas/all?open=${f.rma.id}`],
  ),
  "admin.active-transactions.($stage).tsx": staffOnly(
    "the transactions screen and its carrier tools",
    (f) => [
      get(`/admin/active-transactions/all?order=${f.buy.id}`),
      post("/admin/active-transactions/all", {
        intent: "carrier",
        order: f.buy.id,
        status: "delivered",
      }),
    ],
    (f) => [`/admin/active-transactions/all?order=${f.buy.id}`],
  ),
  "admin.listings.($stage).tsx": staffOnly(
    "the staff listings screen",
    () => [get("/admin/listings/all")],
    () => ["/admin/listings/all"],
  ),
  "admin.productvariationmanagement.$variation_id.tsx": staffOnly(
    "a product variation's staff page",
    (f) => [
      get(`/admin/productvariationmanagement/${f.variationPriv}`),
      post(`/admin/productvariationmanagement/${f.variationPriv}`, {
        intent: "save",
        price: "1.00",
      }),
    ],
    (f) => [`/admin/productvariationmanagement/${f.variationPriv}`],
  ),
  "admin.reports.$report.tsx": staffOnly(
    "a staff report download",
    () => [get("/admin/reports/retailer-brands.csv")],
    () => ["/admin/reports/retailer-brands.csv"],
  ),
  "admin.staff-users.$id.tsx": {
    what: "a staff account's page and its changes, and the list with the invitation beside it (admin.staff-users._index.tsx): staff with the Staff users right only",
    personas: [...PERSONAS, "ungranted"],
    probes: (f) => [
      get(`/admin/staff-users/${f.staffTarget.id}`),
      post(`/admin/staff-users/${f.staffTarget.id}`, {
        intent: "permissions",
        permissions: ["brand", STAFF_USERS_PERMISSION],
      }),
      post(`/admin/staff-users/${f.staffTarget.id}`, { intent: "deactivate" }),
      post(`/admin/staff-users/${f.staffTarget.id}`, { intent: "send-reset" }),
      get("/admin/staff-users"),
      post("/admin/staff-users", { email: staffInviteEmail, permissions: STAFF_USERS_PERMISSION }),
    ],
    opens: (f) => [
      { as: "staff", path: `/admin/staff-users/${f.staffTarget.id}` },
      {
        as: "staff",
        path: "/admin/staff-users",
        check: (r) =>
          r.status === 200 && r.body.includes(f.staffTarget.email) ? null : `answered ${r.status}`,
      },
    ],
  },
  "admin.validate.($stage).tsx": staffOnly(
    "the validation tools",
    (f) => [
      get("/admin/validate/brands"),
      post("/admin/validate/brands", { intent: "validate", brand: f.brandPriv.id }),
    ],
    () => ["/admin/validate/brands"],
  ),
  "buy_.$brand.tsx": {
    what: "the marketplace of one brand: only its authorized retailers see it",
    probes: (f) => [get(`/buy/${f.brandPriv.id}`)],
    opens: (f) => [
      {
        as: "b",
        path: `/buy/${f.brandPriv.id}`,
        check: (r) => (r.status === 404 ? "B was refused although authorized" : null),
      },
    ],
  },
  "sandbox.dashboard.$.tsx": staffOnly(
    "the sandbox payment provider's records page",
    () => [get(`/sandbox/dashboard/search?query=${tok}`), get("/sandbox/dashboard/payments/pi_x")],
    () => [`/sandbox/dashboard/search?query=${tok}`],
  ),
  "sell_.$brand.tsx": {
    what: "the marketplace of one brand (requests): only its authorized retailers see it",
    probes: (f) => [get(`/sell/${f.brandPriv.id}`)],
    opens: (f) => [{ as: "b", path: `/sell/${f.brandPriv.id}` }],
  },
  "swap_.$brand.tsx": {
    what: "the marketplace of one brand (swaps): only its authorized retailers see it",
    probes: (f) => [get(`/swap/${f.brandPriv.id}`)],
    opens: (f) => [{ as: "b", path: `/swap/${f.brandPriv.id}` }],
  },
  "catalogue-images.$file.tsx": {
    what: "a catalogue picture: anyone signed in may see the catalogue, nobody signed out",
    personas: ["anonymous"],
    probes: (f) => [get(`/catalogue-images/${f.catalogueImage}`)],
    opens: (f) => [{ as: "b", path: `/catalogue-images/${f.catalogueImage}` }],
  },
  "codec.$op.tsx": {
    what: "the Temporal Web UI's codec server: order payloads opened or sealed with the payload keys (staff with the right only)",
    probes: () =>
      ["decode", "encode"].map((op) =>
        post(
          `/codec/${op}`,
          { payloads: "[]" },
          {
            refused: (r) => (r.status === 401 || r.status === 403 ? null : `answered ${r.status}`),
          },
        ),
      ),
  },
  "create-rma.($id).tsx": {
    what: "the RMA wizard of an order A received",
    probes: (f) => [
      get(`/create-rma/${f.buy.id}`),
      post(`/create-rma/${f.buy.id}`, { step: "units", intent: "next", [`qty_${f.buy.id}`]: 1 }),
    ],
    opens: (f) => [{ as: "a", path: `/create-rma/${f.buy.id}` }],
  },
  "listing.$tab.$id.tsx": {
    what: "a listing or request of a brand the viewer is not authorized for",
    probes: (f) => [get(`/listing/buy/${f.listing}`), get(`/listing/sell/${f.request}`)],
    opens: (f) => [
      { as: "b", path: `/listing/buy/${f.listing}` },
      { as: "b", path: `/listing/sell/${f.request}` },
    ],
  },
  "manage-brand.($tab).tsx": staffOnly(
    "the brand manager",
    (f) => [
      get(`/manage-brand/info?brand=${f.brandPriv.id}`),
      post(`/manage-brand/retailers?brand=${f.brandPriv.id}`, {
        intent: "add_retailer",
        retailer: f.a,
      }),
    ],
    (f) => [`/manage-brand/info?brand=${f.brandPriv.id}`],
  ),
  "manage-retailer.tsx": staffOnly(
    "the retailer manager (a tab of the layout)",
    (f) => [
      get(`/manage-retailer/info?id=${f.a}`),
      post(`/manage-retailer/info?id=${f.a}`, { intent: "deactivate", id: f.a }),
      // Each tab with commands is a route of its own.
      post(`/manage-retailer/contacts?id=${f.a}`, { intent: "send-reset", contact_id: 1 }),
      post(`/manage-retailer/brands?id=${f.a}`, {
        intent: "brand-delete",
        brand_id: f.brandPriv.id,
      }),
      // Its stock imports (docs/guides/stock-import.md "Staff"): staff only.
      get(`/manage-retailer/imports?id=${f.a}`),
    ],
    (f) => [`/manage-retailer/info?id=${f.a}`],
  ),
  "messages.$kind.$id.tsx": {
    what: "an order's conversation and its posting (a purchase and a swap between A and B, an RMA of A against B)",
    probes: (f) => [
      get(`/messages/buy/${f.buy.id}`),
      post(`/messages/buy/${f.buy.id}`, { body: `Taken ${tok}` }),
      get(`/messages/swap/${f.swap.id}`),
      post(`/messages/swap/${f.swap.id}`, { body: `Taken ${tok}` }),
      get(`/messages/rma/${f.rma.id}`),
      post(`/messages/rma/${f.rma.id}`, { body: `Taken ${tok}` }),
      // An order under another kind's name is no conversation.
      post(`/messages/buy/${f.rma.id}`, { body: `Taken ${tok}` }),
    ],
    opens: (f) => [
      { as: "a", path: `/messages/buy/${f.buy.id}` },
      { as: "b", path: `/messages/buy/${f.buy.id}` },
      { as: "a", path: `/messages/swap/${f.swap.id}` },
      { as: "b", path: `/messages/rma/${f.rma.id}` },
      { as: "staff", path: `/messages/rma/${f.rma.id}` },
    ],
  },
  "offers.$id.tsx": {
    what: "an offer between A (seller) and B (buyer): its page and each answer",
    probes: (f) => [
      get(`/offers/${f.offer}`),
      post(`/offers/${f.offer}`, { intent: "accept" }),
      post(`/offers/${f.offer}`, { intent: "decline" }),
      post(`/offers/${f.offer}`, { intent: "withdraw" }),
      post(`/offers/${f.offer}`, { intent: "counter", price: "35.00" }),
    ],
    opens: (f) => [
      { as: "a", path: `/offers/${f.offer}` },
      { as: "b", path: `/offers/${f.offer}` },
    ],
  },
  "orders.($stage).tsx": {
    what: "a tab of the viewer's own orders: another retailer's orders never show",
    probes: () =>
      ["sales", "purchases", "swaps", "sentswaps", "receivedswaps"].map((s) =>
        get(`/orders/${s}`, { scoped: true }),
      ),
    opens: (f) => [
      {
        as: "a",
        path: "/orders/purchases",
        check: (r) =>
          r.body.includes(f.buy.externalId) ? null : "A's purchase is not on A's page",
      },
    ],
  },
  "packingslip.$id.tsx": {
    what: "an order's packing slip, by order number or action id (the sender's)",
    probes: (f) => [
      get(`/packingslip/${f.buy.externalId}`),
      get(`/packingslip/${f.actionId}`),
      get(`/packingslip/${f.swap.externalId}`),
    ],
    opens: (f) => [
      { as: "b", path: `/packingslip/${f.buy.externalId}` },
      { as: "b", path: `/packingslip/${f.actionId}` },
    ],
  },
  "join.$token.tsx": {
    what: "an invitation into A's team: only its link's token opens it (a public page, no account yet)",
    probes: (f) => [
      get(`/join/${f.invitation.token.slice(0, -2)}xy`, { refused: notFound }),
      post(
        `/join/${f.invitation.token.slice(0, -2)}xy`,
        { new_password: `Taken-${tok}-1`, confirm: `Taken-${tok}-1` },
        { refused: notFound },
      ),
    ],
    opens: (f) => [{ as: "b", path: `/join/${f.invitation.token}` }],
  },
  "password-reset.($uid).($token).tsx": {
    what: "a password reset link: its user id is public, only the token opens it",
    probes: (f) => [
      get(`/password-reset/${f.userA}/${generateResetToken()}`, { refused: invalidLink }),
      post(
        `/password-reset/${f.userA}/${generateResetToken()}`,
        { new_password: `Taken-${tok}-1`, confirm: `Taken-${tok}-1` },
        { refused: (r) => (r.status === 400 ? null : `answered ${r.status}`) },
      ),
      get(`/password-reset/${f.userA}/${f.reset.token.slice(0, -1)}x`, { refused: invalidLink }),
    ],
    opens: (f) => [
      {
        as: "b",
        path: `/password-reset/${f.userA}/${f.reset.token}`,
        check: (r) => (invalidLink(r) === null ? "the real link reads as invalid" : null),
      },
    ],
  },
  "rate.$id.tsx": {
    what: "the rating page of an order A received",
    probes: (f) => [
      get(`/rate/${f.buy.id}`),
      post(`/rate/${f.buy.id}`, {
        intent: "rate",
        packaging: 1,
        timeliness: 1,
        accuracy: 1,
        comment: `Taken ${tok}`,
      }),
      post(`/rate/${f.buy.id}`, { intent: "confirm_received" }),
    ],
    opens: (f) => [{ as: "a", path: `/rate/${f.buy.id}` }],
  },
  "rma.$id.tsx": {
    what: "an RMA page (victim A, perpetrator B), and the list of returns beside it (rma._index.tsx): an outsider's never shows it",
    probes: (f) => [
      get(`/rma/${f.rma.id}`),
      post(`/rma/${f.rma.id}`, { intent: "cancel" }),
      get("/rma", { scoped: true }),
      get("/rma?status=rmarequested", { scoped: true }),
    ],
    opens: (f) => [
      { as: "a", path: `/rma/${f.rma.id}` },
      { as: "b", path: `/rma/${f.rma.id}` },
      ...(["a", "b"] as const).map((as) => ({
        as,
        path: "/rma",
        check: (r: HttpResponse) =>
          r.status === 200 && r.body.includes(f.rma.externalId)
            ? null
            : `the list does not show the RMA (${r.status})`,
      })),
    ],
  },
  "statements.$month.tsx": {
    what: "a month's statement of retailer A (staff name it with ?retailer=), and the list of months beside it (statements._index.tsx)",
    probes: (f) => [
      get(`/statements/${statementMonth}?retailer=${f.a}`),
      get(`/statements?retailer=${f.a}`),
    ],
    opens: (f) => [
      { as: "a", path: `/statements/${statementMonth}` },
      { as: "staff", path: `/statements/${statementMonth}?retailer=${f.a}` },
      { as: "staff", path: `/statements?retailer=${f.a}` },
    ],
  },
  "statements.$month_.csv.tsx": {
    what: "a month's statement of retailer A as CSV",
    probes: (f) => [get(`/statements/${statementMonth}/csv?retailer=${f.a}`)],
    opens: (f) => [
      { as: "a", path: `/statements/${statementMonth}/csv` },
      { as: "staff", path: `/statements/${statementMonth}/csv?retailer=${f.a}` },
    ],
  },
  "statements.$month_.pdf.tsx": {
    what: "a month's statement of retailer A as PDF",
    probes: (f) => [get(`/statements/${statementMonth}/pdf?retailer=${f.a}`)],
    opens: (f) => [
      { as: "a", path: `/statements/${statementMonth}/pdf` },
      { as: "staff", path: `/statements/${statementMonth}/pdf?retailer=${f.a}` },
    ],
  },
  "shipperchecklist.$id.tsx": {
    what: "an order's shipper checklist (the sender's)",
    probes: (f) => [
      get(`/shipperchecklist/${f.buy.externalId}`),
      get(`/shipperchecklist/${f.actionId}`),
    ],
    opens: (f) => [{ as: "b", path: `/shipperchecklist/${f.buy.externalId}` }],
  },
  "shipping-label.$tracking.tsx": {
    what: "a carrier label, by tracking number (the sender's)",
    probes: (f) => [get(`/shipping-label/${f.tracking}`)],
    opens: (f) => [{ as: "b", path: `/shipping-label/${f.tracking}` }],
  },
  "tracking.$tracking.tsx": {
    what: "a parcel's carrier events, by tracking number (its sender and receiver)",
    probes: (f) => [get(`/tracking/${f.tracking}`)],
    opens: (f) => [{ as: "b", path: `/tracking/${f.tracking}` }],
  },
  "signin.($stage).tsx": {
    what: "no object: the stage only picks a form (register and forgot redirect to their pages)",
    probes: () => [
      get("/signin/register", { scoped: true }),
      get("/signin/forgot", { scoped: true }),
      get(`/signin/${tok}`, { scoped: true }),
    ],
  },
  "transaction.$ttype.$id.tsx": {
    what: "an order's page and its commands (a purchase A received, a swap between A and B)",
    probes: (f) => [
      get(`/transaction/buy/${f.buy.id}`),
      post(`/transaction/buy/${f.buy.id}`, { intent: "decline_checkout", reason: "changed_mind" }),
      post(`/transaction/buy/${f.buy.id}`, { intent: "respond" }),
      // The buyer's store's approval over a buyer's limit (docs/product/teams.md).
      post(`/transaction/buy/${f.buy.id}`, { intent: "store_approve" }),
      post(`/transaction/buy/${f.buy.id}`, { intent: "store_decline" }),
      get(`/transaction/swap/${f.swap.id}`),
      post(`/transaction/swap/${f.swap.id}`, { intent: "decline", reason: "changed_mind" }),
      post(`/transaction/swap/${f.swap.id}`, { intent: "approve" }),
      post(`/transaction/swap/${f.swap.id}`, { intent: "store_approve" }),
      get(`/transaction/buy/${f.rma.id}`),
    ],
    opens: (f) => [
      { as: "a", path: `/transaction/buy/${f.buy.id}` },
      { as: "b", path: `/transaction/buy/${f.buy.id}` },
      { as: "a", path: `/transaction/swap/${f.swap.id}` },
    ],
  },
  "updatelisting.$id.tsx": {
    what: "the edit form of A's listing",
    probes: (f) => [
      get(`/updatelisting/${f.listing}`),
      post(`/updatelisting/${f.listing}`, { intent: "delete" }),
      post(`/updatelisting/${f.listing}`, {
        intent: "save",
        "sizes[0]": 9,
        modified_reason: "inventory_correction",
      }),
      // Its markdown schedule (docs/product/markdowns.md): set, pause, cancel.
      post(`/updatelisting/${f.listing}`, {
        intent: "markdown",
        stepKind: "percent",
        step: "10",
        everyDays: "7",
        floorKind: "percent",
        floor: "60",
      }),
      post(`/updatelisting/${f.listing}`, { intent: "markdown-pause" }),
      post(`/updatelisting/${f.listing}`, { intent: "markdown-cancel" }),
    ],
    opens: (f) => [{ as: "a", path: `/updatelisting/${f.listing}` }],
  },
  "updaterequest.$id.tsx": {
    what: "the edit form of A's request",
    probes: (f) => [
      get(`/updaterequest/${f.request}`),
      post(`/updaterequest/${f.request}`, { intent: "delete" }),
    ],
    opens: (f) => [{ as: "a", path: `/updaterequest/${f.request}` }],
  },
  "uploads.$file.tsx": {
    what: "a picture A uploaded (not yet on a listing) and a picture of A's RMA",
    probes: (f) => [get(`/uploads/${f.photo}`), get(`/uploads/${f.rmaPhoto}`)],
    opens: (f) => [
      { as: "a", path: `/uploads/${f.photo}` },
      { as: "staff", path: `/uploads/${f.rmaPhoto}` },
    ],
  },
  "viewlisting.$listingId.$action.tsx": {
    what: "the listing view by its spec name: it redirects to /listing/..., where the brand decides",
    probes: (f) => [get(`/viewlisting/${f.listing}/buy`, { follow: true })],
    opens: (f) => [
      {
        as: "b",
        path: `/viewlisting/${f.listing}/buy`,
        check: (r) =>
          r.status === 302 && r.location === `/listing/buy/${f.listing}`
            ? null
            : `answered ${r.status} ${r.location}`,
      },
    ],
  },
};

/** The reset page with a wrong token: the "invalid link" stage, no form for a new password. */
function invalidLink(r: HttpResponse): string | null {
  if (r.status !== 200) return `answered ${r.status}`;
  return /name="new_password"/.test(r.body) ? "the page offers a new password" : null;
}

/** Where a refused request may be sent: sign-in, the error page, the user's own status page. */
const AWAY = /^\/(signin(\?|$)|error\/|wait-for-activation\/|retailer-setup\/|retailer-denied\/)/;

function refusal(p: Probe, r: HttpResponse): string | null {
  if (r.status >= 500) return `answered ${r.status}`;
  if (leakedTrace(r.body)) return "the answer carries a stack trace";
  if (p.refused) return p.refused(r);
  // 405: the route has no action, so a POST cannot reach anything.
  if (r.status === 403 || r.status === 404 || (p.method === "POST" && r.status === 405))
    return null;
  if ((r.status === 302 || r.status === 303) && r.location && AWAY.test(r.location)) return null;
  if (p.follow && r.status === 200 && AWAY.test(new URL(r.url).pathname + new URL(r.url).search))
    return null;
  if (p.scoped && (r.status === 200 || r.status === 302 || r.status === 303)) return null;
  return `answered ${r.status}${r.location ? ` → ${r.location}` : ""}`;
}

/** Marks of A's objects that no outsider's answer may carry. */
function marks(f: Fixtures): string[] {
  return [
    f.buy.externalId,
    f.swap.externalId,
    f.rma.externalId,
    f.sku,
    f.brandPriv.name,
    f.tracking,
    `Store A ${tok}`,
    f.staffTarget.email,
  ];
}

async function send(c: HttpClient, p: Probe): Promise<HttpResponse> {
  if (p.method === "GET") return c.get(p.path, { follow: p.follow });
  return c.postForm(p.path, p.form ?? {}, { follow: p.follow });
}

/** Every row the objects live in, in a fixed order: what "nothing changed" compares. */
async function snapshot(f: Fixtures): Promise<string> {
  const orderIds = [f.buy.id, f.swap.id, f.rma.id];
  const parties = [f.a, f.b];
  const rows = await Promise.all([
    db().select().from(orders).where(inArray(orders.id, orderIds)).orderBy(orders.id),
    db().select().from(offers).where(eq(offers.id, f.offer)),
    db()
      .select()
      .from(orderContributions)
      .where(inArray(orderContributions.orderId, orderIds))
      .orderBy(orderContributions.id),
    db()
      .select()
      .from(orderActions)
      .where(inArray(orderActions.orderId, orderIds))
      .orderBy(orderActions.id),
    db().select().from(shipments).where(inArray(shipments.orderId, orderIds)).orderBy(shipments.id),
    db().select().from(payments).where(inArray(payments.orderId, orderIds)).orderBy(payments.id),
    db().select().from(ratings).where(inArray(ratings.orderId, orderIds)).orderBy(ratings.id),
    db()
      .select()
      .from(orderMessages)
      .where(inArray(orderMessages.orderId, orderIds))
      .orderBy(orderMessages.id),
    db()
      .select()
      .from(sandboxCarrierShipments)
      .where(eq(sandboxCarrierShipments.trackingNumber, f.tracking)),
    db().select().from(listings).where(eq(listings.id, f.listing)),
    db().select().from(listingMarkdowns).where(eq(listingMarkdowns.listingId, f.listing)),
    db().select().from(listingRequests).where(eq(listingRequests.id, f.request)),
    db()
      .select()
      .from(uploads)
      .where(inArray(uploads.name, [f.photo, f.rmaPhoto]))
      .orderBy(uploads.name),
    db().select().from(retailers).where(inArray(retailers.id, parties)).orderBy(retailers.id),
    db()
      .select()
      .from(retailerBrands)
      .where(
        or(inArray(retailerBrands.retailerId, parties), eq(retailerBrands.brandId, f.brandPriv.id)),
      )
      .orderBy(retailerBrands.id),
    db()
      .select()
      .from(brands)
      .where(or(eq(brands.id, f.brandPriv.id), like(brands.name, `%${tok}%`)))
      .orderBy(brands.id),
    db().select().from(users).where(eq(users.retailerId, f.a)).orderBy(users.id),
    db()
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, f.userA))
      .orderBy(passwordResetTokens.id),
    db().select().from(carts).where(inArray(carts.retailerId, parties)).orderBy(carts.retailerId),
    db()
      .select()
      .from(users)
      .where(or(eq(users.id, f.staffTarget.id), eq(users.email, staffInviteEmail))),
    db()
      .select()
      .from(staffUserChanges)
      .where(eq(staffUserChanges.userId, f.staffTarget.id))
      .orderBy(staffUserChanges.id),
    db()
      .select({ id: outboxEmails.id })
      .from(outboxEmails)
      .where(
        and(
          like(outboxEmails.toEmail, `%${tok.toLowerCase()}%`),
          // Every staff user hears of each RMA filed, the fixture's staff users too: another file's RMA,
          // filed while the probes run, is not their doing.
          or(
            ne(outboxEmails.kind, "rma:rma_requested_staff"),
            like(outboxEmails.dedupeKey, `rma:${f.rma.id}:%`),
          ),
        ),
      )
      .orderBy(outboxEmails.id),
  ]);
  // Columns that record reading, not changing, are left out: a party's last visit.
  return JSON.stringify(rows, (k, v) =>
    k === "lastActiveAt" || k === "lastLoginAt" ? undefined : v,
  );
}

beforeAll(async () => {
  const email = (who: string) => freshEmail(`idor-${who}-${tok.toLowerCase()}`);
  const sku = `IDP${tok}`;
  const priv = await createWorld(db(), {
    brand: { name: `Private ${tok}` },
    products: [{ sku, colors: 2 }],
  });
  const brandShared = await createBrand(db(), { name: `Shared ${tok}` });
  const [brandPriv, prod] = [priv.brand, priv.products[0]];
  const ra = await createRetailer(db(), {
    payout: true,
    user: { email: email("a") },
    storeName: `Store A ${tok}`,
  });
  const rb = await createRetailer(db(), { payout: true, user: { email: email("b") } });
  const rc = await createRetailer(db(), { payout: true, user: { email: email("other") } });
  const rp = await createRetailer(db(), { status: "pending", user: { email: email("pending") } });
  const ri = await createRetailer(db(), {
    status: "inactive",
    payout: true,
    user: { email: email("inactive") },
  });
  for (const r of [ra, rb]) await authorizeBrand(db(), r.retailer.id, brandPriv.id);
  for (const r of [ra, rb, rc, ri, rp]) await authorizeBrand(db(), r.retailer.id, brandShared.id);
  const a = ra.retailer.id;
  const b = rb.retailer.id;
  const listing = await createListing(db(), {
    variationId: prod.variations[0].id,
    providerId: a,
    sizes: { S: 1, M: 2 },
  });
  const request = await createRequest(db(), {
    variationId: prod.variations[1].id,
    requestorId: a,
    sizes: { L: 1 },
  });
  const line = { variationId: prod.variations[0].id, sizes: { M: 2 } };
  const [offer] = await db()
    .insert(offers)
    .values({
      listingId: listing.id,
      buyerId: b,
      sellerId: a,
      sizes: { M: 1 },
      units: 1,
      listedUnitCents: 4000,
      buyerUnitCents: 3000,
      tableUnitCents: 3000,
      holdCents: 5675,
      deadline: new Date(Date.now() + 2 * 86_400_000),
    })
    .returning({ id: offers.id });
  await db()
    .update(offers)
    .set({ workflowId: `offer:${offer.id}` })
    .where(eq(offers.id, offer.id));

  const buy = await createOrderAt(db(), "delivered", {
    providerId: b,
    receiverId: a,
    lines: [line],
    externalId: `IDB${tok}`,
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  const [action] = await db()
    .select({ id: orderActions.id })
    .from(orderActions)
    .where(eq(orderActions.orderId, buy.order.id))
    .orderBy(orderActions.id)
    .limit(1);
  const swap = await createSwapOrder(db(), {
    providerId: a,
    receiverId: b,
    lines: [line],
    externalId: `IDS${tok}`,
  });

  // Pictures: one A uploaded for a listing it has not saved yet, one on A's RMA, one of the catalogue.
  const userA = ra.user!.id;
  const photo = `${crypto.randomUUID()}.png`;
  const rmaPhoto = `${crypto.randomUUID()}.png`;
  const catalogueImage = `${crypto.randomUUID()}.png`;
  fs.mkdirSync(path.join(uploadDir, "catalogue"), { recursive: true });
  for (const name of [photo, rmaPhoto]) fs.writeFileSync(path.join(uploadDir, name), TINY_PNG);
  fs.writeFileSync(path.join(uploadDir, "catalogue", catalogueImage), TINY_PNG);
  await db()
    .insert(uploads)
    .values([
      { name: photo, uploaderId: userA },
      { name: rmaPhoto, uploaderId: userA },
    ]);

  // A's RMA of the purchase, written the way the wizard writes it (its picture attached).
  const rma = await createRmaOf(db(), buy.order.id, {
    victimId: a,
    uploaderUserId: userA,
    pictures: [rmaPhoto],
    contact: {
      name: `Victim ${tok}`,
      email: email("contact"),
      phone: "+1-217-555-0199",
      packingSlipName: `Victim ${tok}`,
    },
  });

  const tracking = `IDL${tok}`;
  await db()
    .insert(sandboxCarrierShipments)
    .values({
      id: `shp_${tok}`,
      orderId: buy.order.id,
      senderId: b,
      trackingNumber: tracking,
      callTag: `CT${tok}`,
      status: "delivered",
      labelData: {
        trackingNumber: tracking,
        callTag: `CT${tok}`,
        externalId: buy.order.externalId,
        senderId: b,
        receiverId: a,
        to: { street1: "1 Main St", city: "Springfield", state: "IL", zip: "62701" },
        units: 2,
        createdAt: new Date().toISOString(),
        pickupBy: new Date(Date.now() + 86_400_000).toISOString(),
      } as never,
    });
  // The read model's parcel of the same tracking number (its events page, /tracking/:tracking).
  await db().insert(shipments).values({
    orderId: buy.order.id,
    senderId: b,
    receiverId: a,
    trackingNumber: tracking,
    status: "delivered",
  });

  const staffTarget = await createStaffUser(db(), {
    email: email("staff-target"),
    permissions: ["brand"],
  });
  const token = generateResetToken();
  await db()
    .insert(passwordResetTokens)
    .values({
      userId: userA,
      tokenHash: hashResetToken(token),
      expiresAt: new Date(Date.now() + 3_600_000),
    });

  // A's owner invites someone into A's team: the token is in the e-mail only.
  let invitationToken = "";
  const invited = await inviteMember(db(), {
    retailerId: a,
    invitedBy: userA,
    email: email("invited"),
    roles: ["lister"],
    mail: (t) => {
      invitationToken = t;
      return {
        toEmail: email("invited"),
        subject: "Invitation",
        bodyText: "(the matrix's own)",
        kind: "team_invitation",
      };
    },
  });
  if (!invited.ok) throw new Error(invited.message);

  fx = {
    a,
    b,
    userA,
    brandPriv: { id: brandPriv.id, name: brandPriv.name },
    variationPriv: prod.variations[0].id,
    sku,
    listing: listing.id,
    request: request.id,
    offer: offer.id,
    buy: { id: buy.order.id, externalId: buy.order.externalId },
    actionId: action.id,
    swap: { id: swap.order.id, externalId: swap.order.externalId },
    rma: { id: rma.rmaId, externalId: rma.externalId },
    tracking,
    photo,
    rmaPhoto,
    catalogueImage,
    reset: { token },
    invitation: { token: invitationToken },
    staffTarget: { id: staffTarget.id, email: staffTarget.email },
  };

  const staffUser = await createStaffUser(db(), {
    email: email("staff"),
    permissions: [...RESOURCE_NAMES, STAFF_USERS_PERMISSION],
  });
  const ungranted = await createStaffUser(db(), {
    email: email("ungranted"),
    permissions: [...RESOURCE_NAMES],
  });
  await Promise.all([
    owners.a.signIn(ra.user!.email, DEFAULT_TEST_PASSWORD),
    owners.b.signIn(rb.user!.email, DEFAULT_TEST_PASSWORD),
    owners.staff.signIn(staffUser.email, DEFAULT_TEST_PASSWORD),
    personas.other.signIn(rc.user!.email, DEFAULT_TEST_PASSWORD),
    personas.pending.signIn(rp.user!.email, DEFAULT_TEST_PASSWORD),
    personas.inactive.signIn(ri.user!.email, DEFAULT_TEST_PASSWORD),
    personas.ungranted.signIn(ungranted.email, DEFAULT_TEST_PASSWORD),
  ]);
});

afterAll(async () => {
  for (const name of fx ? [fx.photo, fx.rmaPhoto, path.join("catalogue", fx.catalogueImage)] : [])
    fs.rmSync(path.join(uploadDir, name), { force: true });
});

/**
 * Layouts whose tabs are child routes of their own (/manage-retailer/<tab>?id=): the tab is as much a parameter
 * as ($tab) was, so each layout keeps a case.
 */
const TAB_LAYOUTS = ["manage-retailer.tsx"];

/** The route files of app/routes whose names carry a parameter ($id, ($stage), the $ catch-all), and the tab layouts. */
function parameterRoutes(): string[] {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter(
      (n) =>
        /\.(tsx?|jsx?)$/.test(n) &&
        !/\.server\.tsx?$/.test(n) &&
        (n.includes("$") || TAB_LAYOUTS.includes(n)),
    )
    .sort();
}

describe("the IDOR matrix", () => {
  it("every route file that takes a parameter has a case, and every case names an existing route file", () => {
    const routes = parameterRoutes();
    expect(routes.length).toBeGreaterThan(30);
    expect(
      routes.filter((r) => !Object.hasOwn(MATRIX, r)),
      "route files with a parameter and no case in MATRIX",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((k) => !routes.includes(k)),
      "cases of route files that no longer exist",
    ).toEqual([]);
  });

  it("the owners open their objects (the fixtures are real, so the refusals below are refusals)", async () => {
    const problems: string[] = [];
    for (const [file, c] of Object.entries(MATRIX)) {
      for (const o of c.opens?.(fx) ?? []) {
        const r = await owners[o.as].get(o.path);
        const bad = o.check
          ? o.check(r)
          : r.status === 200
            ? null
            : `answered ${r.status}${r.location ? ` → ${r.location}` : ""}`;
        if (bad) problems.push(`${file}: ${o.as} GET ${o.path}: ${bad}`);
      }
    }
    expect(problems).toEqual([]);
  });

  describe.each(Object.entries(MATRIX))("%s", (file, c) => {
    it(`${c.what}: refused to ${(c.personas ?? PERSONAS).join(", ")}; nothing changes`, async () => {
      const before = await snapshot(fx);
      const problems: string[] = [];
      for (const who of c.personas ?? PERSONAS) {
        for (const p of c.probes(fx)) {
          const r = await send(personas[who], p);
          const bad = refusal(p, r);
          if (bad) problems.push(`${who} ${p.method} ${p.path}: ${bad}`);
          const leaked = marks(fx).filter((m) => r.body.includes(m));
          if (leaked.length)
            problems.push(`${who} ${p.method} ${p.path}: the answer shows ${leaked.join(", ")}`);
        }
      }
      expect(problems).toEqual([]);
      expect(await snapshot(fx), `rows changed after ${file}'s probes`).toBe(before);
    });
  });
});
