/**
 * Who is asking, and may they? Every loader/action guard goes through here.
 * Sessions themselves live in session.server.ts (the one module wrapping `lucia`).
 */
import { redirect } from "@remix-run/node";
import {
  MSG,
  TWO_FACTOR_SETUP_PATH,
  requiredActionPath,
  retailerMayTrade,
  safeNextPath,
} from "../../domain/accounts";
import type { ContactRow, RetailerRow } from "../../db/queries/retailers";
import { getRetailer, getRetailerWithContact } from "../../db/queries/retailers";
import { getBrandsByIds } from "../../db/queries/retailers";
import { touchRetailerLastActive } from "../../db/queries/retailer-admin";
import { LAST_ACTIVE_EVERY_MS, lastActiveDue } from "../../domain/retailer-admin";
import { capabilityForPath, may, TEAM_MSG, type StoreCapability } from "../../domain/teams";
import { db } from "./db.server";
import { getEnv } from "./env.server";
import { blankSessionCookieHeader, endSession, readSession, startSession } from "./session.server";

export type { ContactRow, RetailerRow };

export type AuthContext = {
  /** twoFactor: two-factor sign-in is on (ADR 0041). */
  user: {
    id: number;
    email: string;
    isStaff: boolean;
    twoFactor: boolean;
    /** The person's roles in its store (domain/teams.ts; staff: none, they may do what the store may). */
    storeRoles: string[];
  };
  session: {
    id: string;
    actingRetailerId: number | null;
    actingBrandId: number | null;
    dismissedBanners: string[];
  };
  /** Own retailer, or for staff the one they act as (null = acting as admin). */
  retailer: RetailerRow | null;
  /** The contact of that retailer (for the cell-phone banner). */
  contact: ContactRow | null;
  /** The user's own retailer (null for staff and for a retailer not yet set up). */
  ownRetailer: RetailerRow | null;
  /** Staff acting as a brand of the acting retailer. */
  actingBrand: { id: number; name: string; displayName: string } | null;
};

const cache = new WeakMap<Request, Promise<AuthContext | null>>();

/**
 * The per-HTTP-request scope installed by workers/web.mjs (an AsyncLocalStorage on this global key, a
 * fresh Map per GET/HEAD request; absent under tests and for other methods). Remix hands every loader
 * its own copy of the Request (it strips `?index`/`?_routes` into a new Request object), so a memo keyed
 * by the Request object alone never lets the root loader and the page's loaders share one lookup.
 * Only GET/HEAD requests get a scope: there an action never runs first and changes the session, the
 * retailer or the contact under the loaders.
 */
const REQUEST_SCOPE = Symbol.for("wholesale.requestScope");
type RequestScope = { getStore(): Map<string, unknown> | undefined };

function requestStore(): Map<string, unknown> | undefined {
  return (globalThis as { [REQUEST_SCOPE]?: RequestScope })[REQUEST_SCOPE]?.getStore();
}

/**
 * The signed-in user with their retailer, or null. Memoised per Request object and, in the server, per
 * HTTP request (keyed by the Cookie header too, so it is the same lookup for the same credentials).
 */
export function getAuth(request: Request): Promise<AuthContext | null> {
  let p = cache.get(request);
  if (p) return p;
  const store = requestStore();
  const key = `auth:${request.headers.get("Cookie") ?? ""}`;
  p = store?.get(key) as Promise<AuthContext | null> | undefined;
  if (!p) {
    p = loadAuth(request);
    store?.set(key, p);
  }
  cache.set(request, p);
  return p;
}

async function loadAuth(request: Request): Promise<AuthContext | null> {
  const v = await readSession(request);
  if (!v) return null;
  const { user, session } = v;
  // The effective retailer's id is known from the session: its row with its contact (one statement), the
  // user's own retailer when it is another one (staff acting) and the acting brand are read at once.
  const targetId = user.isStaff ? session.actingRetailerId : user.retailerId;
  const ownIsTarget = targetId !== null && targetId === user.retailerId;
  const [target, otherOwn, brands] = await Promise.all([
    targetId !== null
      ? getRetailerWithContact(db, targetId, user.isStaff ? undefined : user.id)
      : null,
    user.retailerId !== null && !ownIsTarget ? getRetailer(db, user.retailerId) : null,
    user.isStaff && targetId !== null && session.actingBrandId !== null
      ? getBrandsByIds(db, [session.actingBrandId])
      : null,
  ]);
  const retailer: RetailerRow | null = target?.retailer ?? null;
  const ownRetailer: RetailerRow | null = ownIsTarget ? retailer : otherOwn;
  const contact = retailer ? (target?.contact ?? null) : null;
  const actingBrand: AuthContext["actingBrand"] = retailer ? (brands?.[0] ?? null) : null;
  if (!user.isStaff && ownRetailer) noteRetailerActive(ownRetailer);
  return {
    user: {
      id: user.id,
      email: user.email,
      isStaff: user.isStaff,
      twoFactor: user.twoFactor,
      storeRoles: user.storeRoles,
    },
    session: {
      id: session.id,
      actingRetailerId: session.actingRetailerId,
      actingBrandId: session.actingBrandId,
      dismissedBanners: session.dismissedBanners,
    },
    retailer,
    contact,
    ownRetailer,
    actingBrand,
  };
}

