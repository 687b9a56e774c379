/**
 * Loader and action of the "List a style" (/addlisting/) and "Request a style" (/requestlisting/) wizards.
 *
 * State between steps travels in the query string (see domain/listing-forms.ts WizardState): every stage is
 * a GET of `?stage=N&brand=..&product=..&variation=..&type=..&reason=..&sizes=..&images=..`, every step's form
 * POSTs to that URL and, when valid, redirects to the next stage with the new state. Nothing is stored until
 * the terms step saves; the server re-checks the whole state on every request (tampered ids: 404, malformed
 * values: 400). "Modify" links are plain links to an earlier stage with the same state.
 */
import type { MarkdownTerms } from "../../domain/markdown";
import { setWizardMarkdown, wizardMarkdown } from "./markdown.server";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, unstable_createMemoryUploadHandler } from "@remix-run/node";
import { authorizedBrandsForRetailer, listBrands } from "../../db/queries/catalogue";
import {
  createListingChecked,
  createRequestChecked,
  findOtherListing,
  findOwnListing,
  findOwnRequest,
  getProductChoice,
  retailersAuthorizedForBrand,
  searchVariations,
  type ProductChoice,
  type VariationHit,
} from "../../db/queries/listing-write";
import {
  checkPhoto,
  MAX_PHOTO_BYTES,
  MAX_PHOTOS,
  nextStage,
  parseStage,
  parseWizardState,
  productNotFoundText,
  shouldSearch,
  sizeCountsSchema,
  sizesMapFrom,
  styleSchema,
  termsSchema,
  totalUnits,
  WIZARD_MESSAGES,
  type Stage,
  type WizardKind,
  type WizardState,
} from "../../domain/listing-forms";
import {
  ALREADY_LISTED,
  ALREADY_REQUESTED,
  CANNOT_CREATE_LISTING,
  CHECK_INVENTORY_OWN_LISTING,
  OWN_LISTING_EXISTS,
  SELECT_COLOR_OPTION,
} from "../../domain/messages";
import { labelFor, LISTING_REASONS, REQUEST_REASONS } from "../../domain/reasons";
import { listingsFillingRequest } from "../../db/queries/matches";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { matchHref } from "../../domain/matches";
import { readFormData, requireRetailer, requireUser, type AuthContext } from "~/utils/auth.server";
import { z } from "zod";
import { formError, parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { attachPhotos, photosUsable, storePhoto } from "~/utils/uploads.server";
import { wizardHref } from "./wizard-paths";

function plain(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

// ---------------------------------------------------------------------------------------------------------
// Who is asking.

interface WizardContext {
  auth: AuthContext;
  isStaff: boolean;
  /** Staff browsing as admin (no retailer chosen): they pick any brand and must choose the retailer. */
  chooseRetailer: boolean;
  /** The effective retailer (own, or the one staff act as); null when chooseRetailer. */
  retailerId: number | null;
  retailerActive: boolean;
}

async function wizardContext(request: Request): Promise<WizardContext> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && !auth.retailer) {
    return { auth, isStaff: true, chooseRetailer: true, retailerId: null, retailerActive: true };
  }
  const a = await requireRetailer(request);
  return {
    auth: a,
    isStaff: a.user.isStaff,
    chooseRetailer: false,
    retailerId: a.retailer.id,
    retailerActive: a.retailer.status === "active",
  };
}

// ---------------------------------------------------------------------------------------------------------
// The state, resolved against the database.

interface Resolved {
  state: WizardState;
  brands: { id: number; name: string }[];
  brand: { id: number; name: string } | null;
  product: ProductChoice | null;
  variation: ProductChoice["variations"][number] | null;
  /** Staff browsing as admin: retailers authorized for the brand. */
  retailers: { id: number; storeName: string; hasPayout: boolean }[];
}

