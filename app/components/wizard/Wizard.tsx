/**
 * The pages of the "List a style" and "Request a style" wizards (loader/action: ./wizard.server.ts).
 * Every stage works without JavaScript (plain GET and POST forms, state in the URL); with JavaScript the
 * brand choice submits itself, the product-code search runs as you type (after more than 2 characters,
 * 200 ms after the last key), the size total updates live, and Conform checks each form before it is sent
 * with the same Zod schema the server uses.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
} from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  LISTING_TYPES,
  MAX_PHOTOS,
  PHOTO_ACCEPT,
  sizeCountsSchema,
  STAGE_LABELS,
  stagesFor,
  styleSchema,
  sellTermsFormSchema,
  VARIATION_SEARCH_DELAY_MS,
  VARIATION_SEARCH_MIN_CHARS,
  WIZARD_MESSAGES,
  wizardParams,
  type Stage,
  type WizardKind,
  type WizardState,
} from "../../../domain/listing-forms";
import { ErrorList } from "~/components/forms";
import { MARKDOWN_FIELD_DEFAULTS, MarkdownFields } from "~/components/active/MarkdownFields";
import { formatCents } from "../../../domain/money";
import { LISTING_REASONS, REQUEST_REASONS } from "../../../domain/reasons";
import {
  updateListingHref,
  updateRequestHref,
  WIZARD_PATHS,
  wizardHref,
} from "~/utils/wizard-paths";
import type { WizardActionData, WizardLoaderData } from "~/utils/wizard.server";

const TITLES: Record<WizardKind, string> = {
  listing: "List a Product",
  request: "Request a Product",
};

export function wizardTitle(kind: WizardKind): string {
  return TITLES[kind];
}

function useWizard() {
  const d = useLoaderData<WizardLoaderData>();
  const raw = useActionData<WizardActionData>();
  // Action data belongs to the stage that posted it.
  const a = raw && raw.stage === d.stage ? raw : undefined;
  return { d, a };
}

/** Hidden inputs carrying the state through a GET form (minus the fields the form itself sets). */
function Carry({
  kind,
  state,
  omit = [],
}: {
  kind: WizardKind;
  state: WizardState;
  omit?: string[];
}) {
  const params = wizardParams(kind, state);
  return (
    <>
      {Object.entries(params)
        .filter(([k]) => !omit.includes(k))
        .map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
    </>
  );
}

function Steps({ kind, stage }: { kind: WizardKind; stage: Stage }) {
  return (
    <ol className="wizard-steps" data-testid="wizard-steps">
      {stagesFor(kind).map((s) => (
        <li
          key={s}
          className={s === stage ? "active" : s < stage ? "done" : ""}
          aria-current={s === stage ? "step" : undefined}
        >
          {STAGE_LABELS[s]}
        </li>
      ))}
    </ol>
  );
}

function BlockedNotice({
  blocked,
  messages,
}: {
  kind?: WizardKind;
  blocked: WizardLoaderData["blocked"];
  messages: string[];
}) {
  if (!blocked) return null;
  const href =
    blocked.kind === "already_requested"
      ? updateRequestHref(blocked.id)
      : updateListingHref(blocked.id);
  const label =
    blocked.kind === "already_requested"
      ? WIZARD_MESSAGES.updateExistingRequest
      : WIZARD_MESSAGES.updateExistingListing;
  return (
    <div
      className="alert alert-danger"
      role="alert"
      data-testid="wizard-blocked"
      data-blocked={blocked.kind}
    >
      <div className="alert-body">
        {messages.map((m) => (
          <p key={m}>{m}</p>
        ))}
        <p>
          <Link to={href} data-testid="wizard-blocked-link">
            {label}
          </Link>
        </p>
      </div>
    </div>
  );
}

function Thumb({ src, alt }: { src: string | null; alt: string }) {
  return src ? (
    <img className="wizard-thumb" src={src} alt={alt} width={64} height={64} loading="lazy" />
  ) : (
    <span className="wizard-thumb wizard-thumb-empty" />
  );
}

// ---------------------------------------------------------------------------------------------------------

export function WizardPage() {
  const { d } = useWizard();
  return (
    <section className="page wizard" data-testid="wizard" data-kind={d.kind} data-stage={d.stage}>
      <h1>{TITLES[d.kind]}</h1>
      {d.kind === "listing" && d.stage === 0 && !d.chooseRetailer ? (
        <p data-testid="stock-import-link">
          Many styles at once? <a href="/stock-import">Import a stock file</a> (.csv or .xlsx)
          instead.
        </p>
      ) : null}
      <Steps kind={d.kind} stage={d.stage} />
      {!d.retailerActive ? (
        <div className="alert alert-warning" role="status">
          <div className="alert-body">{WIZARD_MESSAGES.inactiveRetailer}</div>
        </div>
      ) : null}
      {d.stage === 0 ? <StyleStage /> : null}
      {d.stage === 1 ? <SizesStage /> : null}
      {d.stage === 2 ? <PhotosStage /> : null}
      {d.stage === 3 ? <ConfirmStage /> : null}
      {d.stage === 4 ? <TermsStage /> : null}
    </section>
  );
}

// --- Stage 0: brand, product-code search, colour, type, reason (retailer for staff) -----------------------------

function StyleStage() {
  const { d } = useWizard();
  const { kind, state } = d;
  const submit = useSubmit();
  const path = WIZARD_PATHS[kind];
  return (
    <div className="wizard-stage">
      <Form method="get" action={path} className="wizard-brand" data-testid="wizard-brand-form">
        <input type="hidden" name="stage" value="0" />
        <Carry
          kind={kind}
          state={state}
          omit={["brand", "q", "product", "variation", "provider", "requestor", "sizes"]}
        />
        <div className="field">
          <label htmlFor="wizard-brand">Brand</label>
          <select
            id="wizard-brand"
            name="brand"
            defaultValue={d.brand ? String(d.brand.id) : ""}
            onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          >
            <option value="">Choose a brand</option>
            {d.brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-small button-outline">
          Choose brand
        </button>
        {d.brands.length === 0 ? (
          <p className="muted">You are not authorized for any brand yet.</p>
        ) : null}
      </Form>

      {d.brand ? <VariationSearch /> : null}
      {d.product ? <StyleForm /> : null}
    </div>
  );
}

function VariationSearch() {
  const { d } = useWizard();
  const { kind, state, search } = d;
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const onInput = (value: string) => {
    clearTimeout(timer.current);
    if (value.trim().length < VARIATION_SEARCH_MIN_CHARS) return;
    timer.current = setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, VARIATION_SEARCH_DELAY_MS);
  };
  return (
    <div className="wizard-search">
      <Form
        method="get"
        action={WIZARD_PATHS[kind]}
        ref={formRef}
        role="search"
        data-testid="wizard-search-form"
      >
        <input type="hidden" name="stage" value="0" />
        <Carry kind={kind} state={state} omit={["q"]} />
        <div className="field">
          <label htmlFor="wizard-q">Product code</label>
          <input
            id="wizard-q"
            type="search"
            name="q"
            defaultValue={search?.q ?? ""}
            maxLength={100}
            autoComplete="off"
            placeholder="Search by product code"
            onChange={(e) => onInput(e.currentTarget.value)}
          />
        </div>
        <button type="submit" name="search" value="1" className="button button-small">
          Search
        </button>
      </Form>
      {search?.searched ? (
        search.hits.length > 0 ? (
          <table className="table wizard-hits" data-testid="wizard-hits">
            <thead>
              <tr>
                <th />
                <th>Product</th>
                <th>Product code</th>
                <th>Colour</th>
                <th>Price</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {search.hits.map((h) => {
                const chosen = d.product?.id === h.productId;
                const href = wizardHref(kind, 0, {
                  ...state,
                  product: h.productId,
                  variation: chosen ? state.variation : undefined,
                });
                return (
                  <tr
                    key={h.variationId}
                    data-testid="variation-hit"
                    className={chosen ? "chosen" : ""}
                  >
                    <td>
                      <Thumb src={h.thumbnailUrl} alt={`${h.productName}, ${h.color}`} />
                    </td>
                    <td>{h.productName}</td>
                    <td>{h.sku}</td>
                    <td>{h.color}</td>
                    <td>{formatCents(h.priceCents)}</td>
                    <td>
                      <Link
                        to={href}
                        preventScrollReset
                        className="button button-small button-outline"
                        data-testid="choose-product"
                      >
                        {chosen ? "Chosen" : "Choose"}
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : (
          <p className="muted" data-testid="wizard-no-hits">
            {WIZARD_MESSAGES.noResults}
          </p>
        )
      ) : (
        <p className="muted">Type more than 2 characters of the product code, or press Search.</p>
      )}
      <p className="callout wizard-not-found" data-testid="product-not-found">
        {d.productNotFound}
      </p>
    </div>
  );
}

function StyleForm() {
  const { d, a } = useWizard();
  const { kind, state, product } = d;
  const navigation = useNavigation();
  const schema = useMemo(() => styleSchema(kind, d.chooseRetailer), [kind, d.chooseRetailer]);
  const retailerField = kind === "listing" ? "provider" : "requestor";
  const [form, fields] = useForm({
    id: "wizard-style",
    lastResult: navigation.state === "idle" ? a?.result : null,
    defaultValue: {
      variation: state.variation !== undefined ? String(state.variation) : "",
      listingType: state.listingType ?? "",
      reason: state.reason ?? "",
      [retailerField]: state.retailer !== undefined ? String(state.retailer) : "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  if (!product) return null;
  const f = fields as unknown as Record<string, { initialValue?: unknown; errors?: string[] }>;
  const init = (name: string) =>
    typeof f[name]?.initialValue === "string" ? (f[name].initialValue as string) : "";
  const reasons = kind === "listing" ? LISTING_REASONS : REQUEST_REASONS;
  const blocked = a?.blocked ?? null;
  return (
    <Form
      method="post"
      action={wizardHref(kind, 0, state)}
      {...getFormProps(form)}
      className="wizard-style"
      data-testid="wizard-style-form"
    >
      <h2>
        {product.displayName} <span className="muted">({product.sku})</span>
      </h2>
      <fieldset className="field wizard-colors">
        <legend>Colour</legend>
        {product.variations.map((v) => (
          <label key={v.id} className="wizard-color">
            <input
              type="radio"
              name="variation"
              value={v.id}
              defaultChecked={init("variation") === String(v.id)}
            />
            <Thumb src={v.thumbnailUrl} alt={`${product.displayName}, ${v.color}`} />
            <span>
              {v.color} <span className="muted">{v.sku}</span> {formatCents(v.priceCents)}
            </span>
          </label>
        ))}
        <ErrorList name="variation" errors={f.variation?.errors} />
      </fieldset>

      {kind === "listing" ? (
        <fieldset className="field">
          <legend>Listing type</legend>
          {LISTING_TYPES.map((t) => (
            <label key={t.value} className="inline-choice">
              <input
                type="radio"
                name="listingType"
                value={t.value}
                defaultChecked={init("listingType") === t.value}
              />{" "}
              {t.label}
            </label>
          ))}
          <ErrorList name="listingType" errors={f.listingType?.errors} />
        </fieldset>
      ) : null}

      <div className="field">
        <label htmlFor="wizard-reason">Reason</label>
        <select id="wizard-reason" name="reason" defaultValue={init("reason")}>
          <option value="">Choose a reason</option>
          {reasons.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <ErrorList name="reason" errors={f.reason?.errors} />
      </div>

      {d.chooseRetailer ? (
        <div className="field">
          <label htmlFor="wizard-retailer">{kind === "listing" ? "Provider" : "Requestor"}</label>
          <select id="wizard-retailer" name={retailerField} defaultValue={init(retailerField)}>
            <option value="">Choose a retailer</option>
            {d.retailers.map((r) => (
              <option key={r.id} value={r.id}>
                {r.storeName}
                {kind === "listing" && !r.hasPayout ? " (payout not set up)" : ""}
              </option>
            ))}
          </select>
          <ErrorList name={retailerField} errors={f[retailerField]?.errors} />
        </div>
      ) : null}

      {blocked ? (
        <BlockedNotice kind={kind} blocked={blocked} messages={a?.formErrors ?? []} />
      ) : (
        <ErrorList
          kind="form"
          testId="wizard-form-errors"
          errors={[...(form.errors ?? []), ...(a?.formErrors ?? [])]}
        />
      )}
      <div className="wizard-actions">
        <button type="submit" className="button">
          Continue
        </button>
      </div>
    </Form>
  );
}

// --- Stage 1: sizes -------------------------------------------------------------------------------------------

function SizesStage() {
  const { d, a } = useWizard();
  const { kind, state, product, variation } = d;
  const navigation = useNavigation();
  const labels = product?.sizes ?? [];
  const schema = useMemo(() => sizeCountsSchema(labels.length), [labels.length]);
  const [form] = useForm({
    id: "wizard-sizes",
    lastResult: navigation.state === "idle" ? a?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const submitted = (a?.result.initialValue as { sizes?: unknown } | undefined)?.sizes;
  const initial = (i: number, label: string): string => {
    if (Array.isArray(submitted) && typeof submitted[i] === "string") return submitted[i] as string;
    return String(state.sizes?.[label] ?? 0);
  };
  const [total, setTotal] = useState<number | null>(null);
  const recount = (formEl: HTMLFormElement) => {
    let t = 0;
    for (const el of Array.from(formEl.querySelectorAll<HTMLInputElement>("input[data-size]"))) {
      const n = Number(el.value);
      if (Number.isInteger(n) && n > 0) t += n;
    }
    setTotal(t);
  };
  const serverTotal = labels.reduce((acc, l) => acc + (state.sizes?.[l] ?? 0), 0);
  if (!product || !variation) return null;
  return (
    <Form
      method="post"
      action={wizardHref(kind, 1, state)}
      {...getFormProps(form)}
      onChange={(e) => recount(e.currentTarget)}
      className="wizard-sizes"
      data-testid="wizard-sizes-form"
    >
      <h2>
        {product.displayName}, {variation.color} <span className="muted">({variation.sku})</span>
      </h2>
      <p className="muted">Enter the number of units for each size.</p>
      <div className="wizard-size-grid">
        {labels.map((label, i) => {
          const name = `sizes[${i}]`;
          return (
            <div className="field wizard-size" key={label}>
              <label htmlFor={`size-${i}`}>{label}</label>
              <input
                id={`size-${i}`}
                type="number"
                name={name}
                min={0}
                step={1}
                inputMode="numeric"
                data-size={label}
                defaultValue={initial(i, label)}
              />
              <ErrorList name={name} errors={form.allErrors[name]} />
            </div>
          );
        })}
      </div>
      <p>
        Total Units: <strong data-testid="wizard-total-units">{total ?? serverTotal}</strong>
      </p>
      <ErrorList
        kind="form"
        testId="wizard-form-errors"
        errors={[...(form.errors ?? []), ...(a?.formErrors ?? [])]}
      />
      <div className="wizard-actions">
        <Link
          to={wizardHref(kind, 0, state)}
          className="button button-outline"
          data-testid="modify-style"
        >
          Modify style
        </Link>
        <button type="submit" className="button">
          Continue
        </button>
      </div>
    </Form>
  );
}

// --- Stage 2: photos (listing only) ---------------------------------------------------------------------------

function PhotosStage() {
  const { d, a } = useWizard();
  const { kind, state } = d;
  const images = state.images ?? [];
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [form] = useForm({ id: "wizard-photos", lastResult: a?.stage === 2 ? a.result : null });
  return (
    <div className="wizard-photos" data-testid="wizard-photos">
      <h2>Photos</h2>
      <p className="muted">
        Optional: up to {MAX_PHOTOS} pictures of your goods, .jpg, .jpeg or .png, 5 MB each at most.
        Without photos the brand&apos;s own pictures are shown.
      </p>
      {images.length > 0 ? (
        <ul className="wizard-photo-list" data-testid="wizard-photo-list">
          {images.map((name) => (
            <li key={name}>
              <img
                src={`/uploads/${name}`}
                alt="Uploaded"
                width={120}
                height={120}
                data-testid="wizard-photo"
              />
              <Form method="post" encType="multipart/form-data" action={wizardHref(kind, 2, state)}>
                <input type="hidden" name="remove" value={name} />
                <button type="submit" className="button button-small button-outline">
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {/* Keyed by the pictures so that the file input is emptied after each upload (no second upload on Continue). */}
      <Form
        key={images.join(",")}
        method="post"
        encType="multipart/form-data"
        action={wizardHref(kind, 2, state)}
        data-testid="wizard-photos-form"
      >
        {images.length < MAX_PHOTOS ? (
          <div className="field">
            <label htmlFor="wizard-photos-input">Add pictures</label>
            <input
              id="wizard-photos-input"
              type="file"
              name="photos"
              accept={PHOTO_ACCEPT}
              multiple
            />
          </div>
        ) : null}
        {a?.stage === 2 ? (
          <ErrorList kind="form" testId="wizard-photo-errors" errors={form.errors} />
        ) : null}
        <div className="wizard-actions">
          <Link to={wizardHref(kind, 1, state)} className="button button-outline">
            Modify sizes
          </Link>
          {images.length < MAX_PHOTOS ? (
            <button
              type="submit"
              name="intent"
              value="upload"
              className="button button-outline"
              disabled={busy}
            >
              Upload
            </button>
          ) : null}
          <button type="submit" name="intent" value="continue" className="button" disabled={busy}>
            Continue
          </button>
        </div>
      </Form>
    </div>
  );
}

// --- Stage 3: confirm -------------------------------------------------------------------------------------------

function Row({ label, children, modify }: { label: string; children: ReactNode; modify?: string }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
      <td>
        {modify ? (
          <Link
            to={modify}
            className="link-button"
            data-testid={`modify-${label.toLowerCase().replace(/\W+/g, "-")}`}
          >
            Modify
          </Link>
        ) : null}
      </td>
    </tr>
  );
}

function Summary({ withModify }: { withModify: boolean }) {
  const { d } = useWizard();
  const s = d.summary;
  if (!s) return null;
  const { kind, state } = d;
  const m = (stage: Stage) => (withModify ? wizardHref(kind, stage, state) : undefined);
  return (
    <table className="table wizard-summary" data-testid="wizard-summary">
      <tbody>
        <Row label="Brand" modify={m(0)}>
          {s.brandName}
        </Row>
        <Row label="Product" modify={m(0)}>
          <Thumb src={s.thumbnailUrl} alt={`${s.productName}, ${s.color}`} /> {s.productName} (
          {s.productSku}), {s.season}
        </Row>
        <Row label="Colour" modify={m(0)}>
          {s.color} ({s.sku})
        </Row>
        {s.listingTypeLabel ? (
          <Row label="Listing type" modify={m(0)}>
            {s.listingTypeLabel}
          </Row>
        ) : null}
        <Row label="Reason" modify={m(0)}>
          {s.reasonLabel}
        </Row>
        {s.retailerName ? (
          <Row label={kind === "listing" ? "Provider" : "Requestor"} modify={m(0)}>
            {s.retailerName}
          </Row>
        ) : null}
        <Row label="Sizes" modify={m(1)}>
          <span data-testid="wizard-summary-sizes">
            {s.sizes
              .filter((x) => x.units > 0)
              .map((x) => `${x.label}: ${x.units}`)
              .join(", ")}
          </span>
        </Row>
        <Row label="Price">{formatCents(s.priceCents)}</Row>
        <Row label="Total Units">
          <span data-testid="wizard-summary-units">{s.totalUnits}</span>
        </Row>
        <Row label="Total Value">
          <span data-testid="wizard-summary-value">{formatCents(s.totalValueCents)}</span>
        </Row>
        {kind === "listing" ? (
          <Row label="Photos" modify={m(2)}>
            {s.images.length === 0
              ? "None"
              : s.images.map((n) => (
                  <img
                    key={n}
                    src={`/uploads/${n}`}
                    alt="Uploaded"
                    width={64}
                    height={64}
                    className="wizard-thumb"
                  />
                ))}
          </Row>
        ) : null}
      </tbody>
    </table>
  );
}

function ListingExistsNotice() {
  const { d } = useWizard();
  if (!d.listingExists) return null;
  return (
    <div className="alert alert-success" role="status" data-testid="wizard-listing-exists">
      <div className="alert-body">
        <p>
          <strong>{WIZARD_MESSAGES.listingExistsTitle}</strong>
        </p>
        <p>
          {WIZARD_MESSAGES.listingExistsText}{" "}
          <Link to={d.listingExists.href}>See it in the marketplace</Link>
        </p>
        {d.fillingListings.length > 0 ? (
          <ul data-testid="wizard-filling-listings">
            {d.fillingListings.map((l) => (
              <li key={l.id} data-testid="wizard-filling-listing">
                {l.units} unit{l.units === 1 ? "" : "s"} listed{" "}
                {l.type === "swap" ? "to swap" : "for sale"} by {l.provider}:{" "}
                <Link to={l.href}>{l.type === "swap" ? "Swap for it" : "Buy it"}</Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

function ConfirmStage() {
  const { d } = useWizard();
  return (
    <div className="wizard-confirm">
      <h2>Confirm</h2>
      <Summary withModify />
      <ListingExistsNotice />
      <BlockedNotice kind={d.kind} blocked={d.blocked} messages={d.blockedMessages} />
      <div className="wizard-actions">
        {d.blocked ? null : (
          <Link
            to={wizardHref(d.kind, 4, d.state)}
            className="button"
            data-testid="wizard-confirm-continue"
          >
            Continue
          </Link>
        )}
      </div>
    </div>
  );
}

// --- Stage 4: terms, then save --------------------------------------------------------------------------------

function TermsStage() {
  const { d, a } = useWizard();
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof sellTermsFormSchema>>({
    id: "wizard-terms",
    lastResult: navigation.state === "idle" ? a?.result : null,
    defaultValue: MARKDOWN_FIELD_DEFAULTS,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sellTermsFormSchema }),
    shouldValidate: "onSubmit",
  });
  const blocked = a?.blocked ?? d.blocked;
  const blockedText = a?.blocked ? (a.formErrors ?? []) : d.blockedMessages;
  return (
    <div className="wizard-terms">
      {a?.cannotCreate ? (
        <div className="alert alert-warning" role="alert" data-testid="wizard-cannot-create">
          <div className="alert-body">
            <strong>{a.cannotCreate}</strong>
          </div>
        </div>
      ) : null}
      <Summary withModify={false} />
      <ListingExistsNotice />
      {blocked ? (
        <BlockedNotice kind={d.kind} blocked={blocked} messages={blockedText} />
      ) : (
        <ErrorList
          kind="form"
          testId="wizard-form-errors"
          errors={[...(form.errors ?? []), ...(a?.formErrors ?? [])]}
        />
      )}
      <Form
        method="post"
        action={wizardHref(d.kind, 4, d.state)}
        {...getFormProps(form)}
        data-testid="wizard-terms-form"
      >
        <h2>Terms</h2>
        <div className="prose wizard-terms-text">
          {d.kind === "listing" ? (
            <p>
              I confirm that these goods are new, unworn and in their original condition, that the
              units and sizes above are in my store now, and that I will have them ready for pickup
              within two business days of approving a sale. Other retailers never see my
              store&apos;s name, only an anonymous label; sales at cost carry no fee, swaps a 5% fee
              (see Pricing).
            </p>
          ) : (
            <p>
              I confirm that my store wants to buy these units at the brand&apos;s wholesale cost
              from another authorized retailer, that my card will be pre-authorised when a retailer
              offers them and charged only on approval, plus the 10% purchase fee and shipping for
              the units received (see Pricing). Other retailers never see my store&apos;s name, only
              an anonymous label.
            </p>
          )}
        </div>
        {d.kind === "listing" && d.state.listingType === "sell" ? (
          <WizardMarkdownFields fields={fields} />
        ) : null}
        <label className="inline-choice">
          <input type="checkbox" name="terms" value="on" /> I agree to the terms
        </label>
        <ErrorList name="terms" errors={fields.terms.errors} />
        <div className="wizard-actions">
          <Link to={wizardHref(d.kind, 3, d.state)} className="button button-outline">
            Back
          </Link>
          <button
            type="submit"
            className="button"
            disabled={navigation.state !== "idle"}
            data-testid="wizard-save"
          >
            {d.kind === "listing" ? "Save listing" : "Save request"}
          </button>
        </div>
      </Form>
    </div>
  );
}

/**
 * A sell listing's optional markdown schedule, saved with it (docs/product/markdowns.md): the edit page's fields
 * (MarkdownFields) behind a box; the server checks them before the listing is saved (app/utils/markdown.server.ts
 * wizardMarkdown) and answers a refusal under the field it is about.
 */
function WizardMarkdownFields({
  fields,
}: {
  fields: Parameters<typeof MarkdownFields>[0]["fields"];
}) {
  return (
    <fieldset className="wizard-markdown" data-testid="wizard-markdown">
      <legend>Markdown schedule (optional)</legend>
      <label className="inline-choice">
        <input type="checkbox" name="markdown" value="on" /> Lower the price on a schedule
      </label>
      <MarkdownFields fields={fields} />
    </fieldset>
  );
}
