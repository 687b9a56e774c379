/**
 * A retailer's API tokens (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"): created with a
 * name and shown once, kept as the SHA-256 of the token, verified for one scope, revoked by the retailer.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { apiTokens } from "../schema";
import { secretHash } from "../secret-hash";

export const STOCK_IMPORT_SCOPE = "stock-import";
const TOKEN_PREFIX = "wsk_";

export const hashApiToken = (token: string) => secretHash(token);

export interface ApiTokenRow {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A new token for the retailer: its row, and the token itself (returned this once, never stored). */
export async function createApiToken(
  db: Db,
  input: { retailerId: number; createdBy: number | null; name: string; scope?: string },
): Promise<{ id: number; token: string }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(apiTokens)
    .values({
      retailerId: input.retailerId,
      createdBy: input.createdBy,
      name: input.name,
      scope: input.scope ?? STOCK_IMPORT_SCOPE,
      tokenHash: hashApiToken(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
    })
    .returning({ id: apiTokens.id });
  return { id: row.id, token };
}

/** The retailer's tokens, newest first (revoked ones too, marked). */
export async function listApiTokens(db: Db, retailerId: number): Promise<ApiTokenRow[]> {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.retailerId, retailerId))
    .orderBy(desc(apiTokens.id));
}

/** The live token of this scope with this value (its id and retailer); else null. Writes nothing. */
export async function verifyApiToken(
  db: Db,
  token: string,
  scope: string = STOCK_IMPORT_SCOPE,
): Promise<{ id: number; retailerId: number; createdBy: number | null } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await db
    .select({ id: apiTokens.id, retailerId: apiTokens.retailerId, createdBy: apiTokens.createdBy })
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.tokenHash, hashApiToken(token)),
        eq(apiTokens.scope, scope),
        isNull(apiTokens.revokedAt),
      ),
    );
  return row ?? null;
}

/** Sets the token's last use to now (a request it authorised). */
export async function touchApiToken(db: Db, id: number): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, id));
}

/** Revokes the retailer's token; false when it is not this retailer's or already revoked. */
export async function revokeApiToken(db: Db, id: number, retailerId: number): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(apiTokens.id, id), eq(apiTokens.retailerId, retailerId), isNull(apiTokens.revokedAt)),
    )
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}