async function resolve(
  ctx: WizardContext,
  kind: WizardKind,
  state: WizardState,
): Promise<Resolved> {
  const s: WizardState = { ...state };
  const brands = ctx.chooseRetailer
    ? (await listBrands(db, { limit: 1000 })).map((b) => ({
        id: b.id,
        name: b.displayName || b.name,
      }))
    : (await authorizedBrandsForRetailer(db, ctx.retailerId!)).map((b) => ({
        id: b.id,
        name: b.displayName || b.name,
      }));
  let brand: Resolved["brand"] = null;
  if (s.brand !== undefined) {
    // A brand the retailer is not authorized for does not exist for it.
    brand = brands.find((b) => b.id === s.brand) ?? null;
    if (!brand) throw plain(404, "Not found");
  }
  let product: ProductChoice | null = null;
  if (s.product !== undefined) {
    if (!brand) throw plain(400, "Bad request: choose a brand first.");
    product = await getProductChoice(db, s.product);
    if (!product || product.brandId !== brand.id) throw plain(404, "Not found");
  }
  let variation: Resolved["variation"] = null;
  if (s.variation !== undefined) {
    if (!product) throw plain(400, "Bad request: choose a product first.");
    variation = product.variations.find((v) => v.id === s.variation) ?? null;
    if (!variation) throw plain(404, "Not found");
  }
  let retailers: Resolved["retailers"] = [];
  if (ctx.chooseRetailer) {
    retailers = brand ? await retailersAuthorizedForBrand(db, brand.id) : [];
    if (s.retailer !== undefined && !retailers.some((r) => r.id === s.retailer)) delete s.retailer;
  } else {
    delete s.retailer;
  }
  if (kind === "request") {
    delete s.listingType;
    delete s.images;
  }
  // Sizes keep only the labels of the chosen product's run (the style may have been modified).
  if (s.sizes) {
    if (!product) delete s.sizes;
    else s.sizes = Object.fromEntries(product.sizes.map((l) => [l, s.sizes?.[l] ?? 0]));
  }
  return { state: s, brands, brand, product, variation, retailers };
}

/** The first stage whose data is missing: 0 (style), 1 (sizes), else the terms stage (everything is there). */
function firstIncompleteStage(ctx: WizardContext, kind: WizardKind, r: Resolved): Stage {
  const s = r.state;
  const styleDone =
    r.brand &&
    r.product &&
    r.variation &&
    s.reason &&
    (kind === "request" || s.listingType) &&
    (!ctx.chooseRetailer || s.retailer !== undefined);
  if (!styleDone) return 0;
  if (totalUnits(s.sizes) <= 0) return 1;
  return 4;
}

function retailerOf(ctx: WizardContext, state: WizardState): number | null {
  return ctx.chooseRetailer ? (state.retailer ?? null) : ctx.retailerId;
}

type Blocked =
  | { kind: "already_listed"; id: number }
  | { kind: "already_requested"; id: number }
  | { kind: "own_listing_exists"; id: number };

/** Why this retailer cannot list / request this variation, or null. */
async function blockedFor(
  kind: WizardKind,
  retailerId: number,
  variationId: number,
): Promise<Blocked | null> {
  if (kind === "listing") {
    const own = await findOwnListing(db, retailerId, variationId);
    return own ? { kind: "already_listed", id: own.id } : null;
  }
  const req = await findOwnRequest(db, retailerId, variationId);
  if (req) return { kind: "already_requested", id: req.id };
  const own = await findOwnListing(db, retailerId, variationId);
  return own ? { kind: "own_listing_exists", id: own.id } : null;
}

export function blockedMessages(b: Blocked): string[] {
  if (b.kind === "already_listed") return [ALREADY_LISTED];
  if (b.kind === "already_requested") return [ALREADY_REQUESTED];
  return [OWN_LISTING_EXISTS, CHECK_INVENTORY_OWN_LISTING];
}

async function readRequestState(request: Request, kind: WizardKind) {
  const url = new URL(request.url);
  const stage = parseStage(kind, url.searchParams.get("stage"));
  if (stage === null) throw plain(400, "Bad request: unknown step.");
  const parsed = parseWizardState(kind, url.searchParams);
  if (!parsed.ok) throw plain(400, `Bad request: ${parsed.problem}.`);
  return { stage, state: parsed.state, url };
}

