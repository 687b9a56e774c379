/**
 * What the demo year trades (ADR 0063): listings put up month by month (through the listing wizard's save, or a
 * month's lines of a seller's stock file; some sell listings with a markdown schedule), requests for styles
 * others list, purchases from the listings spread over the weeks (some rated, some talked over in the order's
 * messages, a few returned by RMA), and swaps. Drawn from a seeded generator, so every machine plays the same
 * year. Days count from the year's first instant.
 */
import { SIZE_RUNS } from "../../tests/factories";
import { DEMO_BRANDS, DEMO_RETAILERS, rng } from "../../db/seed";

export interface DemoYearScale {
  /** Purchases over the year (each from a listing of a retailer the buyer shares a brand with). */
  purchases: number;
  /** Swaps over the year. */
  swaps: number;
  /** One purchase in `rmaEvery` is returned in part (an RMA). */
  rmaEvery: number;
  /** Days the year spans (the first trades start on day 3). */
  days: number;
}

export const FULL_YEAR: DemoYearScale = { purchases: 110, swaps: 8, rmaEvery: 11, days: 360 };

export interface PlannedListing {
  key: number;
  day: number;
  /** Demo retailer number (DEMO_RETAILERS n). */
  seller: number;
  brand: number;
  /** Index of the variation among its brand's, in the seed's order. */
  variation: number;
  sizes: Record<string, number>;
  type: "sell" | "swap";
  /** Saved by the listing wizard, or a line of the seller's stock file of the month (one file per seller and day). */
  via: "wizard" | "import";
  /** A sell listing's markdown schedule, set with it (docs/product/markdowns.md, "Where a seller sets it"). */
  markdown: PlannedMarkdown | null;
}

/** Percent of the catalogue price off every `everyDays` days, down to `floorPercent` of it. */
export interface PlannedMarkdown {
  stepPercent: number;
  everyDays: number;
  floorPercent: number;
}

/** A request (the wizard's "request" path) for the style of a listing another retailer put up (`listing`). */
export interface PlannedRequest {
  day: number;
  requestor: number;
  listing: number;
  sizes: Record<string, number>;
}

export interface PlannedPurchase {
  day: number;
  buyer: number;
  listing: number;
  sizes: Record<string, number>;
  /** Stars the buyer gives, or null when it does not rate. */
  overall: number | null;
  message: boolean;
  rma: boolean;
}

export interface PlannedSwap {
  day: number;
  /** The retailer whose swap listing is taken (provider) and the one asking (receiver), with its own listing. */
  listing: number;
  receiver: number;
  receiverListing: number;
  sizes: Record<string, number>;
  receiverSizes: Record<string, number>;
}

export interface DemoYearPlan {
  listings: PlannedListing[];
  requests: PlannedRequest[];
  purchases: PlannedPurchase[];
  swaps: PlannedSwap[];
}

/** Variations per brand, in the seed's order (its products' colours, product by product). */
function variationsOf(brand: number): number {
  return DEMO_BRANDS[brand].products.reduce((n, p) => n + p[3].length, 0);
}

/** Takes up to `max` units of what is left of `left` (a size or two); the sizes taken. */
function takeUnits(
  left: Record<string, number>,
  max: number,
  random: () => number,
): Record<string, number> {
  const sizes = Object.keys(left).filter((s) => left[s] > 0);
  const out: Record<string, number> = {};
  let want = 1 + Math.floor(random() * max);
  for (const s of sizes.sort(() => random() - 0.5)) {
    if (want === 0) break;
    const n = Math.min(left[s], want, 1 + Math.floor(random() * 2));
    out[s] = n;
    left[s] -= n;
    want -= n;
  }
  return out;
}

