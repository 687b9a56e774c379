/**
 * Demo data (`npm run db:seed`): brands with collections, products, colour variations and size runs;
 * retailers in every state the product knows (payout set up or not, no cell phone, inactive, pending);
 * a staff user; listings and requests across them. Idempotent: the run records itself in seed_runs
 * (name 'demo') inside the same transaction, so a second run (even a concurrent one) does nothing.
 * Logins: db/seed-logins.json (printed by the dev command, listed in the README).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client";
import { brands, catalogueEntries, categories, products, seedRuns } from "./schema";
import { FLOOR_TIMES, LISTING_REASONS, REQUEST_REASONS, valuesOf } from "../domain/reasons";
import { PERMISSION_NAMES } from "../domain/staff-users";
import { gtinCheckDigit } from "../domain/barcodes";
import {
  authorizeBrand,
  createBrand,
  createBrandRequest,
  createCollection,
  createListing,
  createProduct,
  createRequest,
  createRetailer,
  createStaffUser,
  hashPassword,
  resaleNumber,
  SIZE_RUNS,
  type CreatedProduct,
  type CreatedVariation,
} from "../tests/factories";

export const DEMO_SEED_NAME = "demo";
export const DEMO_PASSWORD = "marketplace-demo-1";
export const DEMO_STAFF_EMAIL = "staff@demo.test";

type SizeRun = keyof typeof SIZE_RUNS;

interface BrandSpec {
  name: string;
  businessModel: string;
  segments: string[];
  priceTier: string;
  sizeRun: SizeRun;
  company: {
    name: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    city: string;
    state: string;
  };
  collections: { year: number; name: string }[];
  /** [sku, name, wholesale cents, colours, collection index] */
  products: [string, string, number, string[], number][];
}

export const DEMO_BRANDS: BrandSpec[] = [
  {
    name: "Ridgeline Outfitters",
    businessModel: "Outdoor apparel",
    segments: ["outdoor", "apparel"],
    priceTier: "premium",
    sizeRun: "apparel",
    company: {
      name: "Ridgeline Outfitters Inc.",
      firstName: "Dana",
      lastName: "Whitfield",
      email: "wholesale@ridgeline.example",
      phone: "+1-303-555-0142",
      city: "Boulder",
      state: "CO",
    },
    collections: [
      { year: 2025, name: "Spring" },
      { year: 2024, name: "Fall" },
    ],
    products: [
      ["RL-1042", "Summit Shell Jacket", 8900, ["Glacier Blue", "Black", "Trail Orange"], 0],
      ["RL-2210", "Trailhead Fleece Pullover", 4200, ["Sage", "Charcoal"], 1],
      ["RL-3318", "Basecamp Flannel Shirt", 3450, ["Rust", "Forest", "Navy"], 1],
      ["RL-4105", "Switchback Hiking Short", 2800, ["Sand", "Olive"], 0],
      ["RL-5120", "Alpine Down Vest", 6400, ["Black", "Burgundy"], 1],
    ],
  },
  {
    name: "Copperfield Footwear",
    businessModel: "Footwear",
    segments: ["footwear", "lifestyle"],
    priceTier: "mid",
    sizeRun: "footwear",
    company: {
      name: "Copperfield Shoe Company",
      firstName: "Marcus",
      lastName: "Ellery",
      email: "orders@copperfield.example",
      phone: "+1-617-555-0188",
      city: "Lowell",
      state: "MA",
    },
    collections: [
      { year: 2025, name: "Spring" },
      { year: 2024, name: "Holiday" },
    ],
    products: [
      ["CF-610", "Canyon Trail Runner", 5800, ["Slate", "Trail Orange", "Black"], 0],
      ["CF-720", "Harbor Leather Boot", 9600, ["Brown", "Black"], 1],
      ["CF-335", "Meadow Slip-On", 3600, ["Cream", "Navy"], 0],
      ["CF-418", "Riverbend Sandal", 2900, ["Tan", "Black", "Olive"], 0],
    ],
  },
  {
    name: "Indigo Mill Denim Co.",
    businessModel: "Denim",
    segments: ["denim", "apparel"],
    priceTier: "mid",
    sizeRun: "denim",
    company: {
      name: "Indigo Mill Denim Company",
      firstName: "Rosa",
      lastName: "Delgado",
      email: "trade@indigomill.example",
      phone: "+1-213-555-0117",
      city: "Los Angeles",
      state: "CA",
    },
    collections: [
      { year: 2025, name: "Core" },
      { year: 2024, name: "Fall" },
    ],
    products: [
      ["IM-501", "Classic Straight Jean", 3800, ["Dark Indigo", "Mid Wash", "Black"], 0],
      ["IM-702", "High-Rise Skinny Jean", 4100, ["Rinse", "Light Wash"], 0],
      ["IM-330", "Relaxed Carpenter Pant", 4400, ["Mid Wash", "Tan"], 1],
      ["IM-909", "Selvedge Slim Jean", 7200, ["Dark Indigo", "Indigo"], 1],
    ],
  },
  {
    name: "Saltmarsh Surf Supply",
    businessModel: "Surf and swim apparel",
    segments: ["surf", "apparel"],
    priceTier: "value",
    sizeRun: "apparel",
    company: {
      name: "Saltmarsh Surf Supply LLC",
      firstName: "Kai",
      lastName: "Morrow",
      email: "hello@saltmarsh.example",
      phone: "+1-904-555-0163",
      city: "Jacksonville",
      state: "FL",
    },
    collections: [
      { year: 2025, name: "Summer" },
      { year: 2024, name: "Resort" },
    ],
    products: [
      ["SM-120", "Tidewater Boardshort", 2600, ["Navy", "Red", "Sage"], 0],
      ["SM-244", "Dune Rash Guard", 3100, ["White", "Black"], 0],
      ["SM-310", "Jetty Hooded Poncho", 3900, ["Heather", "Mustard"], 1],
      ["SM-415", "Low Tide Tee", 1400, ["White", "Grey", "Sage"], 1],
    ],
  },
];

