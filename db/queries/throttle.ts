import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { accountRequests, loginAttempts, stockImports } from "../schema";
import { normalizeEmail } from "./users";

/**
 * Failed sign-ins within the window (docs/guides/sessions-and-auth.md "Throttling"), counted since the e-mail's last success (a
 * successful sign-in or password reset) when that is later:
 * - pair: this e-mail from this client address;
 * - email: this e-mail from any address;
 * - ip: any e-mail from this address (not reset by successes).
 */
export async function loginFailureCounts(
  db: Db,
  email: string,
  ip: string,
  since: Date,
): Promise<{ pair: number; email: number; ip: number }> {
  const e = normalizeEmail(email);
  const sinceIso = since.toISOString();
  const rows = await db.execute<{ pair: number; email: number; ip: number }>(sql`
    with last_ok as (
      select max(${loginAttempts.attemptedAt}) as at from ${loginAttempts}
       where ${loginAttempts.email} = ${e} and ${loginAttempts.succeeded} and ${loginAttempts.attemptedAt} > ${sinceIso}::timestamptz
    )
    select
      count(*) filter (where a.email = ${e} and a.ip = ${ip} and a.attempted_at > coalesce((select at from last_ok), ${sinceIso}::timestamptz))::int as pair,
      count(*) filter (where a.email = ${e} and a.attempted_at > coalesce((select at from last_ok), ${sinceIso}::timestamptz))::int as email,
      count(*) filter (where ${ip} <> '' and a.ip = ${ip})::int as ip
    from ${loginAttempts} a
    where not a.succeeded and a.attempted_at > ${sinceIso}::timestamptz and (a.email = ${e} or (${ip} <> '' and a.ip = ${ip}))`);
  const r = rows[0];
  return { pair: r?.pair ?? 0, email: r?.email ?? 0, ip: r?.ip ?? 0 };
}

export type AccountRequestKind = "register" | "password_reset";

/** Records one register or password-reset request. */
export async function recordAccountRequest(
  db: Db,
  input: { kind: AccountRequestKind; email: string; ip: string; at?: Date },
): Promise<void> {
  await db.insert(accountRequests).values({
    kind: input.kind,
    email: normalizeEmail(input.email),
    ip: input.ip,
    requestedAt: input.at ?? new Date(),
  });
}

/** Requests of this kind within the window for this e-mail (any address) and from this address (any e-mail). */
export async function accountRequestCounts(
  db: Db,
  kind: AccountRequestKind,
  email: string,
  ip: string,
  since: Date,
): Promise<{ email: number; ip: number }> {
  const e = normalizeEmail(email);
  const rows = await db
    .select({
      email: sql<number>`count(*) filter (where ${accountRequests.email} = ${e})::int`,
      ip: sql<number>`count(*) filter (where ${ip} <> '' and ${accountRequests.ip} = ${ip})::int`,
    })
    .from(accountRequests)
    .where(
      and(
        eq(accountRequests.kind, kind),
        gt(accountRequests.requestedAt, since),
        sql`(${accountRequests.email} = ${e} or (${ip} <> '' and ${accountRequests.ip} = ${ip}))`,
      ),
    );
  return { email: rows[0]?.email ?? 0, ip: rows[0]?.ip ?? 0 };
}

/** Stock imports sent with this API token within the window (docs/guides/stock-import.md "API": the API's rate limit). */
export async function apiImportCount(db: Db, tokenId: number, since: Date): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(stockImports)
    .where(and(eq(stockImports.apiTokenId, tokenId), gt(stockImports.createdAt, since)));
  return rows[0]?.n ?? 0;
}
