/**
 * The listing view (choose sizes; shows Total Units and Total Value; image carousel: docs/product/screens.md,
 * "Marketplace"), for a
 * listing (/listing/buy|swap/{id}) or a request one sells to (/listing/sell/{id}). The size inputs are
 * plain form fields posted to the cart helper's /cart (intent=add, listingId|requestId, size.<label>=qty,
 * returnTo); its refusals are shown by /cart. The totals are rendered on the server and kept live in the
 * browser.
 */
import { Form, Link, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CartBar } from "~/components/cart/CartBar";
import { ErrorPage } from "~/components/ErrorPage";
import { LISTING_UNAVAILABLE } from "../../../domain/messages";
import { formatCents, multiplyCents } from "../../../domain/money";
import type { ItemViewData } from "~/utils/marketplace.server";

/** The photo carousel's interval. */
export const CAROUSEL_INTERVAL_MS = 50000;

export function ItemViewPage() {
  const d = useLoaderData<ItemViewData>();
  const [qty, setQty] = useState<Record<string, number>>({});
  const units = d.sizes.reduce((a, s) => a + (qty[s.label] ?? 0), 0);
  const value = formatCents(multiplyCents(d.priceCents, units));
  const verb = d.tab === "buy" ? "buy" : d.tab === "swap" ? "swap" : "sell";

  return (
    <section className="page market-item" data-kind={d.kind} data-id={d.id}>
      <CartBar summary={d.cart} returnTo={d.returnTo} />
      <p className="market-back">
        <Link to={d.backHref}>Back to {d.brandName}</Link>
      </p>
      <div className="market-item-grid">
        <Carousel images={d.images} />
        <div className="market-item-info">
          <h1>{d.productName}</h1>
          <dl className="market-item-facts">
            <dt>Brand</dt>
            <dd>{d.brandName}</dd>
            <dt>Product code</dt>
            <dd className="market-item-sku">{d.sku}</dd>
            <dt>Colour</dt>
            <dd>{d.color}</dd>
            <dt>Wholesale price</dt>
            <dd className="market-item-price">
              {d.price}
              {d.nextPrice ? (
                <span className="muted market-item-next-price" data-testid="next-price">
                  {" "}
                  {d.nextPrice}
                </span>
              ) : null}
            </dd>
            <dt>{d.kind === "request" ? "Units requested" : "Units available"}</dt>
            <dd>
              {d.totalUnits} ({formatCents(multiplyCents(d.priceCents, d.totalUnits))})
            </dd>
          </dl>
          <p className="market-card-by">{d.by}</p>
          {d.description ? <p className="muted">{d.description}</p> : null}

          <Form method="post" action="/cart" className="market-item-form">
            <input type="hidden" name="intent" value="add" />
            <input
              type="hidden"
              name={d.kind === "request" ? "requestId" : "listingId"}
              value={d.id}
            />
            <input type="hidden" name="type" value={verb} />
            <input type="hidden" name="returnTo" value={d.returnTo} />
            <fieldset disabled={d.cartBlocked !== null}>
              <legend>Choose sizes</legend>
              <table className="table market-sizes">
                <thead>
                  <tr>
                    <th scope="col">Size</th>
                    <th scope="col">{d.kind === "request" ? "Requested" : "Available"}</th>
                    <th scope="col">Quantity</th>
                  </tr>
                </thead>
                <tbody>
                  {d.sizes.map((s) => (
                    <tr key={s.label}>
                      <th scope="row">{s.label}</th>
                      <td>{s.available}</td>
                      <td>
                        <input
                          type="number"
                          name={`size.${s.label}`}
                          aria-label={`Quantity of size ${s.label}`}
                          min={0}
                          max={s.max}
                          step={1}
                          inputMode="numeric"
                          defaultValue={0}
                          onChange={(e) => {
                            const n = Number(e.currentTarget.value);
                            setQty((prev) => ({
                              ...prev,
                              [s.label]: Number.isInteger(n) && n > 0 ? Math.min(n, s.max) : 0,
                            }));
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="market-totals" aria-live="polite">
                <span>
                  Total Units: <strong data-testid="total-units">{units}</strong>
                </span>{" "}
                <span>
                  Total Value: <strong data-testid="total-value">{value}</strong>
                </span>
              </p>
              <button type="submit" className="button">
                Add to cart
              </button>
            </fieldset>
            {d.cartBlocked ? <p className="alert alert-warning">{d.cartBlocked}</p> : null}
          </Form>
          {d.tab === "buy" ? (
            <p>
              {/* docs/product/offers.md: a price per unit below the listed one. */}
              <Link to={`/offers/new?listing=${d.id}`} data-testid="make-offer">
                Make an offer
              </Link>
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Carousel({ images }: { images: { url: string; alt: string }[] }) {
  const [i, setI] = useState(0);
  const n = images.length;
  useEffect(() => {
    if (n < 2) return;
    const t = setInterval(() => setI((x) => (x + 1) % n), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(t);
  }, [n]);
  const img = images[i] ?? images[0];
  return (
    <div
      className="market-carousel"
      data-interval={CAROUSEL_INTERVAL_MS}
      aria-roledescription="carousel"
    >
      <img src={img.url} alt={img.alt} width={600} height={600} />
      {n > 1 ? (
        <div className="market-carousel-nav">
          <button
            type="button"
            className="button button-small button-outline"
            onClick={() => setI((x) => (x - 1 + n) % n)}
            aria-label="Previous image"
          >
            ‹
          </button>
          <span>
            {i + 1} / {n}
          </span>
          <button
            type="button"
            className="button button-small button-outline"
            onClick={() => setI((x) => (x + 1) % n)}
            aria-label="Next image"
          >
            ›
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The listing view's error page: a listing that is gone gets the spec's message (404). */
export function ItemViewError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) {
    return (
      <section className="page page-error market-unavailable" data-status={404}>
        <h1>Listing unavailable</h1>
        <p className="lead">{LISTING_UNAVAILABLE}</p>
        <p>
          <Link to="/buy/" className="button">
            Back to the marketplace
          </Link>
        </p>
      </section>
    );
  }
  return <ErrorPage />;
}
