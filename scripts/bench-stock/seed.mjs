// The data set of npm run bench:stock (scripts/bench-stock.mjs), in bulk SQL (seconds, not minutes): a catalogue
// of 40 brands (products of three size runs, four colours each, a UPC per variation), retailers each authorized
// for 8 brands, listings, open requests and saved searches spread over them, and the file of a stock import.
// Everything is scaled by `scale` (1 = the issue's 200,000 listings and 50,000 open requests).

/** The size runs of the catalogue: a product's run is its id mod 3. */
export const RUNS = [
  ["XS", "S", "M", "L", "XL"],
  ["6", "6.5", "7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "11.5", "12"],
  ["26", "27", "28", "29", "30", "31", "32", "33", "34", "36"],
];
const COLORS = [
  ["Black", "BLK"],
  ["Navy", "NAV"],
  ["Olive", "OLV"],
  ["Rust", "RST"],
];
const BRANDS = 40;
const PER_RETAILER = 8;
const CATEGORIES = 8;

/** How many of each at a scale; the retailers a multiple of the brands (each brand has as many authorized). */
export function countsAt(scale) {
  return {
    brands: BRANDS,
    brandsPerRetailer: PER_RETAILER,
    products: Math.max(300, Math.round(5_000 * scale)),
    retailers: Math.max(2 * BRANDS, Math.round((2_000 * scale) / BRANDS) * BRANDS),
    listings: Math.max(200, Math.round(200_000 * scale)),
    requests: Math.max(50, Math.round(50_000 * scale)),
    savedSearches: Math.max(20, Math.round(10_000 * scale)),
    importRows: Math.max(100, Math.round(5_000 * scale)),
  };
}

const runSql = (productId) =>
  `(case ${productId} % 3 ${RUNS.map((r, i) => `when ${i} then array[${r.map((l) => `'${l}'`).join(",")}]`).join(" ")} end)`;

/**
 * A retailer authorized for brand ordinal `bi` (retailer ordinal o is authorized for brands (o + k) mod 40,
 * k < 8): k = g mod 8, then one of the R/40 retailers of that residue, picked by `hash`.
 */
const authorizedOrdinal = (bi, g, hash, c) =>
  `(((${bi} - ${g} % ${PER_RETAILER} + ${BRANDS}) % ${BRANDS}) + ${BRANDS} * ((${hash}) % ${c.retailers / BRANDS}))`;

/** The catalogue, the retailers and their authorizations. Returns the brands' and retailers' ids in order. */
export async function seedCatalogue(sql, c) {
  const brandIds = (
    await sql.unsafe(`insert into brands (name, display_name)
      select 'Bench Brand ' || lpad(g::text, 2, '0'), 'Bench Brand ' || lpad(g::text, 2, '0') from generate_series(0, ${BRANDS - 1}) g
      returning id`)
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const cats = (
    await sql.unsafe(
      `insert into categories (name) select 'Bench category ' || g from generate_series(1, ${CATEGORIES}) g returning id`,
    )
  ).map((r) => r.id);
  const brands = `(array[${brandIds.join(",")}])`;
  await sql.unsafe(
    `insert into collections (brand_id, year, name) select unnest(${brands}), 2026, 'Bench'`,
  );
  // Product g of brand ordinal g mod 40: code BS<brand>-<g>, price a whole number of dollars.
  await sql.unsafe(`
    insert into products (collection_id, brand_id, category_id, sku, display_name, price_cents)
    select c.id, c.brand_id, (array[${cats.join(",")}])[1 + g % ${CATEGORIES}],
      'BS' || lpad((g % ${BRANDS})::text, 2, '0') || '-' || lpad(g::text, 5, '0'), 'Bench style ' || g, 100 * (10 + (g * 7919) % 190)
    from generate_series(1, ${c.products}) g join collections c on c.brand_id = ${brands}[1 + g % ${BRANDS}]`);
  await sql.unsafe(`
    insert into product_sizes (product_id, label, position)
    select p.id, s.label, s.pos - 1 from products p cross join lateral unnest(${runSql("p.id")}) with ordinality s(label, pos)`);
  await sql.unsafe(`
    insert into product_variations (product_id, brand_id, sku, color, price_cents, barcodes)
    select p.id, p.brand_id, p.sku || '-' || c.code, c.name, p.price_cents,
      array[lpad((p.id * 10 + c.n)::text, 12, '0')]
    from products p cross join (values ${COLORS.map(([name, code], n) => `('${name}', '${code}', ${n})`).join(", ")}) c(name, code, n)`);
  // Every 20th retailer has no payout (its listings stay hidden), every 50th is inactive.
  const retailerIds = (
    await sql.unsafe(`insert into retailers (store_name, store_email, status, bt_merchant_id, setup_completed_at)
      select 'Bench Store ' || g, 'bench-store-' || g || '@bench.test',
        (case when g % 50 = 49 then 'inactive' else 'active' end)::retailer_status,
        case when g % 20 = 19 then null else 'acct_bench_' || g end, now()
      from generate_series(0, ${c.retailers - 1}) g returning id`)
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
  await sql.unsafe(`
    insert into retailer_brands (retailer_id, brand_id)
    select (array[${retailerIds.join(",")}])[1 + o], ${brands}[1 + (o + k) % ${BRANDS}]
    from generate_series(0, ${c.retailers - 1}) o cross join generate_series(0, ${PER_RETAILER - 1}) k`);
  return { brandIds, retailerIds, categoryIds: cats };
}

/** The variations with their brand's ordinal and their product's run, numbered from 0 (for the SQL below). */
const variationsCte = (
  brandIds,
) => `v as (select v.id, v.brand_id, array_position(array[${brandIds.join(",")}], v.brand_id) - 1 as bi,
      ${runSql("v.product_id")} as run, row_number() over (order by v.id) - 1 as n from product_variations v)`;
const retailersCte = (retailerIds) =>
  `r as (select id, bt_merchant_id, row_number() over (order by id) - 1 as o from retailers where id = any(array[${retailerIds.join(",")}]))`;

/**
 * The marketplace: listings (provider authorized for the brand; 1 in 10 sold out, 1 in 4 a swap, up to 400
 * days old; one to three sizes of the run), open requests (requestor authorized; one or two sizes; plus 1 in
 * 20 closed) and saved searches (a brand of the retailer; half with a category, half with a size, a third
 * with a colour text).
 */
export async function seedMarketplace(sql, c, ids) {
  const [{ n: variations }] = await sql`select count(*)::int n from product_variations`;
  const sizesOf = (
    g,
    units,
  ) => `(select jsonb_object_agg(k, u) sz, sum(u)::int tot from (select distinct on (k) k, u from (values
      (v.run[1 + ${g} % cardinality(v.run)], ${units(0)}),
      (v.run[1 + (${g} / 3 + 1) % cardinality(v.run)], ${units(1)}),
      (v.run[1 + (${g} / 7 + 2) % cardinality(v.run)], ${units(2)})) x(k, u) where k is not null) y)`;
  await sql.unsafe(`
    with ${variationsCte(ids.brandIds)}, ${retailersCte(ids.retailerIds)},
    g as (select g, (g::bigint * 7577) % ${variations} as vn from generate_series(1, ${c.listings}) g)
    insert into listings (variation_id, brand_id, provider_id, listing_type, reason, sizes, total_units, status, terms, created_at, updated_at)
    select v.id, v.brand_id, r.id, (case when g.g % 4 = 0 then 'swap' else 'sell' end)::listing_type, 'overstock', s.sz, s.tot,
      (case when r.bt_merchant_id is null then 'payoutneeded' else 'active' end)::listing_status, true,
      now() - (g.g % 400) * interval '1 day' - (g.g % 1440) * interval '1 minute', now() - (g.g % 400) * interval '1 day'
    from g join v on v.n = g.vn join r on r.o = ${authorizedOrdinal("v.bi", "g.g", "g.g * 3571", c)}
    cross join lateral ${sizesOf("g.g", (j) => (j === 2 ? `case when g.g % 10 = 0 or g.g % 3 = 0 then 0 else 1 + g.g % 2 end` : `case when g.g % 10 = 0 then 0 else 1 + (g.g + ${j}) % 4 end`))} s`);
  const requests = c.requests + Math.round(c.requests / 20);
  await sql.unsafe(`
    with ${variationsCte(ids.brandIds)}, ${retailersCte(ids.retailerIds)},
    g as (select g, (g::bigint * 7591) % ${variations} as vn from generate_series(1, ${requests}) g)
    insert into listing_requests (variation_id, brand_id, requestor_id, reason, sizes, total_units, created_at, updated_at)
    select v.id, v.brand_id, r.id, 'sold_out', s.sz, s.tot, now() - (g.g % 300) * interval '1 day', now() - (g.g % 300) * interval '1 day'
    from g join v on v.n = g.vn join r on r.o = ${authorizedOrdinal("v.bi", "g.g", "g.g * 3559", c)}
    cross join lateral ${sizesOf("g.g", (j) => (j === 0 ? `case when g.g > ${c.requests} then 0 else 1 + g.g % 3 end` : j === 1 ? `case when g.g > ${c.requests} or g.g % 2 = 0 then 0 else 1 end` : "0"))} s`);
  await sql.unsafe(`
    with ${retailersCte(ids.retailerIds)}
    insert into saved_searches (retailer_id, brand_id, category_id, sizes, search)
    select r.id, (array[${ids.brandIds.join(",")}])[1 + (r.o + g % ${PER_RETAILER}) % ${BRANDS}],
      case when g % 2 = 0 then (array[${ids.categoryIds.join(",")}])[1 + g % ${CATEGORIES}] end,
      case g % 4 when 1 then array[(array[${RUNS[0].map((l) => `'${l}'`).join(",")}])[1 + g % 5]]
                 when 2 then array[(array[${RUNS[1].map((l) => `'${l}'`).join(",")}])[1 + g % 13]] else '{}'::text[] end,
      case when g % 3 = 0 then (array[${COLORS.map(([, code]) => `'-${code.toLowerCase()}'`).join(",")}])[1 + g % 4] else '' end
    from generate_series(1, ${c.savedSearches}) g join r on r.o = g % ${c.retailers}`);
}

/**
 * The catalogue a stock file is written from: active variations of these brands, in order, with their
 * product's code, UPC, price and size run.
 */
export async function importCatalogue(sql, brandIds) {
  const rows = await sql.unsafe(`
    select v.id, v.sku, p.sku as product_sku, v.barcodes[1] as upc, v.price_cents, v.brand_id,
      array(select label from product_sizes s where s.product_id = p.id order by s.position) as run
    from product_variations v join products p on p.id = v.product_id
    where v.brand_id = any(array[${brandIds.join(",")}]) order by v.id`);
  return rows.map((r) => ({
    id: r.id,
    sku: r.sku,
    productSku: r.product_sku,
    upc: r.upc,
    priceCents: r.price_cents,
    run: r.run,
  }));
}

const dollars = (cents) => (cents / 100).toFixed(2);

/**
 * A stock file of `n` lines over the catalogue `cat` (two to four sizes per variation, 1 in 7 at 0 units; 1 in
 * 25 variations by UPC; a price on a third, "swap" on a quarter) with, among them, lines a retailer gets wrong:
 * a product's code shared by its four colours (a guess to confirm), a mistyped code (guessed by likeness),
 * units that are not a number, a size the product does not have, a price that is not the catalogue's, and a
 * code of a brand the retailer is not authorized for (`foreign`, a variation's code). Also the variations
 * listed and their first size (for listings the retailer already has).
 */
export function stockFile(cat, n, foreign) {
  const header = ["product_code", "size", "units", "price", "listing_type", "reason"];
  const rows = [];
  const owners = [];
  const listed = [];
  for (let vi = 0; rows.length < n && vi < cat.length; vi++) {
    const v = cat[vi];
    const k = Math.min(v.run.length, 2 + (vi % 3));
    const from = vi % (v.run.length - k + 1);
    listed.push({ variationId: v.id, firstSize: v.run[from] });
    for (let j = 0; j < k && rows.length < n; j++) {
      rows.push([
        vi % 25 === 0 ? v.upc : v.sku,
        v.run[from + j],
        String((vi + j) % 7 === 0 ? 0 : 1 + ((vi * 3 + j) % 9)),
        vi % 3 === 0 ? dollars(v.priceCents) : "",
        vi % 4 === 0 ? "swap" : "sell",
        "",
      ]);
      owners.push(v);
    }
  }
  rows.forEach((r, i) => {
    const v = owners[i];
    if (i % 97 === 5) r[0] = v.productSku;
    else if (i % 211 === 7) r[0] = v.sku.replace(/-0/, "-");
    else if (i % 251 === 9) r[2] = "two";
    else if (i % 307 === 11) r[1] = "XXXL";
    else if (i % 401 === 13) r[3] = dollars(v.priceCents + 100);
    else if (i % 503 === 17) r[0] = foreign;
  });
  return { header, rows, listed };
}
