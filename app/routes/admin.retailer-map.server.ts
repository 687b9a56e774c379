/**
 * The retailer map drawn on the server, offline (ADR 0018): US state outlines from the Census-derived
 * TopoJSON packaged by us-atlas (public domain), projected with d3-geo's Web-Mercator at the view's centre and
 * zoom (the scale a 256-pixel tile map uses, so zoom 7 looks like the seed's map), and a dot per retailer with a
 * tooltip (<title>) and a link to its admin page. No tile or map service is contacted.
 */
import { createRequire } from "node:module";
import { geoBounds, geoMercator, geoPath } from "d3-geo";
import type { FeatureCollection, Geometry } from "geojson";
import { MAP_DEFAULTS, mercatorScale } from "../../domain/retailer-admin";

const require = createRequire(import.meta.url);
type TopojsonClient = typeof import("topojson-client");

type State = {
  feature: FeatureCollection<Geometry, { name: string }>["features"][number];
  bounds: [[number, number], [number, number]];
};
let statesCache: State[] | null = null;
/** The states with their lon/lat bounding boxes (read once per process). */
function states(): State[] {
  if (!statesCache) {
    const topojson = require("topojson-client") as TopojsonClient;
    // The atlas JSON is read untyped and handed to topojson as it is.
    const topology = require("us-atlas/states-10m.json") as any;
    const fc = topojson.feature(topology, topology.objects.states) as unknown as FeatureCollection<
      Geometry,
      { name: string }
    >;
    statesCache = fc.features.map((feature) => ({ feature, bounds: geoBounds(feature) }));
  }
  return statesCache;
}

export type MapDot = { id: number; label: string; lat: number; lon: number };

function projectionFor(view: { lat: number; lon: number; zoom: number }) {
  const { width, height } = MAP_DEFAULTS;
  return geoMercator()
    .scale(mercatorScale(view.zoom))
    .center([view.lon, view.lat])
    .translate([width / 2, height / 2])
    .clipExtent([
      [0, 0],
      [width, height],
    ]);
}

/** The state outlines of a view as SVG path elements (kept for the last views drawn: panning back is free). */
const outlineCache = new Map<string, string>();
function outlines(view: { lat: number; lon: number; zoom: number }): string {
  const key = `${view.lat}:${view.lon}:${view.zoom}`;
  const hit = outlineCache.get(key);
  if (hit) return hit;
  const projection = projectionFor(view);
  const path = geoPath(projection).digits(1);
  // Only states whose bounding box meets the view's (corners inverted, padded) are projected.
  const { width, height } = MAP_DEFAULTS;
  const [west, north] = projection.invert!([-50, -50])!;
  const [east, south] = projection.invert!([width + 50, height + 50])!;
  const out = states()
    .filter(({ bounds: [[w, s], [e, n]] }) => e >= west && w <= east && n >= south && s <= north)
    .map(({ feature: f }) => {
      const d = path(f);
      return d
        ? `<path class="state" d="${d}"><title>${escapeXml(f.properties.name)}</title></path>`
        : "";
    })
    .join("");
  if (outlineCache.size >= 64) outlineCache.delete(outlineCache.keys().next().value as string);
  outlineCache.set(key, out);
  return out;
}

export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/**
 * The whole map as one SVG document string: states, the search circle (radius in miles), a dot per retailer
 * inside the view. Returns how many dots were drawn.
 */
export function renderRetailerMap(
  view: { lat: number; lon: number; zoom: number },
  radiusMiles: number,
  dots: MapDot[],
): { svg: string; drawn: number } {
  const { width, height } = MAP_DEFAULTS;
  const projection = projectionFor(view);
  const parts: string[] = [];
  let drawn = 0;
  for (const d of dots) {
    const p = projection([d.lon, d.lat]);
    if (!p || p[0] < 0 || p[1] < 0 || p[0] > width || p[1] > height) continue;
    drawn += 1;
    parts.push(
      `<a href="/manage-retailer/info?id=${d.id}" data-retailer="${d.id}"><circle class="dot" cx="${p[0].toFixed(1)}" cy="${p[1].toFixed(1)}" r="5"><title>${escapeXml(d.label)}</title></circle></a>`,
    );
  }
  // The search radius drawn as a circle at the centre (miles to pixels at the centre's latitude).
  const pxPerMile = mercatorScale(view.zoom) / (3958.8 * Math.cos((view.lat * Math.PI) / 180));
  const r = (radiusMiles * pxPerMile).toFixed(1);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="Map of retailers">` +
    `<g class="states">${outlines(view)}</g>` +
    `<circle class="radius" cx="${width / 2}" cy="${height / 2}" r="${r}"/>` +
    `<g class="dots">${parts.join("")}</g></svg>`;
  return { svg, drawn };
}
