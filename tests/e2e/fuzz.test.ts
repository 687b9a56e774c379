// Fuzz: at least 1,000 malformed bodies, from a seeded generator, posted to every form route and to
// the photo upload endpoint, as an anonymous visitor, a signed-in retailer and staff: repeated fields, huge
// list indices, Conform's reserved `__intent__` / `__state__`, control characters, wrong types, oversized and
// truncated multipart, bodies that are not forms. Not one answer may be a 5xx or show a stack trace, and
// /signin must keep answering throughout.
//
// Each request has its own connection (`Connection: close`), so every answer is checked on its own (the
// server drops a request body it never read itself: workers/web.mjs, tested in form-limits.test.ts). Set FUZZ_SEED to replay another run (the seed is in the test name).
//
// Sign-in throttle: no generated value is an e-mail address (no "@"), so no sign-in, register or reset
// attempt is ever valid enough to be counted.
import http from "node:http";
import { createFormFixtures, STORE_FIELDS, type FormFixtures } from "./form-fixtures";
import { appOrigin, baseUrl, htmlDecode, leakedTrace } from "./http";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const BODIES_PER_ROUTE_AND_USER = 12;
const CONCURRENCY = 4;

let fx: FormFixtures;

beforeAll(async () => {
  fx = await createFormFixtures("fuzz");
});

afterAll(async () => {
  await fx?.dbh.close();
});

// ---------------------------------------------------------------------------------------------------------
// A small deterministic generator (mulberry32).

function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

/** The field names of the app's forms (and a few that are not). */
const NAMES = [
  "email",
  "password",
  "confirm",
  "new_password",
  "next",
  "intent",
  "step",
  "user",
  "id",
  "retailerId",
  "banner",
  "redirectTo",
  ...STORE_FIELDS,
  "first_name",
  "last_name",
  "job_title",
  "job_title_other",
  "phone",
  "celphone",
  "brand_ids",
  "brand_name",
  "brand_purchase_amount",
  "your_interest_in_this_brand",
  "brand_contact_email",
  "brand_contact_name",
  "requests[0].brand_name",
  "requests[1].your_interest_in_this_brand",
  "variation",
  "listingType",
  "reason",
  "provider",
  "requestor",
  "sizes[0]",
  "sizes[4]",
  "terms",
  "remove",
  "photos",
  "modified_reason",
  "listing_type",
  "pendingok",
  "quantity",
  "listingId",
  "units.1.S",
  "floor_time",
  "condition",
  "packaging",
  "timeliness",
  "overall",
  "comments",
  "date_of_birth",
  "street_address",
  "locality",
  "region",
  "account_number",
  "routing_number",
  "tos_accepted",
  "bustax_id",
  "submission_id",
  "card_number",
  "card_expiry",
  "card_cvc",
  "payment_method",
  "tracking_code",
  "q",
  "stage",
  "__proto__",
  "constructor.prototype",
  "a[",
  "a]]",
  "x..y",
  "",
  "toString",
] as const;
const LISTS = [
  "sizes",
  "brand_ids",
  "requests",
  "your_interest_in_this_brand",
  "requests[0].your_interest_in_this_brand",
  "photos",
  "units",
];
const CONTROL = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u000b",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009f",
  "\u2028",
  "\r\n",
  "\t",
];
const VALUES = [
  "",
  " ",
  "0",
  "-1",
  "1.5",
  "1e309",
  "NaN",
  "Infinity",
  "99999999999",
  "9".repeat(400),
  "on",
  "off",
  "true",
  "null",
  "[]",
  "{}",
  "delete",
  "save",
  "act",
  "activate",
  "deny",
  "upload",
  "continue",
  "buy",
  "sell",
  "swap",
  "Other",
  "Owner",
  "overstock",
  "NY",
  "12345",
  "x".repeat(5000),
  "ünïcödé 🛹",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%",
  "%zz",
  "%00",
  "\ud800",
  "a%40b",
  "/\\evil.example",
] as const;

function value(g: Rng): string {
  const v = g.pick(VALUES);
  return g.int(4) === 0 ? v + g.pick(CONTROL) + v : v;
}

function enc(s: string): string {
  // encodeURIComponent refuses a lone surrogate: it is sent as its (invalid) UTF-8 bytes instead
  return encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"),
  ).replace(/%EF%BF%BD/g, "%ED%A0%80");
}

type Body = { kind: string; body: string | Uint8Array; type: string | null };

const U = "application/x-www-form-urlencoded";