// ---------------------------------------------------------------------------------------------------------
// Loader.

export interface WizardSummary {
  brandName: string;
  productName: string;
  productSku: string;
  season: string;
  sku: string;
  color: string;
  priceCents: number;
  thumbnailUrl: string | null;
  listingTypeLabel: string | null;
  reasonLabel: string;
  retailerName: string | null;
  sizes: { label: string; units: number }[];
  totalUnits: number;
  totalValueCents: number;
  images: string[];
}

export async function wizardLoader(request: Request, kind: WizardKind) {
  const ctx = await wizardContext(request);
  const { stage, state } = await readRequestState(request, kind);
  const r = await resolve(ctx, kind, state);
  const first = firstIncompleteStage(ctx, kind, r);
  if (stage > first) throw redirect(wizardHref(kind, first, r.state));
  const url = new URL(request.url);
  const env = getEnv();
  const s = r.state;

  let search: { q: string; searched: boolean; hits: VariationHit[] } | null = null;
  if (stage === 0 && r.brand) {
    const q = s.q ?? "";
    const submitted = url.searchParams.get("search") === "1";
    const searched = shouldSearch(q, submitted);
    search = { q, searched, hits: searched ? await searchVariations(db, r.brand.id, q) : [] };
  }

  const retailerId = retailerOf(ctx, s);
  let blocked: Blocked | null = null;
  let listingExists: { id: number; href: string } | null = null;
  /** Request wizard, last stages: the visible listings that already fill this request (ADR 0030). */
  let fillingListings: {
    id: number;
    href: string;
    provider: string;
    units: number;
    type: "sell" | "swap";
  }[] = [];
  let summary: WizardSummary | null = null;
  if (stage >= 3 && r.product && r.variation && retailerId !== null) {
    blocked = await blockedFor(kind, retailerId, r.variation.id);
    if (kind === "request") {
      const other = await findOtherListing(db, retailerId, r.variation.id);
      if (other)
        listingExists = {
          id: other.id,
          href: listingExistsHref(other.listingType, r.brand!.id, r.variation.id),
        };
      fillingListings = (
        await listingsFillingRequest(db, retailerId, r.variation.id, s.sizes ?? {})
      ).map((l) => ({
        id: l.id,
        href: matchHref(l.listingType, l.id),
        provider: anonymousRetailerLabel(l.providerId),
        units: l.totalUnits,
        type: l.listingType,
      }));
    }
    const sizes = r.product.sizes.map((label) => ({ label, units: s.sizes?.[label] ?? 0 }));
    const units = totalUnits(s.sizes);
    summary = {
      brandName: r.brand!.name,
      productName: r.product.displayName,
      productSku: r.product.sku,
      season: `${r.product.collection.year} ${r.product.collection.name}`.trim(),
      sku: r.variation.sku,
      color: r.variation.color,
      priceCents: r.variation.priceCents,
      thumbnailUrl: r.variation.thumbnailUrl,
      listingTypeLabel: kind === "listing" ? (s.listingType === "swap" ? "Swap" : "Sell") : null,
      reasonLabel: labelFor(kind === "listing" ? LISTING_REASONS : REQUEST_REASONS, s.reason) ?? "",
      // The chosen retailer's name: only staff choose one (a retailer sees no other retailer here).
      retailerName: ctx.chooseRetailer
        ? (r.retailers.find((x) => x.id === s.retailer)?.storeName ?? null)
        : null,
      sizes,
      totalUnits: units,
      totalValueCents: units * r.variation.priceCents,
      images: s.images ?? [],
    };
  }

  return {
    kind,
    stage,
    state: s,
    isStaff: ctx.isStaff,
    chooseRetailer: ctx.chooseRetailer,
    retailerActive: ctx.retailerActive,
    brands: r.brands,
    brand: r.brand,
    search,
    product: r.product,
    variation: r.variation,
    retailers: ctx.chooseRetailer
      ? r.retailers.map((x) => ({ id: x.id, storeName: x.storeName, hasPayout: x.hasPayout }))
      : [],
    blocked,
    blockedMessages: blocked ? blockedMessages(blocked) : [],
    listingExists,
    fillingListings,
    summary,
    productNotFound: productNotFoundText(kind, {
      email: env.SUPPORT_EMAIL,
      phone: env.SUPPORT_PHONE,
    }),
  };
}

