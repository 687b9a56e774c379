/**
 * What the form-guard tests (form-limits.test.ts, fuzz.test.ts) post to: a staff user, an active retailer
 * with payout, an authorized brand, a product with a size run, one listing and one request of the retailer,
 * a login without a retailer (the setup wizard), each signed in with its own HttpClient; plus the URLs of
 * every wizard stage with a complete state, so a post reaches the form parse.
 */
import { createDb, type DbHandle } from "../../db/client";
import { createSwapOrder } from "../../db/queries/swap-orders";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { wizardQuery, type WizardState } from "../../domain/listing-forms";
import { LISTING_REASONS, REQUEST_REASONS } from "../../domain/reasons";
import { SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { createUser, DEFAULT_TEST_PASSWORD } from "../factories";
import { freshEmail, HttpClient, inputValue } from "./http";

/** The text inputs of the store form (/settings/store). */
export const STORE_FIELDS = [
  "store_name",
  "store_email",
  "store_phone",
  "business_name",
  "address1",
  "city",
  "state",
  "postal_code",
  "resale_number",
];
/** The text inputs of the contact form (job_title is a select: the fixture's is "Owner"). */
const CONTACT_FIELDS = ["first_name", "last_name", "phone", "celphone"];

/** The values a page's form shows for `names` (what a browser would post back). */
async function pageValues(
  c: HttpClient,
  path: string,
  names: string[],
): Promise<Record<string, string>> {
  const page = await c.get(path);
  if (page.status !== 200) throw new Error(`GET ${path}: ${page.status}`);
  return Object.fromEntries(names.map((n) => [n, inputValue(page.body, n) ?? ""]));
}

export interface FormFixtures {
  dbh: DbHandle;
  staff: HttpClient;
  retailer: HttpClient;
  /** A login without a retailer: /retailer-setup/ is its page. */
  setup: HttpClient;
  retailerId: number;
  brandId: number;
  listingId: number;
  requestId: number;
  /** A swap order of the retailer (the receiver), with no workflow behind it. */
  swapOrderId: number;
  /** /addlisting/?stage=N&... for stages 0, 1, 2 (photos: the upload endpoint) and 4, state complete. */
  listingStages: { style: string; sizes: string; photos: string; terms: string };
  requestStages: { style: string; sizes: string; terms: string };
  /** The retailer's store and contact forms as its settings pages show them (a valid post of each). */
  store: Record<string, string>;
  contact: Record<string, string>;
}

export async function createFormFixtures(prefix: string): Promise<FormFixtures> {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL must point at the app's database");
  const dbh = createDb(process.env.DATABASE_URL, { max: 2 });
  const db = dbh.db;
  const tok = uniqueToken().toUpperCase();
  const { brand, products } = await createWorld(db, {
    brand: { name: `${prefix} Brand ${tok}` },
    products: [{ sku: `FG${tok}`, sizes: SIZE_RUNS.apparel, colors: 2 }],
  });
  const product = products[0];
  const staffUser = await createStaffUser(db, { email: freshEmail(`${prefix}-staff`) });
  const created = await createRetailer(db, {
    status: "active",
    payout: true,
    user: { email: freshEmail(`${prefix}-retailer`) },
  });
  await authorizeBrand(db, created.retailer.id, brand.id);
  const listing = await createListing(db, {
    variationId: product.variations[0].id,
    providerId: created.retailer.id,
    sizes: { S: 2, M: 1 },
  });
  const request = await createRequest(db, {
    variationId: product.variations[1].id,
    requestorId: created.retailer.id,
    sizes: { L: 1 },
  });
  const setupUser = await createUser(db, {
    email: freshEmail(`${prefix}-setup`),
    password: DEFAULT_TEST_PASSWORD,
  });
  // A swap the retailer started (its page's panel actions take bodies too); no workflow runs it.
  const other = await createRetailer(db, {
    status: "active",
    payout: true,
    user: { email: freshEmail(`${prefix}-provider`) },
  });
  const swapListing = await createListing(db, {
    variationId: product.variations[0].id,
    providerId: other.retailer.id,
    sizes: { M: 2 },
    listingType: "swap",
  });
  const swap = await createSwapOrder(db, {
    providerId: other.retailer.id,
    receiverId: created.retailer.id,
    brandId: brand.id,
    providerLines: [
      {
        listingId: swapListing.id,
        variationId: product.variations[0].id,
        sizes: { M: 1 },
        unitPriceCents: 1000,
      },
    ],
    workflowIdFor: swapWorkflowId,
  });

  const staff = new HttpClient();
  const retailer = new HttpClient();
  const setup = new HttpClient();
  await staff.signIn(staffUser.email, DEFAULT_TEST_PASSWORD);
  await retailer.signIn(created.user!.email, DEFAULT_TEST_PASSWORD);
  await setup.signIn(setupUser.email, DEFAULT_TEST_PASSWORD);

  const base: WizardState = {
    brand: brand.id,
    product: product.product.id,
    variation: product.variations[0].id,
  };
  const listingState: WizardState = {
    ...base,
    listingType: "sell",
    reason: LISTING_REASONS[0].value,
    sizes: { S: 1 },
  };
  const requestState: WizardState = { ...base, reason: REQUEST_REASONS[0].value, sizes: { S: 1 } };
  return {
    dbh,
    staff,
    retailer,
    setup,
    retailerId: created.retailer.id,
    brandId: brand.id,
    listingId: listing.id,
    requestId: request.id,
    swapOrderId: swap.orderId,
    listingStages: {
      style: `/addlisting/?${wizardQuery("listing", 0, { brand: brand.id, product: product.product.id })}`,
      sizes: `/addlisting/?${wizardQuery("listing", 1, { ...base, listingType: "sell", reason: LISTING_REASONS[0].value })}`,
      photos: `/addlisting/?${wizardQuery("listing", 2, listingState)}`,
      terms: `/addlisting/?${wizardQuery("listing", 4, listingState)}`,
    },
    requestStages: {
      style: `/requestlisting/?${wizardQuery("request", 0, { brand: brand.id, product: product.product.id })}`,
      sizes: `/requestlisting/?${wizardQuery("request", 1, { ...base, reason: REQUEST_REASONS[0].value })}`,
      terms: `/requestlisting/?${wizardQuery("request", 4, requestState)}`,
    },
    store: await pageValues(retailer, "/settings/store", STORE_FIELDS),
    contact: {
      ...(await pageValues(retailer, "/settings/contact", CONTACT_FIELDS)),
      job_title: "Owner",
    },
  };
}

/** A 1×1 PNG (a real picture by its bytes) for the upload tests. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