function fields(g: Rng, n: number): [string, string][] {
  return Array.from({ length: n }, () => [g.pick(NAMES), value(g)] as [string, string]);
}
function urlencode(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
}
function multipart(pairs: [string, string, string?][], boundary: string): string {
  return (
    pairs
      .map(
        ([k, v, file]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${k}"${file ? `; filename="${file}"\r\nContent-Type: image/png` : ""}\r\n\r\n${v}\r\n`,
      )
      .join("") + `--${boundary}--\r\n`
  );
}

const INTENTS = [
  "{bad",
  "",
  "null",
  "[]",
  "1",
  '"x"',
  "{}",
  '{"type":"insert"}',
  '{"type":"insert","payload":{"name":"requests","index":99999999}}',
  '{"type":"update","payload":{"name":"sizes","index":1000000,"value":"1"}}',
  '{"type":"remove","payload":{"name":"email","index":0}}',
  '{"type":"reorder","payload":{"name":"requests","from":0,"to":1e9}}',
  '{"type":"update","payload":{"value":{"a":{"b":{"c":[]}}}}}',
  '{"type":"insert","payload":{"name":"email"}}',
  '{"type":"validate","payload":{"name":"__proto__"}}',
  '{"type":"reset","payload":{}}',
  "[".repeat(3000) + "]".repeat(3000),
  '{"validated":{"email":true}}',
  '{"validated":[1,2,3]}',
  '{"validated":{"x":"yes"}}',
];

/** One malformed body of a kind chosen by the generator. */
function body(g: Rng): Body {
  const kind = g.int(11);
  switch (kind) {
    case 0: {
      // one field repeated: under the byte cap (the repeat cap answers) or over it
      const times = g.pick([501, 2_000, 32_000, 70_000]);
      const name = g.pick(NAMES);
      return {
        kind: `"${name}" x${times}`,
        body: `${enc(name)}=${enc(g.pick(["a", "1", "on"]))}&`.repeat(times),
        type: U,
      };
    }
    case 1: {
      const index = g.pick([
        "1000",
        "10000",
        "100000",
        "2147483648",
        "9".repeat(30),
        "-1",
        "0x10",
        "1.5",
        "",
      ]);
      const list = g.pick(LISTS);
      return {
        kind: `${list}[${index}]`,
        body: urlencode([...fields(g, g.int(3)), [`${list}[${index}]`, value(g)]]),
        type: U,
      };
    }
    case 2: {
      const reserved = g.pick(["__intent__", "__state__"]);
      const pairs = fields(g, g.int(4));
      const n = 1 + g.int(2);
      for (let i = 0; i < n; i++)
        pairs.splice(g.int(pairs.length + 1), 0, [reserved, g.pick(INTENTS)]);
      return { kind: `${reserved} x${n}`, body: urlencode(pairs), type: U };
    }
    case 3: {
      const pairs = fields(g, 1 + g.int(6)).map(
        ([k, v]) => [k, v + g.pick(CONTROL) + "z"] as [string, string],
      );
      return { kind: "control characters", body: urlencode(pairs), type: U };
    }
    case 4: {
      // wrong types: a scalar sent as a list or an object, numbers where text goes and the reverse
      const name = g.pick(NAMES);
      const pairs: [string, string][] = [
        [name, value(g)],
        [name, value(g)],
        [`${name}.x`, value(g)],
        [`${name}[0]`, value(g)],
        ...fields(g, g.int(4)),
      ];
      return { kind: `wrong types of "${name}"`, body: urlencode(pairs), type: U };
    }
    case 5: {
      // not valid urlencoding: raw bytes, bad escapes, empty names, stray separators
      const bytes = Array.from({ length: 1 + g.int(300) }, () =>
        g.int(3) === 0 ? g.pick([0x25, 0x26, 0x3d, 0x00, 0xff, 0xc3, 0x5b]) : g.int(256),
      );
      return { kind: "garbage urlencoded", body: new Uint8Array(bytes), type: U };
    }
    case 6: {
      // oversized: one value past 512 KB, or many fields
      return g.int(2) === 0
        ? { kind: "600 KB value", body: `comments=${"x".repeat(600 * 1024)}`, type: U }
        : {
            kind: "3,000 fields",
            body: Array.from({ length: 3000 }, (_, i) => `f${i}=1`).join("&"),
            type: U,
          };
    }
    case 7: {
      // multipart: truncated, wrong boundary, a file where text goes, too many parts, a header without a name
      const boundary = `----fuzz${g.int(1e6)}`;
      const pairs = fields(g, 1 + g.int(5)).map(
        ([k, v]) => [k, v, g.int(4) === 0 ? "x.png" : undefined] as [string, string, string?],
      );
      const whole = multipart(pairs, boundary);
      const variant = g.int(5);
      if (variant === 0)
        return {
          kind: "truncated multipart",
          body: whole.slice(0, g.int(whole.length)),
          type: `multipart/form-data; boundary=${boundary}`,
        };
      if (variant === 1)
        return {
          kind: "multipart, other boundary",
          body: whole,
          type: "multipart/form-data; boundary=nope",
        };
      if (variant === 2)
        return { kind: "multipart, no boundary", body: whole, type: "multipart/form-data" };
      if (variant === 3)
        return {
          kind: "multipart, 2,500 parts",
          body: multipart(
            Array.from({ length: 2500 }, (_, i) => [`f${i}`, "1"]),
            boundary,
          ),
          type: `multipart/form-data; boundary=${boundary}`,
        };
      return {
        kind: "multipart, nameless part",
        body: `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`,
        type: `multipart/form-data; boundary=${boundary}`,
      };
    }
    case 8: {
      return g.pick<Body>([
        {
          kind: "JSON",
          body: JSON.stringify(Object.fromEntries(fields(g, 3))),
          type: "application/json",
        },
        { kind: "text/plain", body: urlencode(fields(g, 3)), type: "text/plain" },
        { kind: "no Content-Type", body: urlencode(fields(g, 3)), type: null },
        { kind: "empty urlencoded", body: "", type: U },
        { kind: "xml", body: "<a>1</a>", type: "application/xml" },
      ]);
    }
    case 9: {
      // a plausible form with one bad value
      return { kind: "plausible form", body: urlencode(fields(g, 3 + g.int(8))), type: U };
    }
    default: {
      // deep or long names
      const name =
        g.int(2) === 0
          ? Array.from({ length: 1 + g.int(80) }, () => `[${g.int(999)}]`)
              .join("")
              .replace(/^/, "a")
          : "n".repeat(100 + g.int(400));
      return { kind: "deep or long name", body: `${enc(name)}=1`, type: U };
    }
  }
}

/** Multipart bodies for the photo upload (its own caps: 5 MB a picture, 20 fields, 26 MB in all). */
function uploadBody(g: Rng): Body {
  const boundary = `----up${g.int(1e6)}`;
  const type = `multipart/form-data; boundary=${boundary}`;
  const variant = g.int(6);
  if (variant === 0) {
    const whole = multipart(
      [
        ["intent", "upload"],
        ["photos", "\x89PNG\r\n\x1a\n" + "x".repeat(2000), "a.png"],
      ],
      boundary,
    );
    return { kind: "upload, truncated", body: whole.slice(0, g.int(whole.length)), type };
  }
  if (variant === 1)
    return {
      kind: "upload, 30 parts",
      body: multipart(
        Array.from({ length: 30 }, () => ["photos", "x", "p.png"]),
        boundary,
      ),
      type,
    };
  if (variant === 2)
    return {
      kind: "upload, not a picture",
      body: multipart(
        [
          ["intent", "upload"],
          ["photos", "GIF89a" + value(g), `${value(g)}.png`],
        ],
        boundary,
      ),
      type,
    };
  if (variant === 3)
    return {
      kind: "upload, reserved and control",
      body: multipart(
        [
          ["intent", g.pick(["upload", "continue", "x\u0000"])],
          ["__intent__", g.pick(INTENTS)],
          ["remove", value(g)],
        ],
        boundary,
      ),
      type,
    };
  if (variant === 4)
    return {
      kind: "upload, 6 MB picture",
      body: multipart(
        [
          ["intent", "upload"],
          ["photos", "y".repeat(6 * 1024 * 1024), "big.png"],
        ],
        boundary,
      ),
      type,
    };
  return body(g);
}

// ---------------------------------------------------------------------------------------------------------

type Who = "anonymous" | "retailer" | "staff" | "setup";
type Answer = { status: number; body: string };

/** One request on its own connection, with the session cookie of `who` (none for anonymous). */
function send(who: Who, method: "GET" | "POST", path: string, b?: Body): Promise<Answer> {
  const cookie = who === "anonymous" ? "" : fx[who].cookieHeader();
  const payload = b
    ? typeof b.body === "string"
      ? Buffer.from(b.body)
      : Buffer.from(b.body)
    : null;
  const target = new URL(path, baseUrl + "/");
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        agent: false,
        headers: {
          Connection: "close",
          Accept: "text/html",
          ...(method === "POST"
            ? { Origin: appOrigin, "Content-Length": String(payload?.length ?? 0) }
            : {}),
          ...(b?.type ? { "Content-Type": b.type } : {}),
          ...(cookie ? { Cookie: cookie } : {}),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
          req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    req.setTimeout(30_000, () => req.destroy(new Error("no answer within 30 s")));
    req.end(payload ?? undefined);
  });
}