interface RetailerSpec {
  n: number;
  storeName: string;
  address1: string;
  city: string;
  state: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  phone: string;
  contact: { firstName: string; lastName: string; jobTitle: string; celphone: string };
  status: "active" | "inactive" | "pending";
  payout: boolean;
  /** Indexes into DEMO_BRANDS. */
  brands: number[];
  listings: number;
  requests: number;
}

export const DEMO_RETAILERS: RetailerSpec[] = [
  {
    n: 1,
    storeName: "Blue Ridge Outpost",
    address1: "48 Lexington Ave",
    city: "Asheville",
    state: "NC",
    postalCode: "28801",
    latitude: 35.5951,
    longitude: -82.5515,
    phone: "+1-828-555-0101",
    contact: {
      firstName: "Maya",
      lastName: "Caldwell",
      jobTitle: "Owner",
      celphone: "+1-828-555-0191",
    },
    status: "active",
    payout: true,
    brands: [0, 1, 2],
    listings: 5,
    requests: 2,
  },
  {
    n: 2,
    storeName: "Mesa Trail Supply",
    address1: "112 N San Francisco St",
    city: "Flagstaff",
    state: "AZ",
    postalCode: "86001",
    latitude: 35.1983,
    longitude: -111.6513,
    phone: "+1-928-555-0102",
    contact: {
      firstName: "Luis",
      lastName: "Ortega",
      jobTitle: "Buyer",
      celphone: "+1-928-555-0192",
    },
    status: "active",
    payout: true,
    brands: [0, 1, 2],
    listings: 5,
    requests: 2,
  },
  {
    n: 3,
    storeName: "Lakeshore Denim & Dry Goods",
    address1: "1520 N Milwaukee Ave",
    city: "Chicago",
    state: "IL",
    postalCode: "60622",
    latitude: 41.9087,
    longitude: -87.6776,
    phone: "+1-312-555-0103",
    contact: {
      firstName: "Erin",
      lastName: "Kowalski",
      jobTitle: "Store Manager",
      celphone: "+1-312-555-0193",
    },
    status: "active",
    payout: true,
    brands: [1, 2],
    listings: 4,
    requests: 2,
  },
  {
    n: 4,
    storeName: "Harborline Shoes",
    address1: "201 Commercial St",
    city: "Portland",
    state: "ME",
    postalCode: "04101",
    latitude: 43.6567,
    longitude: -70.2506,
    phone: "+1-207-555-0104",
    contact: {
      firstName: "Owen",
      lastName: "Pelletier",
      jobTitle: "Owner",
      celphone: "+1-207-555-0194",
    },
    status: "active",
    payout: false,
    brands: [1, 2, 0],
    listings: 4,
    requests: 2,
  },
  {
    n: 5,
    storeName: "Prairie Wind Mercantile",
    address1: "834 Massachusetts St",
    city: "Lawrence",
    state: "KS",
    postalCode: "66044",
    latitude: 38.9687,
    longitude: -95.2355,
    phone: "+1-785-555-0105",
    contact: { firstName: "Grace", lastName: "Lindqvist", jobTitle: "Buyer", celphone: "" },
    status: "active",
    payout: true,
    brands: [0, 2],
    listings: 3,
    requests: 2,
  },
  {
    n: 6,
    storeName: "Cascade Mountain Co.",
    address1: "930 NW Wall St",
    city: "Bend",
    state: "OR",
    postalCode: "97703",
    latitude: 44.0582,
    longitude: -121.3153,
    phone: "+1-541-555-0106",
    contact: {
      firstName: "Hannah",
      lastName: "Reyes",
      jobTitle: "Owner",
      celphone: "+1-541-555-0196",
    },
    status: "active",
    payout: false,
    brands: [0, 1, 3],
    listings: 3,
    requests: 1,
  },
  {
    n: 7,
    storeName: "Gulf Coast Threads",
    address1: "1600 S Congress Ave",
    city: "Austin",
    state: "TX",
    postalCode: "78704",
    latitude: 30.2489,
    longitude: -97.7501,
    phone: "+1-512-555-0107",
    contact: {
      firstName: "Andre",
      lastName: "Baptiste",
      jobTitle: "Manager",
      celphone: "+1-512-555-0197",
    },
    status: "active",
    payout: true,
    brands: [2, 3, 0],
    listings: 4,
    requests: 2,
  },
  {
    n: 8,
    storeName: "Old Town Outfitters",
    address1: "305 King St",
    city: "Alexandria",
    state: "VA",
    postalCode: "22314",
    latitude: 38.8048,
    longitude: -77.0469,
    phone: "+1-703-555-0108",
    contact: {
      firstName: "Paul",
      lastName: "Whitaker",
      jobTitle: "Owner",
      celphone: "+1-703-555-0198",
    },
    status: "inactive",
    payout: true,
    brands: [0, 2],
    listings: 0,
    requests: 0,
  },
  {
    n: 9,
    storeName: "Sierra Sole Collective",
    address1: "1021 K St",
    city: "Sacramento",
    state: "CA",
    postalCode: "95814",
    latitude: 38.5794,
    longitude: -121.4944,
    phone: "+1-916-555-0109",
    contact: {
      firstName: "Nina",
      lastName: "Tran",
      jobTitle: "Owner",
      celphone: "+1-916-555-0199",
    },
    status: "pending",
    payout: false,
    brands: [],
    listings: 0,
    requests: 0,
  },
  {
    n: 10,
    storeName: "Green Mountain General",
    address1: "75 Church St",
    city: "Burlington",
    state: "VT",
    postalCode: "05401",
    latitude: 44.4777,
    longitude: -73.2121,
    phone: "+1-802-555-0110",
    contact: {
      firstName: "Theo",
      lastName: "Marchetti",
      jobTitle: "Buyer",
      celphone: "+1-802-555-0190",
    },
    status: "active",
    payout: true,
    brands: [3, 0, 1],
    listings: 3,
    requests: 2,
  },
];