export type WizardLoaderData = Awaited<ReturnType<typeof wizardLoader>>;

function listingExistsHref(type: "sell" | "swap", brandId: number, variationId: number): string {
  return `/${type === "sell" ? "buy" : "swap"}/?brand=${brandId}&variantId=${variationId}`;
}

// ---------------------------------------------------------------------------------------------------------
// Action.

export interface WizardActionData {
  stage: Stage;
  /** Conform's reply (field and form errors, the values as submitted). */
  result: SubmissionResult<string[]>;
  blocked?: Blocked | null;
  /** The save was refused: the "Cannot create listing" warning. */
  cannotCreate?: string | null;
  /** Form-level messages (also in result.error[""]), shown as they came from the server. */
  formErrors?: string[];
}

function refused(
  stage: Stage,
  result: WizardActionData["result"],
  extra: Partial<WizardActionData> = {},
  status = 400,
) {
  const formErrors = (result.error?.[""] ?? []) as string[];
  return data<WizardActionData>({ stage, result, formErrors, ...extra }, { status });
}

export async function wizardAction(request: Request, kind: WizardKind) {
  const ctx = await wizardContext(request);
  const { stage, state } = await readRequestState(request, kind);
  const r = await resolve(ctx, kind, state);
  switch (stage) {
    case 0:
      return styleStep(request, ctx, kind, r);
    case 1:
      return sizesStep(request, ctx, kind, r);
    case 2:
      return photosStep(request, ctx, kind, r);
    case 4:
      return saveStep(request, ctx, kind, r);
    default:
      throw plain(405, "This step has no form.");
  }
}

async function styleStep(request: Request, ctx: WizardContext, kind: WizardKind, r: Resolved) {
  const formData = await readFormData(request);
  const submission = parseSubmission(formData, { schema: styleSchema(kind, ctx.chooseRetailer) });
  if (!r.brand) return refused(0, submission.reply({ formErrors: [WIZARD_MESSAGES.chooseBrand] }));
  if (submission.status !== "success") return refused(0, submission.reply());
  const v = submission.value as {
    variation: number;
    listingType?: "sell" | "swap";
    reason: string;
    provider?: number;
    requestor?: number;
  };
  // The colour must be one of the chosen product's.
  if (!r.product || !r.product.variations.some((x) => x.id === v.variation)) {
    return refused(0, submission.reply({ fieldErrors: { variation: [SELECT_COLOR_OPTION] } }));
  }
  const chosenRetailer = kind === "listing" ? v.provider : v.requestor;
  if (ctx.chooseRetailer && !r.retailers.some((x) => x.id === chosenRetailer)) {
    return refused(
      0,
      submission.reply({
        fieldErrors: {
          [kind === "listing" ? "provider" : "requestor"]: [WIZARD_MESSAGES.providerNotAuthorized],
        },
      }),
    );
  }
  const retailerId = ctx.chooseRetailer ? chosenRetailer! : ctx.retailerId!;
  const blocked = await blockedFor(kind, retailerId, v.variation);
  if (blocked)
    return refused(0, submission.reply({ formErrors: blockedMessages(blocked) }), { blocked });
  const next: WizardState = {
    ...r.state,
    variation: v.variation,
    reason: v.reason,
    ...(kind === "listing" ? { listingType: v.listingType } : {}),
    ...(ctx.chooseRetailer ? { retailer: retailerId } : {}),
  };
  return redirect(wizardHref(kind, nextStage(kind, 0), next));
}