export function planDemoYear(scale: DemoYearScale, seed = 20250602): DemoYearPlan {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const active = DEMO_RETAILERS.filter((r) => r.status === "active");
  const sellers = active.filter((r) => r.payout);
  const months = Math.max(1, Math.round(scale.days / 30));

  // Listings: every seller lists a few styles of its brands each month, larger runs than the seed's.
  const listings: PlannedListing[] = [];
  const left = new Map<number, Record<string, number>>();
  const perMonth = Math.max(1, Math.ceil((scale.purchases * 1.3 + scale.swaps) / 9 / months));
  for (let m = 0; m < months; m++)
    for (const [si, s] of sellers.entries()) {
      // One month in three a seller sends its month's stock as a file (/stock-import), on one day.
      const via = (m + si) % 3 === 0 ? "import" : "wizard";
      const fileDay = m * 30 + 1 + Math.floor(random() * 3);
      for (let i = 0; i < Math.ceil(perMonth / sellers.length) + 1; i++) {
        const brand = pick(s.brands);
        const run = SIZE_RUNS[DEMO_BRANDS[brand].sizeRun];
        const start = Math.floor(random() * Math.max(1, run.length - 3));
        const sizes: Record<string, number> = {};
        for (const label of run.slice(start, start + 3))
          sizes[label] = 3 + Math.floor(random() * 4);
        const key = listings.length;
        const type = key % 7 === 6 ? "swap" : "sell";
        listings.push({
          key,
          day: via === "import" ? fileDay : m * 30 + 1 + Math.floor(random() * 3),
          seller: s.n,
          brand,
          variation: Math.floor(random() * variationsOf(brand)),
          sizes,
          type,
          via,
          markdown:
            type === "sell" && key % 3 === 1
              ? // Gentle enough that the schedules set in the last five months or so are still stepping at the
                // year's end (a buyer sees "next price"), the older ones at their floor.
                { stepPercent: 5, everyDays: key % 4 === 1 ? 14 : 21, floorPercent: 60 }
              : null,
        });
        left.set(key, { ...sizes });
      }
    }

  // Requests: now and then a retailer asks for a style another one lists (the wizard's request; a match at once).
  const requests: PlannedRequest[] = [];
  for (let m = 0; m < months; m++) {
    const day = m * 30 + 8 + Math.floor(random() * 10);
    const requestor = pick(active);
    const carries = new Set(requestor.brands);
    const options = listings.filter(
      (l) => l.day <= day - 2 && l.seller !== requestor.n && carries.has(l.brand),
    );
    if (options.length === 0) continue;
    const l = pick(options);
    const sizes = Object.fromEntries(
      Object.keys(l.sizes)
        .slice(0, 2)
        .map((k) => [k, 2]),
    );
    requests.push({ day, requestor: requestor.n, listing: l.key, sizes });
  }

  // A listing a retailer may take on `day`: listed two days before or more, of a brand it carries, not its own,
  // of the type asked, with units left, and never the same listing twice by the same retailer.
  const taken = new Set<string>();
  const candidates = (day: number, n: number, type: "sell" | "swap") => {
    const carries = new Set(active.find((r) => r.n === n)!.brands);
    return listings.filter(
      (l) =>
        l.type === type &&
        l.day <= day - 2 &&
        l.seller !== n &&
        carries.has(l.brand) &&
        !taken.has(`${n}:${l.key}`) &&
        Object.values(left.get(l.key)!).some((u) => u > 0),
    );
  };

  const purchases: PlannedPurchase[] = [];
  for (let i = 0; i < scale.purchases; i++) {
    // A week's purchases start the same day: their steps then fall in the same slots of the clock's grid.
    const day = 3 + 7 * Math.floor((i * Math.floor((scale.days - 8) / 7)) / scale.purchases);
    for (let tries = 0; tries < 20; tries++) {
      const buyer = pick(active).n;
      const options = candidates(day, buyer, "sell");
      if (options.length === 0) continue;
      // Older listings first, as a market drains them: the days to sell vary from days to months.
      const l = options[Math.floor(random() * random() * options.length)];
      taken.add(`${buyer}:${l.key}`);
      purchases.push({
        day,
        buyer,
        listing: l.key,
        sizes: takeUnits(left.get(l.key)!, 3, random),
        overall: random() < 0.75 ? 3 + Math.floor(random() * 3) : null,
        message: random() < 0.25,
        rma: (i + 1) % scale.rmaEvery === 0,
      });
      break;
    }
  }

  // Swaps: a receiver with a payout account and a listing of its own (its side of the swap).
  const swaps: PlannedSwap[] = [];
  for (let i = 0; i < scale.swaps; i++) {
    const day = 10 + Math.floor(((i + random()) * (scale.days - 20)) / scale.swaps);
    for (let tries = 0; tries < 20; tries++) {
      const receiver = pick(sellers).n;
      const options = candidates(day, receiver, "swap");
      const own = listings.filter(
        (l) =>
          l.seller === receiver &&
          l.day <= day - 2 &&
          Object.values(left.get(l.key)!).some((u) => u > 0),
      );
      if (options.length === 0 || own.length === 0) continue;
      const l = pick(options);
      const mine = pick(own);
      taken.add(`${receiver}:${l.key}`);
      swaps.push({
        day,
        listing: l.key,
        receiver,
        receiverListing: mine.key,
        sizes: takeUnits(left.get(l.key)!, 2, random),
        receiverSizes: takeUnits(left.get(mine.key)!, 2, random),
      });
      break;
    }
  }
  return { listings, requests, purchases, swaps };
}