/** Every route with an action (app/routes; ids of this file's fixtures or ids that do not exist), and two without. */
function formRoutes(): string[] {
  return [
    "/signin",
    "/register",
    "/password-reset",
    "/password-reset/1/not-a-token",
    `/password-reset/${fx.retailerId}/abc`,
    "/act-as",
    "/admin/retailers",
    "/admin/active-transactions",
    "/admin/active-rmas",
    "/admin/active-transactions/pending",
    "/admin/active-shipments",
    "/alerts",
    "/alerts/matches",
    "/banners/dismiss",
    `/brands/?tab=add`,
    "/cart",
    "/checkout",
    "/checkout/pay",
    "/checkout/swap",
    "/getpaid/",
    "/settings/payout",
    "/settings/card",
    "/settings/contact",
    "/settings/store",
    "/retailer-setup/",
    "/rate/999999",
    "/transaction/buy/999999",
    "/transaction/swap/999999",
    `/transaction/swap/${fx.swapOrderId}`,
    `/create-rma/${fx.swapOrderId}`,
    "/create-rma/999999",
    `/updatelisting/${fx.listingId}`,
    `/updaterequest/${fx.requestId}`,
    `/viewlisting/${fx.listingId}/buy`,
    // Offers (docs/product/offers.md): making one on a listing, answering one that does not exist.
    `/offers/new?listing=${fx.listingId}`,
    "/offers/999999",
    fx.listingStages.style,
    fx.listingStages.sizes,
    fx.listingStages.terms,
    fx.requestStages.style,
    fx.requestStages.sizes,
    fx.requestStages.terms,
    // pages without an action: the router's own 405
    "/",
    "/orders",
  ];
}