/**
 * last_active (staff's Choose Retailer column): written when a retailer's own user makes a request and the
 * row says it was last seen LAST_ACTIVE_EVERY_MS ago or more, so at most one write per retailer per 5 minutes,
 * after the answer (never on the request's path; a failure only loses one timestamp).
 */
function noteRetailerActive(r: RetailerRow): void {
  const now = new Date();
  if (!lastActiveDue(r.lastActiveAt, now)) return;
  r.lastActiveAt = now;
  setImmediate(() => {
    touchRetailerLastActive(db, r.id, now, LAST_ACTIVE_EVERY_MS).catch((err) =>
      console.error("[last_active] write failed", err),
    );
  });
}

/** The page's path as the user sees it (single-fetch data requests end in ".data", "/" is "/_root.data"). */
function visibleUrl(u: URL): URL {
  const v = new URL(u.href);
  v.pathname = v.pathname.replace(/\.data$/, "");
  if (v.pathname === "/_root") v.pathname = "/";
  v.searchParams.delete("_routes");
  return v;
}

function pathWithSearch(request: Request): string {
  const u = visibleUrl(new URL(request.url));
  return u.pathname + u.search;
}

/**
 * A signed-in user, else a redirect to /signin?next=<this page>; staff who must set up two-factor sign-in are
 * sent to its page from anywhere else (actions too: the root loader's guard runs for pages only).
 */
export async function requireUser(request: Request): Promise<AuthContext> {
  const auth = await getAuth(request);
  if (!auth) {
    const next = pathWithSearch(request);
    throw redirect(next === "/" ? "/signin" : `/signin?next=${encodeURIComponent(next)}`);
  }
  if (
    mustSetUpTwoFactor(auth) &&
    !visibleUrl(new URL(request.url)).pathname.startsWith(TWO_FACTOR_SETUP_PATH)
  ) {
    throw redirect(TWO_FACTOR_SETUP_PATH);
  }
  return auth;
}

/**
 * In production every staff user signs in with two-factor (ADR 0041): one without it is sent to set it up
 * before any staff page or action. Elsewhere (local, test, staging) it is not required.
 */
export function mustSetUpTwoFactor(auth: AuthContext | null): boolean {
  return !!auth && auth.user.isStaff && !auth.user.twoFactor && getEnv().APP_ENV === "production";
}

/** Throws a redirect to /error/ unless the request comes from staff (to the two-factor set-up when it is missing). */
export async function adminGuard(request: Request): Promise<AuthContext> {
  const auth = await getAuth(request);
  if (!auth || !auth.user.isStaff) throw redirect("/error/");
  if (mustSetUpTwoFactor(auth)) throw redirect(TWO_FACTOR_SETUP_PATH);
  return auth;
}

/** Staff only; anyone else (signed in or not) goes to /error/. */
export async function requireStaff(request: Request): Promise<AuthContext> {
  return adminGuard(request);
}

/**
 * The effective retailer: own (active or inactive) or the one staff act as. A retailer still in
 * setup, waiting or denied is sent to its status page; staff acting as nobody to the picker.
 */
export async function requireRetailer(
  request: Request,
): Promise<AuthContext & { retailer: RetailerRow }> {
  const auth = await requireUser(request);
  if (auth.user.isStaff) {
    if (mustSetUpTwoFactor(auth)) throw redirect(TWO_FACTOR_SETUP_PATH);
    if (!auth.retailer) throw redirect("/admin/retailers?pick=1");
    return auth as AuthContext & { retailer: RetailerRow };
  }
  const target = requiredActionRedirect(auth, pathWithSearch(request));
  if (target) throw redirect(target);
  if (!auth.retailer) throw redirect("/retailer-setup/");
  assertStoreRole(auth, capabilityForPath(visibleUrl(new URL(request.url)).pathname));
  return auth as AuthContext & { retailer: RetailerRow };
}

