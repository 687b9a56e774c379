import { Form, useNavigation } from "@remix-run/react";
import type { RetailerStatus } from "../../../db/queries/retailers";

/** A retailer's card as the activation page's loader gives it (its server half builds it from the row). */
export type RetailerCardEntry = {
  id: number;
  storeName: string;
  city: string;
  state: string;
  status: RetailerStatus;
  storeEmail: string;
  storePhone: string;
  setupComplete: boolean;
  createdAt: string;
  contact: { name: string; celphone: string; phone: string } | null;
  userEmails: string[];
  brandRequests: {
    id: number;
    brandName: string;
    brandId: number | null;
    amount: string | null;
    interests: string[];
    contact: string;
    status: string;
  }[];
  authorizedBrands: { id: number; name: string }[];
};

/** One retailer on /admin/retailers: who it is, its brand requests and brands, and the forms that act on it. */
export function RetailerCard({
  e,
  brands,
}: {
  e: RetailerCardEntry;
  brands: { id: number; name: string }[];
}) {
  const busy = useNavigation().state !== "idle";
  const requested = new Set(
    e.brandRequests.map((r) => r.brandId).filter((x): x is number => x !== null),
  );
  const authorized = new Set(e.authorizedBrands.map((b) => b.id));
  return (
    <article
      className="admin-retailer"
      id={`retailer-${e.id}`}
      data-testid={`retailer-${e.id}`}
      data-store={e.storeName}
    >
      <h3>
        {e.storeName || "(no store name yet)"} <span className="muted">#{e.id}</span>
      </h3>
      <p className="muted">
        {[e.city, e.state].filter(Boolean).join(", ")} · created {e.createdAt} · login{" "}
        {e.userEmails.join(", ") || "none"}
        {e.contact
          ? ` · contact ${e.contact.name}${e.contact.celphone ? `, cell ${e.contact.celphone}` : ", no cell phone"}`
          : " · no contact yet"}
        {e.status === "pending" && !e.setupComplete ? " · setup not finished" : ""}
      </p>
      {e.brandRequests.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th>Brand request</th>
              <th>Yearly purchases</th>
              <th>Interest</th>
              <th>Brand contact</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {e.brandRequests.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.brandName}
                  {r.brandId && brands.some((b) => b.id === r.brandId) ? (
                    <span className="muted"> (on the marketplace)</span>
                  ) : r.brandId ? (
                    <span className="muted"> (waiting for brand validation)</span>
                  ) : null}
                </td>
                <td>{r.amount ?? "—"}</td>
                <td>{r.interests.join(", ") || "—"}</td>
                <td>{r.contact || "—"}</td>
                <td>{r.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No brand requests.</p>
      )}
      <div>
        <strong>Authorized brands:</strong>{" "}
        {e.authorizedBrands.length === 0 ? <span className="muted">none</span> : null}
        {e.authorizedBrands.map((b) => (
          <Form method="post" key={b.id} className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <input type="hidden" name="brandId" value={b.id} />
            <span>{b.name}</span>{" "}
            <button
              type="submit"
              name="intent"
              value="unauthorize"
              className="link-button"
              aria-label={`Remove ${b.name}`}
              disabled={busy}
            >
              ✕
            </button>{" "}
          </Form>
        ))}
      </div>
      {e.status !== "active" ? (
        <Form method="post" data-testid="activate-form">
          <input type="hidden" name="retailerId" value={e.id} />
          <fieldset className="request">
            <legend>Activate and authorize brands</legend>
            <div className="checkbox-list">
              {brands.map((b) => (
                <label key={b.id}>
                  <input
                    type="checkbox"
                    name="brandId"
                    value={b.id}
                    defaultChecked={requested.has(b.id) || authorized.has(b.id)}
                  />{" "}
                  {b.name}
                </label>
              ))}
            </div>
            <div className="form-actions">
              <button
                type="submit"
                name="intent"
                value="activate"
                className="button"
                disabled={busy}
              >
                Activate
              </button>
              {e.status === "pending" ? (
                <button
                  type="submit"
                  name="intent"
                  value="deny"
                  className="button button-outline"
                  disabled={busy}
                >
                  Deny
                </button>
              ) : null}
            </div>
          </fieldset>
        </Form>
      ) : (
        <div className="form-actions">
          <Form method="post" className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <select
              name="brandId"
              aria-label={`Brand to authorize for ${e.storeName}`}
              defaultValue=""
            >
              <option value="">Authorize a brand…</option>
              {brands
                .filter((b) => !authorized.has(b.id))
                .map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
            </select>{" "}
            <button
              type="submit"
              name="intent"
              value="authorize"
              className="button button-small"
              disabled={busy}
            >
              Authorize
            </button>
          </Form>
          <Form method="post" className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <button
              type="submit"
              name="intent"
              value="inactivate"
              className="button button-small button-outline"
              disabled={busy}
            >
              Inactivate
            </button>
          </Form>
        </div>
      )}
      <Form method="post" action="/act-as" className="inline-form">
        <input type="hidden" name="intent" value="act" />
        <input type="hidden" name="retailerId" value={e.id} />
        <button type="submit" className="link-button">
          Act as this retailer
        </button>
      </Form>
    </article>
  );
}