function describeResponse(r: Answer): string {
  return `${r.status} ${htmlDecode(
    r.body.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .slice(0, 300)}`;
}

test(
  `fuzz (seed ${SEED}): >= 1,000 malformed bodies, no 5xx, no stack trace, /signin answering`,
  { timeout: 120_000 },
  async () => {
    const g = rng(SEED);
    const jobs: { path: string; who: Who; b: Body }[] = [];
    for (const path of formRoutes())
      for (const who of ["anonymous", "retailer", "staff"] as Who[])
        for (let i = 0; i < BODIES_PER_ROUTE_AND_USER; i++) jobs.push({ path, who, b: body(g) });
    for (const who of ["anonymous", "retailer", "staff"] as Who[])
      for (let i = 0; i < 3 * BODIES_PER_ROUTE_AND_USER; i++)
        jobs.push({ path: fx.listingStages.photos, who, b: uploadBody(g) });
    // The setup wizard's own user (a login without a retailer) too.
    for (let i = 0; i < BODIES_PER_ROUTE_AND_USER; i++)
      jobs.push({ path: "/retailer-setup/", who: "setup", b: body(g) });
    // /logout ends the session it is sent with: only anonymous clients post there.
    for (let i = 0; i < BODIES_PER_ROUTE_AND_USER; i++)
      jobs.push({ path: "/logout", who: "anonymous", b: body(g) });
    expect(jobs.length).toBeGreaterThanOrEqual(1000);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let done = false;
    const signinTimes: number[] = [];
    const slow: string[] = [];
    const watcher = (async () => {
      while (!done) {
        const t = performance.now();
        try {
          const r = await send("anonymous", "GET", "/signin");
          if (r.status !== 200) failures.push(`GET /signin during the fuzz: ${r.status}`);
        } catch (e) {
          failures.push(
            `GET /signin during the fuzz: no answer (${(e as Error).message} ${String((e as Error).cause ?? "")})`,
          );
        }
        signinTimes.push(performance.now() - t);
        await new Promise((res) => setTimeout(res, 250));
      }
    })();

    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { path, who, b } = jobs[next++];
        let r: Answer;
        const t = performance.now();
        try {
          r = await send(who, "POST", path, b);
        } catch (e) {
          failures.push(
            `${who} POST ${path} [${b.kind}, ${b.body.length} bytes]: no answer (${(e as Error).message} ${String((e as Error).cause ?? "")})`,
          );
          continue;
        }
        const ms = performance.now() - t;
        if (ms > 1000)
          slow.push(
            `${ms.toFixed(0)} ms: ${who} POST ${path} [${b.kind}, ${b.body.length} bytes] ${r.status}`,
          );
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status >= 500)
          failures.push(`${who} POST ${path} [${b.kind}]: ${describeResponse(r)}`);
        const trace = leakedTrace(r.body);
        if (trace) failures.push(`${who} POST ${path} [${b.kind}]: stack trace ${trace}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    } finally {
      done = true;
      await watcher;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[fuzz] seed ${SEED}: ${jobs.length} bodies in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
        `/signin ${signinTimes.length} times, slowest ${Math.max(...signinTimes).toFixed(0)} ms`,
    );
    if (slow.length > 0) console.log(`[fuzz] answers slower than 1 s:\n${slow.join("\n")}`);
    expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
    // Each session was still signed in at the end (no body signed anyone out or broke a session).
    expect((await fx.retailer.get("/settings/store")).status).toBe(200);
    expect(signinTimes.length).toBeGreaterThan(0);
    expect(Math.max(...signinTimes), "/signin answered within 2 s throughout").toBeLessThan(2000);
  },
);
