/**
 * Brands typed by retailers (docs/product/screens.md, "Staff: validation tools"; ADR 0032): a brand
 * request (ADD BRANDS) or a brand typed at registration (Request Brands) names a brand; the name is matched to
 * a brand we know, else it becomes an external brand (is_valid false) that staff validate. One external brand
 * per name: case and spaces do not count.
 */
import { and, eq, sql } from "drizzle-orm";
import { brands } from "../schema";
import type { DbOrTx } from "../client";

/** A typed brand name as stored: trimmed, its inner runs of spaces one space. */
export function normaliseBrandName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

async function brandNamed(db: DbOrTx, name: string) {
  const rows = await db
    .select({
      id: brands.id,
      isValid: brands.isValid,
      isActive: brands.isActive,
      alias: brands.alias,
    })
    .from(brands)
    .where(
      sql`lower(${brands.name}) = lower(${name}) or lower(${brands.displayName}) = lower(${name})`,
    )
    .orderBy(sql`(${brands.isValid} and ${brands.isActive}) desc`, brands.id)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The brand a retailer's typed name stands for: the brand of that name (or display name); for an external
 * brand staff mapped onto another (switched off, the other's name as its alias), that other brand; else a new
 * external brand of that name. Null for a blank name.
 */
export async function brandForTypedName(db: DbOrTx, typed: string): Promise<number | null> {
  const name = normaliseBrandName(typed);
  if (!name) return null;
  const found = await brandNamed(db, name);
  if (found && !found.isValid && !found.isActive && found.alias) {
    const target = await db
      .select({ id: brands.id })
      .from(brands)
      .where(and(sql`lower(${brands.name}) = lower(${found.alias})`, eq(brands.isValid, true)))
      .limit(1);
    return target[0]?.id ?? found.id;
  }
  if (found) return found.id;
  // Two requests typing the same new name at once: the unique lower(name) index keeps one row; both read it.
  await db.insert(brands).values({ name, displayName: name, isValid: false }).onConflictDoNothing();
  return (await brandNamed(db, name))?.id ?? null;
}
