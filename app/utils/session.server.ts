/**
 * The ONE module that wraps the `lucia` v3 package (unmaintained upstream: see
 * docs/decisions/0003-sessions-and-auth.md). Nothing else imports `lucia`; replacing it with the
 * hand-written version from Lucia's own guide means rewriting only this file.
 */
import { DrizzlePostgreSQLAdapter } from "@lucia-auth/adapter-drizzle";
import { Lucia, TimeSpan, type DatabaseSession, type DatabaseUser } from "lucia";
import { deleteOtherSessions, getSessionWithUser } from "../../db/queries/sessions";
import { sessions, users } from "../../db/schema";
import { db } from "./db.server";
import { orUnavailable } from "./db-unavailable.server";
import { getEnv } from "./env.server";

export const SESSION_COOKIE_NAME = "wx_session";
/** Sessions live 30 days; Lucia extends the database row when half of that has passed. */
const SESSION_DAYS = 30;

function isSecureCookie(): boolean {
  const env = getEnv();
  return env.NODE_ENV === "production" && env.APP_ORIGIN.startsWith("https:");
}

/**
 * The Drizzle adapter, but the read every signed-in request makes is one statement built once
 * (db/queries/sessions.ts) and brings only what the app keeps of the user, not the password hash.
 */
class SessionAdapter extends DrizzlePostgreSQLAdapter {
  override async getSessionAndUser(
    sessionId: string,
  ): Promise<[session: DatabaseSession | null, user: DatabaseUser | null]> {
    const row = await getSessionWithUser(db, sessionId);
    if (!row) return [null, null];
    const { id, userId, expiresAt, ...sessionAttributes } = row.session;
    const { id: uid, ...userAttributes } = row.user;
    return [
      { id, userId, expiresAt, attributes: sessionAttributes },
      { id: uid, attributes: userAttributes },
    ];
  }
}

function createLucia() {
  const adapter = new SessionAdapter(db, sessions, users);
  return new Lucia(adapter, {
    sessionExpiresIn: new TimeSpan(SESSION_DAYS, "d"),
    sessionCookie: {
      name: SESSION_COOKIE_NAME,
      expires: true,
      // Lucia always sets HttpOnly; SameSite=Lax; path=/.
      attributes: { secure: isSecureCookie(), sameSite: "lax", path: "/" },
    },
    getSessionAttributes: (a) => ({
      actingRetailerId: a.actingRetailerId,
      actingBrandId: a.actingBrandId,
      dismissedBanners: a.dismissedBanners,
    }),
    getUserAttributes: (a) => ({
      email: a.email,
      isStaff: a.isStaff,
      retailerId: a.retailerId,
      twoFactor: a.twoFactor,
      storeRoles: a.storeRoles,
    }),
  });
}

type AppLucia = ReturnType<typeof createLucia>;

declare module "lucia" {
  interface Register {
    Lucia: AppLucia;
    UserId: number;
    DatabaseUserAttributes: {
      email: string;
      isStaff: boolean;
      retailerId: number | null;
      twoFactor: boolean;
      storeRoles: string[];
    };
    DatabaseSessionAttributes: {
      actingRetailerId: number | null;
      actingBrandId: number | null;
      dismissedBanners: string[];
    };
  }
}

declare global {
  // eslint-disable-next-line no-var
  var __lucia: AppLucia | undefined;
}

function lucia(): AppLucia {
  if (!globalThis.__lucia) globalThis.__lucia = createLucia();
  return globalThis.__lucia;
}

export type ValidatedSession = {
  session: {
    id: string;
    expiresAt: Date;
    actingRetailerId: number | null;
    actingBrandId: number | null;
    dismissedBanners: string[];
  };
  user: {
    id: number;
    email: string;
    isStaff: boolean;
    retailerId: number | null;
    twoFactor: boolean;
    storeRoles: string[];
  };
};

/** Reads the session cookie and validates it against the database (null when absent or invalid). */
export async function readSession(request: Request): Promise<ValidatedSession | null> {
  const l = lucia();
  const id = l.readSessionCookie(request.headers.get("Cookie") ?? "");
  if (!id) return null;
  // The first database read of almost every page: a database that does not answer is a 503 "try again".
  const { session, user } = await orUnavailable(() => l.validateSession(id));
  if (!session || !user) return null;
  return {
    session: {
      id: session.id,
      expiresAt: session.expiresAt,
      actingRetailerId: session.actingRetailerId,
      actingBrandId: session.actingBrandId,
      dismissedBanners: session.dismissedBanners ?? [],
    },
    user: {
      id: user.id,
      email: user.email,
      isStaff: user.isStaff,
      retailerId: user.retailerId,
      twoFactor: user.twoFactor === true,
      storeRoles: user.storeRoles ?? [],
    },
  };
}

/** Starts a session for the user; returns the Set-Cookie header value. */
export async function startSession(
  userId: number,
): Promise<{ sessionId: string; setCookie: string }> {
  const l = lucia();
  const session = await l.createSession(userId, {
    actingRetailerId: null,
    actingBrandId: null,
    dismissedBanners: [],
  });
  return { sessionId: session.id, setCookie: l.createSessionCookie(session.id).serialize() };
}

/** Ends one session; returns the Set-Cookie header value that clears the cookie. */
export async function endSession(sessionId: string): Promise<string> {
  const l = lucia();
  await l.invalidateSession(sessionId);
  return l.createBlankSessionCookie().serialize();
}

/** Ends every session of the user (password reset). */
export async function endAllSessions(userId: number): Promise<void> {
  await lucia().invalidateUserSessions(userId);
}

/** Ends every session of the user except `keepSessionId` (the one making the change). */
export async function endOtherSessions(userId: number, keepSessionId: string): Promise<void> {
  await deleteOtherSessions(db, userId, keepSessionId);
}

export function blankSessionCookieHeader(): string {
  return lucia().createBlankSessionCookie().serialize();
}
