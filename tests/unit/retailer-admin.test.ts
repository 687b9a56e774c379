/** Staff retailer administration's pure rules (domain/retailer-admin.ts; ADR 0018): upload rows, last_active throttle, map geometry. */
import { describe, expect, it } from "vitest";
import {
  BULK_UPLOAD_COLUMNS,
  BULK_UPLOAD_EXAMPLE,
  BULK_UPLOAD_OPTIONAL,
  checkUploadRow,
  crossRowProblems,
  isActiveLabel,
  LAST_ACTIVE_EVERY_MS,
  lastActiveDue,
  MapViewSchema,
  milesBetween,
  panView,
  viewRadiusMiles,
} from "../../domain/retailer-admin";

describe("bulk upload rows", () => {
  it("the template's example row is valid and normalised", () => {
    const r = checkUploadRow({
      ...BULK_UPLOAD_EXAMPLE,
      state: "ny",
      contact_email: "Dana@Hudson-Valley.example",
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.row).toMatchObject({
      state: "NY",
      contact_email: "dana@hudson-valley.example",
      segments: ["Outdoor", "Running"],
      brands: ["Acme Boots", "Trailhead"],
      latitude: 41.927,
    });
  });

  it("every required column missing is a problem named by its column; optional ones may be empty", () => {
    const r = checkUploadRow({});
    expect(r.ok).toBe(false);
    const named = new Set(r.problems.map((p) => p.split(":")[0]));
    for (const c of BULK_UPLOAD_COLUMNS) expect(named.has(c), c).toBe(!BULK_UPLOAD_OPTIONAL.has(c));
  });

  it("bad values: state, e-mail, postal code, coordinates", () => {
    const r = checkUploadRow({
      ...BULK_UPLOAD_EXAMPLE,
      state: "XX",
      contact_email: "x",
      postal_code: "1",
      latitude: "91",
    });
    expect(r.problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "contact_email",
      "latitude",
      "postal_code",
      "state",
    ]);
  });

  it("the same contact e-mail twice and unknown brands are found across rows", () => {
    const rows = [
      { line: 2, values: { contact_email: "a@x.test", brands: "Known" } },
      { line: 3, values: { contact_email: "A@x.test ", brands: "Known; Nope" } },
    ];
    const p = crossRowProblems(rows, (b) => b === "known");
    expect(p.get(2)).toBeUndefined();
    expect(p.get(3)).toEqual([
      "contact_email: the same e-mail is on line 2.",
      'brands: no brand named "Nope".',
    ]);
  });
});

describe("retailer list and last_active", () => {
  it("is_active shows true, false or none (pending)", () => {
    expect(
      ["active", "inactive", "denied", "pending"].map((s) => isActiveLabel(s as "active")),
    ).toEqual(["true", "false", "false", "none"]);
  });
  it("last_active is due when never seen or seen 5 minutes ago or more", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(lastActiveDue(null, now)).toBe(true);
    expect(lastActiveDue(new Date(now.getTime() - LAST_ACTIVE_EVERY_MS + 1), now)).toBe(false);
    expect(lastActiveDue(new Date(now.getTime() - LAST_ACTIVE_EVERY_MS), now)).toBe(true);
  });
});

describe("map geometry", () => {
  it("defaults to lat 40 / lon -74 / zoom 7; the radius follows the zoom, at most 500 miles", () => {
    const v = MapViewSchema.parse({});
    expect(v).toEqual({ lat: 40, lon: -74, zoom: 7, pages: 1 });
    const r7 = viewRadiusMiles(v);
    expect(r7).toBeGreaterThan(250);
    expect(r7).toBeLessThan(500);
    expect(viewRadiusMiles({ lat: 40, zoom: 8 })).toBeLessThan(r7);
    expect(viewRadiusMiles({ lat: 40, zoom: 5 })).toBe(500);
    expect(MapViewSchema.safeParse({ pages: "21" }).success).toBe(false);
    expect(MapViewSchema.safeParse({ lat: "abc" }).success).toBe(false);
  });
  it("panning moves half a view; distances are great-circle miles", () => {
    const v = MapViewSchema.parse({});
    expect(panView(v, "e").lon).toBeGreaterThan(-74);
    expect(panView(v, "n").lat).toBeGreaterThan(40);
    expect(panView({ ...v, lon: 179 }, "e").lon).toBeLessThan(-170); // wraps
    expect(
      milesBetween({ lat: 40.7128, lon: -74.006 }, { lat: 42.3601, lon: -71.0589 }),
    ).toBeCloseTo(190, -1); // NYC - Boston
  });
});
