/**
 * Retailer map (route name retailer-map-admin; docs/product/screens.md, "Staff: reports and map"; ADR 0018): centred on latitude 40,
 * longitude -74 at zoom 7; retailers within the view's radius (at most 500 miles) nearest first, 100 per
 * fetch ("Show 100 more" adds a fetch, up to 20); the centre, zoom and so the radius change with the view
 * (pan and zoom links). The map is an SVG drawn on the server from packaged data (no tile service).
 * Server-Timing says how long the query and the drawing took.
 */
import type {
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  MAP_DEFAULTS,
  MapViewSchema,
  panView,
  viewRadiusMiles,
  type MapView,
} from "../../domain/retailer-admin";
import { retailersNear } from "../../db/queries/reports";
import { pageTitle } from "~/components/title";
import adminCss from "~/styles/retailer-admin.css";
import { db } from "~/utils/db.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { renderRetailerMap } from "./admin.retailer-map.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Retailer map") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const t = loaderHeaders.get("Server-Timing");
  return t ? { "Server-Timing": t } : new Headers();
};

function viewHref(v: { lat: number; lon: number; zoom: number; pages?: number }): string {
  const p = new URLSearchParams({ lat: String(v.lat), lon: String(v.lon), zoom: String(v.zoom) });
  if (v.pages && v.pages > 1) p.set("pages", String(v.pages));
  return `/admin/retailer-map?${p}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  const q = new URL(request.url).searchParams;
  const parsed = MapViewSchema.safeParse(
    Object.fromEntries(
      ["lat", "lon", "zoom", "pages"].filter((k) => q.get(k)).map((k) => [k, q.get(k)]),
    ),
  );
  if (!parsed.success)
    throw new Response("Bad request: lat, lon, zoom or pages out of range.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const view: MapView = parsed.data;
  const radius = viewRadiusMiles(view);
  const t0 = performance.now();
  const found = await retailersNear(db, {
    lat: view.lat,
    lon: view.lon,
    radiusMiles: radius,
    limit: MAP_DEFAULTS.limit * view.pages,
    offset: 0,
  });
  const t1 = performance.now();
  const { svg, drawn } = renderRetailerMap(
    view,
    radius,
    found.map((r) => ({
      id: r.id,
      lat: r.lat,
      lon: r.lon,
      label: `${r.storeName} #${r.id} — ${[r.city, r.state].filter(Boolean).join(", ")} (${r.status}, ${Math.round(r.miles)} mi)`,
    })),
  );
  const t2 = performance.now();
  const nav = {
    n: viewHref({ ...view, ...panView(view, "n") }),
    s: viewHref({ ...view, ...panView(view, "s") }),
    e: viewHref({ ...view, ...panView(view, "e") }),
    w: viewHref({ ...view, ...panView(view, "w") }),
    zoomIn: view.zoom < 12 ? viewHref({ ...view, zoom: view.zoom + 1 }) : null,
    zoomOut: view.zoom > 3 ? viewHref({ ...view, zoom: view.zoom - 1 }) : null,
    more:
      found.length === MAP_DEFAULTS.limit * view.pages && view.pages < MAP_DEFAULTS.maxFetches
        ? viewHref({ ...view, pages: view.pages + 1 })
        : null,
    home: viewHref(MAP_DEFAULTS),
  };
  return data(
    {
      view,
      radius,
      svg,
      drawn,
      found: found.length,
      nav,
      list: found.slice(0, 100).map((r) => ({
        id: r.id,
        storeName: r.storeName,
        city: r.city,
        state: r.state,
        miles: Math.round(r.miles),
      })),
    },
    {
      headers: {
        "Server-Timing": `query;dur=${(t1 - t0).toFixed(1)}, draw;dur=${(t2 - t1).toFixed(1)}, map;dur=${(t2 - t0).toFixed(1)}`,
      },
    },
  );
}

export default function RetailerMap() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page retailer-admin retailer-map">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>Retailer map</h1>
      <p className="muted" data-testid="map-summary">
        Centre {d.view.lat}, {d.view.lon} · zoom {d.view.zoom} · radius {d.radius} miles · {d.found}{" "}
        retailer{d.found === 1 ? "" : "s"} found, {d.drawn} in view
      </p>
      <nav className="map-controls" aria-label="Map view">
        <Link to={d.nav.w}>← West</Link>
        <Link to={d.nav.n}>↑ North</Link>
        <Link to={d.nav.s}>↓ South</Link>
        <Link to={d.nav.e}>East →</Link>
        {d.nav.zoomIn ? <Link to={d.nav.zoomIn}>Zoom in</Link> : null}
        {d.nav.zoomOut ? <Link to={d.nav.zoomOut}>Zoom out</Link> : null}
        <Link to={d.nav.home}>Reset view</Link>
        {d.nav.more ? <Link to={d.nav.more}>Show 100 more</Link> : null}
      </nav>
      <div
        className="map-frame"
        data-testid="retailer-map"
        dangerouslySetInnerHTML={{ __html: d.svg }}
      />
      <details>
        <summary>Nearest retailers (list)</summary>
        <ol>
          {d.list.map((r) => (
            <li key={r.id}>
              <Link to={`/manage-retailer/info?id=${r.id}`}>{r.storeName}</Link> —{" "}
              {[r.city, r.state].filter(Boolean).join(", ")} ({r.miles} mi)
            </li>
          ))}
        </ol>
      </details>
      <p className="muted">
        State outlines: US Census Bureau cartographic boundaries via us-atlas (public domain).
      </p>
    </section>
  );
}
