/**
 * A small cookie-keeping HTTP client for HTTP-level e2e tests (no browser): it talks to the running app
 * at E2E_BASE_URL the way a browser's plain form posts would, but lets a test send what no browser sends
 * (malformed bodies, foreign Origin headers, tampered ids).
 *
 *   const c = new HttpClient();
 *   await c.signIn("retailer1@demo.test", "marketplace-demo-1");   // keeps the wx_session cookie
 *   const r = await c.postForm("/banners/dismiss", { banner: "payout", redirectTo: "/" });
 *   expect(r.status).toBe(302);
 *
 * Redirects are NOT followed unless asked (`follow: true`), so tests see the status and Location the
 * app answered. Every non-GET carries `Origin: <base URL>` unless the test overrides or removes it.
 */

export const baseUrl: string = (process.env.E2E_BASE_URL ?? "http://localhost:3100").replace(
  /\/$/,
  "",
);
export const appOrigin: string = new URL(baseUrl).origin;

export type FormFields = Record<
  string,
  string | number | boolean | (string | number)[] | undefined | null
>;

export type HttpResponse = {
  status: number;
  headers: Headers;
  /** Location header resolved to a path ("/error/"), or null. */
  location: string | null;
  body: string;
  /** The URL of the last response (after redirects when `follow` was set). */
  url: string;
  /** Every URL visited, the first request's included (useful with `follow`). */
  chain: string[];
};

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams | FormData | null;
  /** Send this Origin header; `null` sends none. Default: the app's own origin on non-GET requests. */
  origin?: string | null;
  /** Follow redirects (GET after 301/302/303), keeping cookies. Default false. */
  follow?: boolean;
  /** Send the session cookie. Default true. */
  withCookies?: boolean;
};

/** URL-encodes fields; arrays repeat the key; undefined/null are left out. */
export function formBody(fields: FormFields): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) p.append(k, String(item));
    else p.append(k, String(v));
  }
  return p;
}

export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string = baseUrl) {}

  url(path: string): string {
    return new URL(path, this.base + "/").toString();
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get sessionCookie(): string | undefined {
    return this.cookies.get("wx_session");
  }

  private keepCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) =>
          /^\s*max-age=0\s*$/i.test(a) ||
          (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()),
      );
      if (value === "" || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    let method = (opts.method ?? "GET").toUpperCase();
    let target = this.url(path);
    let body = opts.body ?? null;
    const chain: string[] = [];
    for (let hop = 0; hop < 10; hop++) {
      chain.push(target);
      const headers: Record<string, string> = {
        Accept: "text/html,application/xhtml+xml",
        ...(opts.headers ?? {}),
      };
      const origin =
        opts.origin === undefined
          ? method === "GET" || method === "HEAD"
            ? undefined
            : appOrigin
          : opts.origin;
      if (origin) headers.Origin = origin;
      if (opts.withCookies !== false && this.cookies.size > 0) headers.Cookie = this.cookieHeader();
      const res = await fetch(target, {
        method,
        headers,
        body: method === "GET" || method === "HEAD" ? undefined : (body as BodyInit | null),
        redirect: "manual",
      });
      this.keepCookies(res);
      const loc = res.headers.get("location");
      const text = await res.text();
      const location = loc ? new URL(loc, target) : null;
      if (opts.follow && location && res.status >= 300 && res.status < 400) {
        target = location.toString();
        if (res.status !== 307 && res.status !== 308) {
          method = "GET";
          body = null;
        }
        continue;
      }
      return {
        status: res.status,
        headers: res.headers,
        location: location
          ? location.origin === new URL(this.base).origin
            ? location.pathname + location.search + location.hash
            : location.toString()
          : null,
        body: text,
        url: target,
        chain,
      };
    }
    throw new Error(`too many redirects from ${path}`);
  }

  get(path: string, opts: Omit<RequestOptions, "method" | "body"> = {}): Promise<HttpResponse> {
    return this.request(path, { ...opts, method: "GET" });
  }

  /** POST application/x-www-form-urlencoded (what a plain HTML form sends). */
  postForm(
    path: string,
    fields: FormFields | URLSearchParams,
    opts: Omit<RequestOptions, "method" | "body"> = {},
  ): Promise<HttpResponse> {
    const body = fields instanceof URLSearchParams ? fields : formBody(fields);
    return this.request(path, {
      ...opts,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...(opts.headers ?? {}) },
      body: body.toString(),
    });
  }

  /** POST an arbitrary body with the given Content-Type (for malformed-input tests). */
  postRaw(
    path: string,
    body: string | Uint8Array,
    contentType: string | null,
    opts: Omit<RequestOptions, "method" | "body"> = {},
  ): Promise<HttpResponse> {
    return this.request(path, {
      ...opts,
      method: "POST",
      headers: { ...(contentType ? { "Content-Type": contentType } : {}), ...(opts.headers ?? {}) },
      body,
    });
  }

  /**
   * Signs in by posting the sign-in form; throws unless the app answers with a redirect and a session
   * cookie. Returns where the app sent the user.
   */
  async signIn(email: string, password: string, next?: string): Promise<string> {
    const r = await this.postForm("/signin", { email, password, next });
    if (r.status !== 302 || !this.sessionCookie) {
      throw new Error(
        `sign-in as ${email} failed: ${r.status} ${r.location ?? ""} ${r.body.slice(0, 200)}`,
      );
    }
    return r.location ?? "/";
  }

  /** Registers a new retailer login (signed in afterwards, like the page). */
  async register(email: string, password: string): Promise<string> {
    const r = await this.postForm("/register", { email, password, confirm: password });
    if (r.status !== 302 || !this.sessionCookie) {
      throw new Error(`registering ${email} failed: ${r.status} ${r.body.slice(0, 200)}`);
    }
    return r.location ?? "/";
  }

  async signOut(): Promise<void> {
    await this.postForm("/logout", {});
    this.cookies.delete("wx_session");
  }
}

/** A unique e-mail address for one test. */
export function freshEmail(prefix = "http"): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Things that must never reach a user: stack frames, module paths, raw error names. */
const LEAK_PATTERNS: RegExp[] = [
  /^\s+at .+(:\d+:\d+\)?|\(native\))$/m,
  /\s{4}at [\w$.<>]+ \(/,
  /node_modules/,
  /\b(?:Type|Reference|Syntax|Range|Postgres|Zod)?Error: /,
  /\bfile:\/\/\//,
];

/** The first stack-trace-like fragment of a response body, or null. */
export function leakedTrace(body: string): string | null {
  for (const re of LEAK_PATTERNS) {
    const m = re.exec(body);
    if (m) return body.slice(Math.max(0, m.index - 80), m.index + 160);
  }
  return null;
}

/** Decodes the HTML entities React writes in text and attribute values. */
export function htmlDecode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The value="" attribute of the first <input name="..."> in an HTML page (decoded), or null. */
export function inputValue(html: string, name: string): string | null {
  const tag = new RegExp(
    `<input[^>]*\\bname="${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>`,
  ).exec(html)?.[0];
  if (!tag) return null;
  const v = /\bvalue="([^"]*)"/.exec(tag);
  return v ? htmlDecode(v[1]) : null;
}
