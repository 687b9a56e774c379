/**
 * Cards of the validation stages (docs/product/screens.md, "Staff: validation tools"): an external brand with
 * the retailers' requests that named it, and an unresolved catalogue entry with where it came from and its
 * candidate matches. Each card shows its action's refusal above its forms, and "FIXED!" once handled.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { formatCents } from "../../../domain/money";
import type { UnresolvedEntry } from "../../../db/queries/catalogue-entries";
import type { ExternalBrand } from "../../../db/queries/validation";
import { ActionError } from "./ActionError";

/** The action's refusal: the card it belongs to and the reply. */
export type Refusal = { card: number; result: SubmissionResult<string[]> };

const SOURCE_LABELS: Record<string, string> = {
  registration: "at registration",
  request: "brand request",
};

/** Validate external brand: Add Brand, Change to Existing Brand (valid brands only), Show/Hide Listing Sample. */
export function BrandCard({
  b,
  fixed,
  valid,
  sample,
  refusal,
}: {
  b: ExternalBrand;
  fixed: boolean;
  valid: { id: number; display_name: string }[];
  sample: {
    brandId: number;
    listings: { id: number; sku: string; color: string; units: number; store: string }[];
  } | null;
  refusal?: Refusal;
}) {
  if (fixed) {
    return (
      <article id={`card-${b.id}`} className="hub-card" data-testid={`brand-card-${b.id}`}>
        <strong>FIXED!</strong>
      </article>
    );
  }
  const shown = sample?.brandId === b.id;
  return (
    <article id={`card-${b.id}`} className="hub-card" data-testid={`brand-card-${b.id}`}>
      <h2>
        {b.name} <span className="muted">({b.listingCount} listings)</span>
      </h2>
      <p className="muted">
        Source: {b.stores.join(", ") || "—"} ·{" "}
        {b.emails.map((e) => `{${e}}`).join(", ") || "no e-mail"}
      </p>
      {b.requests.length > 0 ? (
        <ul className="muted" data-testid={`brand-requests-${b.id}`}>
          {b.requests.map((q) => (
            <li key={q.requestId}>
              Requested by {q.store || "a store without a name"} (
              {SOURCE_LABELS[q.source] ?? q.source} #{q.requestId}, {q.status})
            </li>
          ))}
        </ul>
      ) : null}
      <ActionError
        id={`card-${b.id}-form`}
        lastResult={refusal?.card === b.id ? refusal.result : null}
      />
      <Form method="post" className="inline-form">
        <input type="hidden" name="brand" value={b.id} />
        <button type="submit" name="intent" value="add-brand" className="button button-small">
          Add Brand
        </button>
      </Form>{" "}
      <Form method="post" className="inline-form">
        <input type="hidden" name="brand" value={b.id} />
        <input type="hidden" name="intent" value="map-brand" />
        <select name="target" aria-label={`Existing brand for ${b.name}`} defaultValue="">
          <option value="">Choose a brand…</option>
          {valid.map((v) => (
            <option key={v.id} value={v.id}>
              {v.display_name}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button button-small button-outline">
          Change to Existing Brand
        </button>
      </Form>{" "}
      <Link to={shown ? "?" : `?sample=${b.id}#card-${b.id}`}>
        {shown ? "Hide Listing Sample" : "Show Listing Sample"}
      </Link>
      {shown ? (
        <ul data-testid="listing-sample">
          {sample.listings.map((l) => (
            <li key={l.id}>
              #{l.id} {l.sku} {l.color} · {l.units} units · {l.store}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

/** Where an entry came from: its upload and line, else the retailer whose source sent it. */
function entrySource(e: UnresolvedEntry): string {
  if (e.uploadId !== null)
    return `upload #${e.uploadId}${e.uploadFile ? ` (${e.uploadFile})` : ""}, line ${e.uploadLine ?? "?"}`;
  return e.retailer ?? "an unknown source";
}

/** Validate products: an unresolved catalogue entry with its candidate matches and their match strength. */
export function EntryCards({
  entries,
  fixed,
  refusal,
}: {
  entries: UnresolvedEntry[];
  fixed: number[];
  refusal?: Refusal;
}) {
  if (entries.length === 0) return <p className="muted">No unresolved catalogue entries.</p>;
  return (
    <>
      {entries.map((e) => (
        <article
          key={e.id}
          id={`card-${e.id}`}
          className="hub-card"
          data-testid={`entry-card-${e.id}`}
        >
          {fixed.includes(e.id) ? (
            <strong>FIXED!</strong>
          ) : (
            <>
              <h2>
                {e.brandName} · {e.sku ? `${e.sku} ` : ""}
                {e.name} <span className="muted">#{e.id}</span>
              </h2>
              <p className="muted">
                {e.description || "no description"} ·{" "}
                {e.priceCents === null ? "no price" : formatCents(e.priceCents)} · from{" "}
                {entrySource(e)}
              </p>
              {e.image ? <img src={e.image} alt="" width={60} height={60} /> : null}
              <ActionError
                id={`card-${e.id}-form`}
                lastResult={refusal?.card === e.id ? refusal.result : null}
              />
              <Form method="post" className="inline-form">
                <input type="hidden" name="entry" value={e.id} />
                {e.initialProductId !== null ? (
                  <>
                    <button
                      type="submit"
                      name="intent"
                      value="validate"
                      className="button button-small"
                    >
                      Validate
                    </button>{" "}
                  </>
                ) : null}
                <button
                  type="submit"
                  name="intent"
                  value="reject"
                  className="button button-small button-outline"
                >
                  Reject
                </button>
              </Form>
              {e.matches.length === 0 ? <p className="muted">No candidate matches.</p> : null}
              {e.matches.map((m) => (
                <div
                  key={m.productId}
                  className="membership"
                  data-testid={`match-${e.id}-${m.productId}`}
                >
                  <details>
                    <summary>match strength {m.strength.toFixed(2)}</summary>
                    <ul className="match-detail">
                      <li>name: {m.name}</li>
                      <li>description: {m.description || "—"}</li>
                      <li>price: {formatCents(m.priceCents)}</li>
                      <li>brand_name: {m.brandName}</li>
                      <li>sku: {m.sku}</li>
                    </ul>
                  </details>
                  <p>
                    {m.brandName} · {m.sku} {m.name} · {formatCents(m.priceCents)}
                  </p>
                  <ul>
                    {m.variations.map((v) => (
                      <li key={v.id}>
                        {v.sku} {v.color}{" "}
                        {v.images.map((src) => (
                          <img key={src} src={src} alt="" width={40} height={40} />
                        ))}
                      </li>
                    ))}
                  </ul>
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="intent" value="match" />
                    <input type="hidden" name="entry" value={e.id} />
                    <input type="hidden" name="product" value={m.productId} />
                    <button type="submit" className="button button-small">
                      This is the product
                    </button>
                  </Form>
                </div>
              ))}
            </>
          )}
        </article>
      ))}
    </>
  );
}