/**
 * A person of the store may do what its roles allow (domain/teams.ts; docs/product/teams.md): otherwise a 403
 * with the message. Staff acting as a retailer may do what the store may.
 */
export function assertStoreRole(auth: AuthContext, need: StoreCapability | null): void {
  if (!need || auth.user.isStaff || may(auth.user.storeRoles, need)) return;
  throw new Response(TEAM_MSG.notAllowed(need), {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * The one trading check (cart add/proceed, checkout, pay, selling to a request, swaps, order commands): the
 * effective retailer must be active. A retailer's own pending (or denied, or unfinished) account goes to its
 * status page; an inactive one, or staff acting as a retailer that is not active, gets a 403 with a plain
 * message. Staff browsing as admin (no retailer) pass: the callers answer them (no cart, no orders).
 */
export function assertMayTrade(auth: AuthContext, request: Request): void {
  const r = auth.retailer;
  if (!r || retailerMayTrade(r.status)) return;
  if (!auth.user.isStaff) {
    const target = requiredActionRedirect(auth, pathWithSearch(request));
    if (target) throw redirect(target);
  }
  throw new Response(auth.user.isStaff ? MSG.notTradingActingAs : MSG.notTrading, {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** requireRetailer + assertMayTrade: the guard of every trading loader and action. */
export async function requireTradingRetailer(
  request: Request,
): Promise<AuthContext & { retailer: RetailerRow }> {
  const auth = await requireRetailer(request);
  assertMayTrade(auth, request);
  return auth;
}

/**
 * The effective retailer for a cart, checkout or pay request (null for staff browsing as admin, whom the
 * callers answer 403). A retailer that is not active may not trade (assertMayTrade: its status page or 403).
 */
export async function cartRetailer(
  request: Request,
): Promise<{ auth: AuthContext; retailer: RetailerRow } | { auth: AuthContext; retailer: null }> {
  const auth = await requireUser(request);
  assertMayTrade(auth, request);
  // Every cart, checkout and pay request is buying, wherever it is posted from (a listing's "Add to cart").
  assertStoreRole(auth, "buy");
  if (auth.retailer) return { auth, retailer: auth.retailer };
  if (!auth.user.isStaff) {
    // A retailer without a retailer record is still in setup: requireUser's guard lets the root send it on.
    throw redirect("/retailer-setup/");
  }
  return { auth, retailer: null };
}

/**
 * Where this request must go instead (or null): the central guard the root loader calls.
 * - any path containing "admin" for non-staff -> /error/
 * - signed out on a non-public page -> /signin?next=...
 * - a retailer not yet set up / waiting / denied -> its status page (the blocking "required action" state)
 */
export function requiredActionRedirect(
  auth: AuthContext | null,
  pathOrUrl: string | URL,
): string | null {
  const u = visibleUrl(typeof pathOrUrl === "string" ? new URL(pathOrUrl, "http://x") : pathOrUrl);
  const own = auth?.ownRetailer ?? null;
  return requiredActionPath(
    auth
      ? {
          signedIn: true,
          isStaff: auth.user.isStaff,
          retailerStatus: own ? own.status : "none",
          setupComplete: own ? own.setupCompletedAt !== null : false,
          mustSetUpTwoFactor: mustSetUpTwoFactor(auth),
        }
      : { signedIn: false },
    u.pathname,
    u.search,
  );
}

/** Set-Cookie header value for a new session of this user. */
export async function commitSession(userId: number): Promise<string> {
  return (await startSession(userId)).setCookie;
}

/** Ends the request's session (if any); returns the Set-Cookie header value that clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  const auth = await getAuth(request);
  if (!auth) return blankSessionCookieHeader();
  return endSession(auth.session.id);
}

/** A same-origin path to go to after sign-in, or the role's landing page. */
export function landingPath(
  auth: { user: { isStaff: boolean } },
  next: string | null | undefined,
): string {
  return safeNextPath(next) ?? (auth.user.isStaff ? "/admin" : "/");
}

/** The request's form data, read within the caps of ./form.server (400/413, never a 500). */
export { readFormData } from "./form.server";