async function sizesStep(request: Request, ctx: WizardContext, kind: WizardKind, r: Resolved) {
  if (firstIncompleteStage(ctx, kind, r) < 1 || !r.product)
    throw redirect(wizardHref(kind, 0, r.state));
  const formData = await readFormData(request);
  const submission = parseSubmission(formData, {
    schema: sizeCountsSchema(r.product.sizes.length),
  });
  if (submission.status !== "success") return refused(1, submission.reply());
  const sizes = sizesMapFrom(r.product.sizes, submission.value.sizes);
  return redirect(wizardHref(kind, nextStage(kind, 1), { ...r.state, sizes }));
}

/** Whole upload request limit: the pictures allowed plus a little for the other fields. */
const MAX_UPLOAD_REQUEST_BYTES = MAX_PHOTOS * MAX_PHOTO_BYTES + 256 * 1024;

/** The photo form: multipart, pictures kept in memory (at most MAX_PHOTO_BYTES each), at most 20 fields. */
function readUpload(request: Request): Promise<FormData> {
  return readFormData(request, {
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    maxEntries: 20,
    uploadHandler: unstable_createMemoryUploadHandler({ maxPartSize: MAX_PHOTO_BYTES }),
  });
}

/** The photos step's buttons: a picture's Remove, else Upload or Continue (the files are read beside it). */
const PhotosStepSchema = z.union([
  z.object({ remove: z.string() }),
  z.object({ intent: z.enum(["upload", "continue"]) }),
]);

async function photosStep(request: Request, ctx: WizardContext, kind: WizardKind, r: Resolved) {
  if (kind !== "listing") throw plain(400, "Bad request: unknown step.");
  if (firstIncompleteStage(ctx, kind, r) < 4)
    throw redirect(wizardHref(kind, firstIncompleteStage(ctx, kind, r), r.state));
  const current = r.state.images ?? [];
  let form: FormData;
  try {
    form = await readUpload(request);
  } catch (e) {
    if (e instanceof Response && e.status === 413)
      return refused(2, formError(WIZARD_MESSAGES.photoTooLarge), {}, 413);
    throw e;
  }
  const submission = parseSubmission(form, { schema: PhotosStepSchema });
  const fail = (messages: string[], status = 400) =>
    refused(2, submission.reply({ formErrors: messages }), {}, status);
  if (submission.status !== "success") return fail(["Unknown action."]);
  if ("remove" in submission.value) {
    const remove = submission.value.remove;
    // The file stays until the clean-up of pictures never put on a listing (app/utils/uploads.server.ts).
    return redirect(
      wizardHref(kind, 2, { ...r.state, images: current.filter((n) => n !== remove) }),
    );
  }
  const { intent } = submission.value;
  const files = form
    .getAll("photos")
    .filter((f): f is File => typeof f !== "string" && !(f.name === "" && f.size === 0));
  if (intent === "upload" && files.length === 0) return fail([WIZARD_MESSAGES.photoEmpty]);
  if (current.length + files.length > MAX_PHOTOS) return fail([WIZARD_MESSAGES.photoTooMany]);
  if (!(await photosUsable(current, ctx.auth.user.id)))
    throw plain(400, "Bad request: images is not a list of uploaded pictures.");
  const checked: { bytes: Uint8Array; type: "jpg" | "png" }[] = [];
  const errors: string[] = [];
  for (const f of files) {
    const bytes = new Uint8Array(await f.arrayBuffer());
    const c = checkPhoto(f.name, bytes);
    if (!c.ok) errors.push(`${f.name}: ${c.message}`);
    else checked.push({ bytes, type: c.type });
  }
  if (errors.length > 0) return fail(errors);
  const stored: string[] = [];
  for (const c of checked) stored.push(await storePhoto(c.bytes, c.type, ctx.auth.user.id));
  const next = { ...r.state, images: [...current, ...stored] };
  return redirect(wizardHref(kind, intent === "upload" ? 2 : 3, next));
}

