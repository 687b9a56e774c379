// The run's data (the header of scripts/bench-orders.mjs, step 1): in the stack's database, with the shared
// factories, one brand and product, a staff login and per transaction an independent seller/buyer pair with a
// listing; then everyone signed in over HTTP and the sellers' cards (--offers: the offering buyers' too) on file
// through /settings/card. --offers' "approval" pairs: the buyer is a member of its store with a limit per order
// below the purchase, and an approver of that store signs in too.
import { fill, findForm } from "../lib/html-forms.mjs";
import { info } from "../lib/log.mjs";
import { mixTurn } from "./mix.mjs";
import { BENCH_BUY_LIMIT_CENTS, OFFER_KINDS } from "./offers.mjs";
import { TEST_CARD, now } from "./page-text.mjs";

/** The pairs, each with a listing (a swap: the seller is its provider, the buyer its receiver; both give goods). */
async function createPairs(o, F, db, tag, brand, variationId) {
  const pairs = [];
  for (let i = 1; i <= o.orders + o.warmup; i++) {
    const seller = await F.createRetailer(db, {
      payout: true,
      storeName: `Bench Seller ${tag}-${i}`,
      user: { email: `bench-orders-${tag}-seller${i}@bench.test` },
    });
    const buyer = await F.createRetailer(db, {
      payout: true,
      storeName: `Bench Buyer ${tag}-${i}`,
      user: { email: `bench-orders-${tag}-buyer${i}@bench.test` },
    });
    await F.authorizeBrand(db, seller.retailer.id, brand.id);
    await F.authorizeBrand(db, buyer.retailer.id, brand.id);
    const turn = mixTurn(i);
    const kind = o.mix
      ? turn.kind
      : o.offers
        ? OFFER_KINDS[(i - 1) % OFFER_KINDS.length]
        : o.swaps
          ? "swap"
          : "buy";
    const swap = kind === "swap";
    const listing = await F.createListing(db, {
      variationId,
      providerId: seller.retailer.id,
      sizes: { S: 2, M: 2 },
      ...(swap ? { listingType: "swap" } : {}),
    });
    const buyerListing = swap
      ? await F.createListing(db, {
          variationId,
          providerId: buyer.retailer.id,
          sizes: { L: 2 },
          listingType: "swap",
        })
      : null;
    // A purchase over its buyer's limit: a limited buyer of the buyer's store places it, an approver approves it.
    const team =
      kind === "approval"
        ? {
            buyer: await F.createUser(db, {
              email: `bench-orders-${tag}-limited${i}@bench.test`,
              retailerId: buyer.retailer.id,
              storeRoles: ["buyer"],
              buyLimitOrderCents: BENCH_BUY_LIMIT_CENTS,
            }),
            approver: await F.createUser(db, {
              email: `bench-orders-${tag}-approver${i}@bench.test`,
              retailerId: buyer.retailer.id,
              storeRoles: ["approver"],
            }),
          }
        : null;
    pairs.push({
      i,
      kind,
      rmaReason: turn.rmaReason,
      seller: { r: seller.retailer, email: seller.user.email },
      buyer: { r: buyer.retailer, email: (team?.buyer ?? buyer.user).email },
      approver: team ? { email: team.approver.email } : null,
      listingId: listing.id,
      buyerListingId: buyerListing?.id ?? null,
    });
  }
  return pairs;
}

/** `fn` over `items`, `n` at a time. */
async function limit(items, n, fn) {
  const q = [...items];
  await Promise.all(
    Array.from({ length: Math.min(n, q.length) }, async () => {
      while (q.length) await fn(q.shift());
    }),
  );
}

/**
 * Both of a pair signed in; the seller's card on file through the page's form (the card workflow), and the
 * buyer's too when it makes an offer (an offer holds the card on file).
 */
async function signInPair(o, HttpClient, F, p) {
  p.buyer.http = new HttpClient(o.baseUrl);
  p.seller.http = new HttpClient(o.baseUrl);
  await p.buyer.http.signIn(p.buyer.email, F.DEFAULT_TEST_PASSWORD);
  await p.seller.http.signIn(p.seller.email, F.DEFAULT_TEST_PASSWORD);
  await cardOnFile(p.seller.http, `seller ${p.i}`);
  if (p.kind === "offer") await cardOnFile(p.buyer.http, `buyer ${p.i}`);
  if (p.approver) {
    p.approver.http = new HttpClient(o.baseUrl);
    await p.approver.http.signIn(p.approver.email, F.DEFAULT_TEST_PASSWORD);
  }
}

/** The test card saved through /settings/card's form. */
async function cardOnFile(http, who) {
  const page = await http.get("/settings/card");
  const form = findForm(page.body, { testId: "card-form" });
  if (!form) throw new Error(`${who}: no card form on /settings/card (${page.status})`);
  const r = await http.postForm(form.action || "/settings/card", fill(form, TEST_CARD));
  const landed = r.location ? await http.get(r.location, { follow: true }) : r;
  if (!landed.body.includes('data-testid="card-on-file"'))
    throw new Error(
      `${who}: the card was not saved (${r.status} ${landed.body.match(/data-testid="card-error"[^>]*>([^<]*)/)?.[1] ?? ""})`,
    );
}

/**
 * The bench's state for the run: options, database, factories, the staff's and the pairs' clients, and what
 * the run collects (samples per step, page views, results per transaction, --commands-only's templates).
 */
export async function setUp(o, tag) {
  const { HttpClient } = await import("../../tests/e2e/http.ts");
  const { createDb } = await import("../../db/client.ts");
  const F = await import("../../tests/factories/index.ts");
  const dbh = createDb(o.databaseUrl, { max: o.commandsOnly ? 8 : 4 });
  const tSetup = now();
  const brand = await F.createBrand(dbh.db, { name: `Bench Orders ${tag}` });
  const coll = await F.createCollection(dbh.db, { brandId: brand.id, name: "Bench" });
  const product = await F.createProduct(dbh.db, {
    collectionId: coll.id,
    sizes: F.SIZE_RUNS.apparel,
    colors: 1,
    priceCents: 4200,
  });
  const staffEmail = `bench-orders-${tag}-staff@bench.test`;
  await F.createStaffUser(dbh.db, { email: staffEmail });
  const pairs = await createPairs(o, F, dbh.db, tag, brand, product.variations[0].id);
  const total = pairs.length;
  info(
    `${total} seller/buyer pairs, brand ${brand.id} "${brand.name}", listings ${pairs[0].listingId}…${pairs.at(-1).listingId} (${Math.round(now() - tSetup)} ms)`,
  );

  // Sign in everyone (a few at a time: argon2 on the server) and put the sellers' cards on file.
  const staff = new HttpClient(o.baseUrl);
  await staff.signIn(staffEmail, F.DEFAULT_TEST_PASSWORD);
  await limit(pairs, 4, (p) => signInPair(o, HttpClient, F, p));
  info(
    `signed in ${2 * total + 1} users, ${total} cards on file (${Math.round(now() - tSetup)} ms in all)`,
  );
  return {
    o,
    dbh,
    staff,
    pairs,
    samples: [],
    views: [],
    results: [],
    templates: null,
    load: { inFlight: 0, maxInFlight: 0 },
  };
}