/**
 * The n-th demo variation's barcode (in the order they are made, from 0): a UPC-A of a made-up company prefix
 * with its check digit, so a demo stock file may name a variation by it.
 */
export function demoBarcode(n: number): string {
  const body = `08412${String(n).padStart(6, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

export const demoRetailerEmail = (n: number) => `retailer${n}@demo.test`;

// The choice lists of the business rules ("other" needs free text, so the demo avoids it).
const LISTING_REASON_VALUES = valuesOf(LISTING_REASONS).filter((v) => v !== "other");
const REQUEST_REASON_VALUES = valuesOf(REQUEST_REASONS).filter((v) => v !== "other");
const FLOOR_TIME_VALUES: (string | null)[] = [null, ...valuesOf(FLOOR_TIMES)];

/** Deterministic pseudo-random numbers (mulberry32) so the demo is the same on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedSummary {
  seeded: boolean;
  brands: number;
  products: number;
  variations: number;
  retailers: number;
  listings: number;
  requests: number;
}

export async function seedDemo(
  db: Db,
  opts: { log?: (msg: string) => void } = {},
): Promise<SeedSummary> {
  const log = opts.log ?? (() => {});
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(seedRuns)
      .values({ name: DEMO_SEED_NAME })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) {
      log("demo data already seeded");
      return {
        seeded: false,
        brands: 0,
        products: 0,
        variations: 0,
        retailers: 0,
        listings: 0,
        requests: 0,
      };
    }
    const summary = await buildDemo(tx, passwordHash);
    await tx
      .update(seedRuns)
      .set({ detail: summary.listings })
      .where(sql`${seedRuns.name} = ${DEMO_SEED_NAME}`);
    log(
      `demo data seeded: ${summary.brands} brands, ${summary.products} products, ${summary.variations} variations, ` +
        `${summary.retailers} retailers, ${summary.listings} listings, ${summary.requests} requests`,
    );
    return summary;
  });
}

async function buildDemo(tx: Tx, passwordHash: string): Promise<SeedSummary> {
  const random = rng(20250601);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

  // Catalogue.
  const brandVariations: { brandId: number; sizeRun: SizeRun; variations: CreatedVariation[] }[] =
    [];
  let productCount = 0;
  let barcodes = 0;
  for (const spec of DEMO_BRANDS) {
    const { company, ...rest } = spec;
    const brand = await createBrand(tx, {
      name: rest.name,
      displayName: rest.name,
      businessModel: rest.businessModel,
      segments: rest.segments,
      priceTier: rest.priceTier,
      company: { ...company, jobTitle: "Wholesale Manager", country: "US" },
    });
    const cols = [];
    for (const c of spec.collections)
      cols.push(await createCollection(tx, { brandId: brand.id, year: c.year, name: c.name }));
    const variations: CreatedVariation[] = [];
    for (const [sku, name, price, colors, colIdx] of spec.products) {
      const p: CreatedProduct = await createProduct(tx, {
        collectionId: cols[colIdx].id,
        brandId: brand.id,
        sku,
        displayName: name,
        description: `${name} from ${spec.name}'s ${spec.collections[colIdx].year} ${spec.collections[colIdx].name} collection.`,
        priceCents: price,
        sizes: SIZE_RUNS[spec.sizeRun],
        colors,
        variationBarcodes: (i) => [demoBarcode(barcodes + i)],
      });
      barcodes += colors.length;
      productCount += 1;
      variations.push(...p.variations);
    }
    brandVariations.push({ brandId: brand.id, sizeRun: spec.sizeRun, variations });
  }

  // Every entry of the permissions map, the staff-users right included (docs/product/screens.md, "Staff users").
  await createStaffUser(tx, {
    email: DEMO_STAFF_EMAIL,
    passwordHash,
    permissions: [...PERMISSION_NAMES],
  });

  // Retailers.
  const created: { spec: RetailerSpec; id: number }[] = [];
  for (const spec of DEMO_RETAILERS) {
    const email = demoRetailerEmail(spec.n);
    const { retailer } = await createRetailer(tx, {
      status: spec.status,
      payout: spec.payout,
      btMerchantId: spec.payout ? `acct_sandbox_demo${String(spec.n).padStart(4, "0")}` : undefined,
      storeName: spec.storeName,
      businessName: `${spec.storeName.replace(/[.&]/g, "").replace(/\s+/g, " ").trim()} LLC`,
      storeEmail: `info@${spec.storeName.toLowerCase().replace(/[^a-z]+/g, "")}.example`,
      storePhone: spec.phone,
      address1: spec.address1,
      city: spec.city,
      state: spec.state,
      postalCode: spec.postalCode,
      latitude: spec.latitude,
      longitude: spec.longitude,
      resaleNumber: resaleNumber(4_812_000_000_000 + spec.n * 104_729),
      segments: ["independent"],
      priceTier: "mid",
      setupCompleted: true,
      contact: {
        firstName: spec.contact.firstName,
        lastName: spec.contact.lastName,
        jobTitle: spec.contact.jobTitle,
        email,
        phone: spec.phone,
        celphone: spec.contact.celphone,
      },
      user: { email, passwordHash },
    });
    created.push({ spec, id: retailer.id });
    for (const b of spec.brands) await authorizeBrand(tx, retailer.id, brandVariations[b].brandId);
  }

  // Brand requests: the pending retailer asked for a known brand and for one we do not carry yet.
  const pending = created.find((c) => c.spec.status === "pending")!;
  await createBrandRequest(tx, {
    retailerId: pending.id,
    brandName: "Copperfield Footwear",
    brandId: brandVariations[1].brandId,
    brandPurchaseAmountCents: 4_500_000,
    yourInterestInThisBrand: ["buy", "sell"],
    brandContactEmail: "orders@copperfield.example",
    brandContactName: "Marcus Ellery",
  });
  await createBrandRequest(tx, {
    retailerId: pending.id,
    brandName: "Wildflower Apparel",
    brandPurchaseAmountCents: 1_200_000,
    yourInterestInThisBrand: ["buy", "swap"],
    brandContactEmail: "",
    brandContactName: "",
  });
  const lakeshore = created.find((c) => c.spec.n === 3)!;
  await createBrandRequest(tx, {
    retailerId: lakeshore.id,
    brandName: "Saltmarsh Surf Supply",
    brandId: brandVariations[3].brandId,
    brandPurchaseAmountCents: 800_000,
    yourInterestInThisBrand: ["buy"],
  });

  // Listings and requests: each retailer lists and requests styles of its own brands, never the same
  // variation twice, and never requests what it lists itself.
  const now = Date.now();
  let listingCount = 0;
  let requestCount = 0;
  let k = 0;
  for (const { spec, id } of created) {
    const used = new Set<number>();
    const pool = spec.brands.flatMap((b) =>
      brandVariations[b].variations.map((v) => ({ v, run: brandVariations[b].sizeRun })),
    );
    const choose = () => {
      for (let tries = 0; tries < 50; tries++) {
        const c = pick(pool);
        if (!used.has(c.v.id)) {
          used.add(c.v.id);
          return c;
        }
      }
      throw new Error("seed: ran out of variations");
    };
    const sizesFor = (run: SizeRun, max: number) => {
      const labels = SIZE_RUNS[run];
      const start = Math.floor(random() * Math.max(1, labels.length - 3));
      const count = 2 + Math.floor(random() * 3);
      const sizes: Record<string, number> = {};
      for (const label of labels.slice(start, start + count))
        sizes[label] = 1 + Math.floor(random() * max);
      return sizes;
    };
    for (let i = 0; i < spec.listings; i++) {
      const { v, run } = choose();
      k += 1;
      await createListing(tx, {
        variationId: v.id,
        providerId: id,
        sizes: sizesFor(run, 6),
        listingType: k % 4 === 0 ? "swap" : "sell",
        reason: pick(LISTING_REASON_VALUES),
        floorTime: pick(FLOOR_TIME_VALUES),
        terms: true,
        createdAt: new Date(now - (k * 17 + 3) * 3600_000),
      });
      listingCount += 1;
    }
    for (let i = 0; i < spec.requests; i++) {
      const { v, run } = choose();
      k += 1;
      await createRequest(tx, {
        variationId: v.id,
        requestorId: id,
        sizes: sizesFor(run, 3),
        reason: pick(REQUEST_REASON_VALUES),
        createdAt: new Date(now - (k * 13 + 5) * 3600_000),
      });
      requestCount += 1;
    }
  }

  // Validation tools (docs/product/screens.md, "Staff: validation tools"): categories to choose from (every seeded product is still
  // uncategorised), and an external brand, typed by a retailer and not yet valid, with a listing.
  await tx
    .insert(categories)
    .values(
      ["Jackets", "Tees", "Pants", "Shorts", "Footwear", "Boots", "Denim", "Accessories"].map(
        (name) => ({ name }),
      ),
    );
  const external = await createBrand(tx, {
    name: "Ridgeline Outfitters (typed)",
    businessModel: "",
    segments: [],
  });
  await tx
    .update(brands)
    .set({ isValid: false })
    .where(sql`${brands.id} = ${external.id}`);
  const extCols = [
    await createCollection(tx, { brandId: external.id, year: 2025, name: "Imported" }),
    await createCollection(tx, { brandId: external.id, year: 2026, name: "Imported" }),
  ];
  const extVariations: CreatedVariation[] = [];
  for (let i = 0; i < 4; i++) {
    const p = await createProduct(tx, {
      collectionId: extCols[i % 2].id,
      brandId: external.id,
      sku: `RDG-${100 + i}`,
      displayName: `Ridgeline Style ${i + 1}`,
      priceCents: 3000 + i * 500,
      sizes: SIZE_RUNS.apparel,
      colors: 2,
    });
    extVariations.push(...p.variations);
  }
  // Unresolved catalogue entries: products as a retailer's source spelled them (validation stage "products").
  const known = await tx
    .select({
      name: products.displayName,
      description: products.description,
      priceCents: products.priceCents,
      brand: brands.name,
    })
    .from(products)
    .innerJoin(brands, sql`${brands.id} = ${products.brandId}`)
    .where(sql`${brands.isValid}`)
    .orderBy(products.id)
    .limit(3);
  await tx.insert(catalogueEntries).values(
    known.map((k, i) => ({
      retailerId: created[i % created.length].id,
      brandName: k.brand.toLowerCase(),
      name: `${k.name.slice(0, -1)} (${["new", "restock", "2025"][i]})`,
      description: k.description.slice(0, 40),
      priceCents: k.priceCents + 100 * i,
    })),
  );
  await authorizeBrand(tx, created[0].id, external.id);
  await createListing(tx, {
    variationId: extVariations[0].id,
    providerId: created[0].id,
    sizes: { M: 2, L: 1 },
    listingType: "sell",
    reason: pick(LISTING_REASON_VALUES),
    floorTime: pick(FLOOR_TIME_VALUES),
    terms: true,
  });
  listingCount += 1;

  return {
    seeded: true,
    brands: DEMO_BRANDS.length,
    products: productCount,
    variations: brandVariations.reduce((a, b) => a + b.variations.length, 0),
    retailers: created.length,
    listings: listingCount,
    requests: requestCount,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { parseEnv } = await import("../domain/env");
  const { createDb } = await import("./client");
  const handle = createDb(
    parseEnv(process.env, (file) => readFileSync(file, "utf8")).DATABASE_URL,
    { max: 2 },
  );
  try {
    await seedDemo(handle.db, { log: (m) => console.log(m) });
  } catch (err) {
    console.error("seed failed:", err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}