async function saveStep(request: Request, ctx: WizardContext, kind: WizardKind, r: Resolved) {
  const formData = await readFormData(request);
  const submission = parseSubmission(formData, { schema: termsSchema });
  const cannot = kind === "listing" ? CANNOT_CREATE_LISTING : WIZARD_MESSAGES.cannotCreateRequest;
  if (submission.status !== "success") return refused(4, submission.reply());
  const first = firstIncompleteStage(ctx, kind, r);
  if (first < 4) {
    return refused(
      4,
      submission.reply({
        formErrors: [first === 0 ? WIZARD_MESSAGES.chooseReason : WIZARD_MESSAGES.sizesTotal],
      }),
      {
        cannotCreate: cannot,
      },
    );
  }
  if (!ctx.retailerActive)
    return refused(
      4,
      submission.reply({ formErrors: [WIZARD_MESSAGES.inactiveRetailer] }),
      { cannotCreate: cannot },
      403,
    );
  const s = r.state;
  const retailerId = retailerOf(ctx, s)!;
  const variationId = r.variation!.id;
  // A sell listing's optional markdown schedule (docs/product/markdowns.md): refused before anything is saved.
  let markdown: MarkdownTerms | null = null;
  if (kind === "listing" && s.listingType === "sell") {
    const md = wizardMarkdown(formData, r.variation!.priceCents);
    if (!md.ok) return refused(4, submission.reply({ fieldErrors: md.fieldErrors }));
    markdown = md.terms;
  }
  if (kind === "listing") {
    // Only the user's own pictures (images= travels in the URL).
    if (!(await photosUsable(s.images ?? [], ctx.auth.user.id)))
      throw plain(400, "Bad request: images is not a list of uploaded pictures.");
    const res = await createListingChecked(db, {
      providerId: retailerId,
      variationId,
      listingType: s.listingType!,
      reason: s.reason!,
      sizes: s.sizes!,
      images: s.images ?? [],
      terms: true,
    });
    if (!res.ok) return refusedSave(submission, cannot, res);
    await attachPhotos(s.images ?? [], res.listing.id, ctx.auth.user.id);
    if (markdown) await setWizardMarkdown(res.listing.id, retailerId, markdown);
    return redirect(
      `/buy/?ref=${res.listing.status === "active" ? "listingCreated" : "listingCreatedPayoutNeeded"}`,
    );
  }
  const res = await createRequestChecked(db, {
    requestorId: retailerId,
    variationId,
    reason: s.reason!,
    sizes: s.sizes!,
  });
  if (!res.ok) return refusedSave(submission, cannot, res);
  if (res.listingExists) {
    const ref =
      res.listingExists.listingType === "swap"
        ? "requestCreatedSwapListingExists"
        : "requestCreatedListingExists";
    return redirect(
      `${listingExistsHref(res.listingExists.listingType, r.brand!.id, variationId)}&ref=${ref}`,
    );
  }
  return redirect(
    ctx.chooseRetailer ? "/sell/?ref=requestCreated" : "/active/requests/?ref=requestCreated",
  );
}

type SaveRefusal = Exclude<
  | Awaited<ReturnType<typeof createListingChecked>>
  | Awaited<ReturnType<typeof createRequestChecked>>,
  { ok: true }
>;

function refusedSave(
  submission: { reply(o?: { formErrors?: string[] }): SubmissionResult<string[]> },
  cannot: string,
  res: SaveRefusal,
) {
  let blocked: Blocked | null = null;
  let messages: string[];
  switch (res.reason) {
    case "already_listed":
      blocked = { kind: "already_listed", id: res.listingId };
      messages = blockedMessages(blocked);
      break;
    case "already_requested":
      blocked = { kind: "already_requested", id: res.requestId };
      messages = blockedMessages(blocked);
      break;
    case "own_listing_exists":
      blocked = { kind: "own_listing_exists", id: res.listingId };
      messages = blockedMessages(blocked);
      break;
    case "retailer_inactive":
      messages = [WIZARD_MESSAGES.inactiveRetailer];
      break;
    case "not_authorized":
      messages = [WIZARD_MESSAGES.providerNotAuthorized];
      break;
    case "invalid_sizes":
      messages = [res.message];
      break;
    default:
      messages = ["This product is no longer available."];
  }
  return refused(4, submission.reply({ formErrors: messages }), { blocked, cannotCreate: cannot });
}
