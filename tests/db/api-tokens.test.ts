/**
 * API tokens against the database (db/queries/api-tokens.ts; docs/guides/stock-import.md "API"): a token is shown once and
 * stored as its SHA-256 only; it verifies for its scope and sets its last use; another scope, a wrong value
 * or a revoked token does not verify; only its retailer revokes it; the rate limit counts its imports.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createApiToken,
  hashApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
  verifyApiToken,
} from "../../db/queries/api-tokens";
import { createImport } from "../../db/queries/stock-import";
import { apiImportCount } from "../../db/queries/throttle";
import { apiTokens } from "../../db/schema";
import { createRetailer } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(2);
let mine: number;
let theirs: number;

beforeAll(async () => {
  mine = (await createRetailer(db)).retailer.id;
  theirs = (await createRetailer(db)).retailer.id;
});

describe("API tokens", () => {
  it("create: the token is returned once and only its SHA-256 is stored", async () => {
    const { id, token } = await createApiToken(db, {
      retailerId: mine,
      createdBy: null,
      name: "POS",
    });
    expect(token).toMatch(/^wsk_[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row.tokenHash).toBe(hashApiToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.prefix).toBe(token.slice(0, 10));
    expect(row.lastUsedAt).toBeNull();
  });

  it("verify: the right value for its scope verifies (writing nothing; touch sets the last use); anything else does not", async () => {
    const { id, token } = await createApiToken(db, {
      retailerId: mine,
      createdBy: null,
      name: "Nightly",
    });
    expect(await verifyApiToken(db, token)).toEqual({ id, retailerId: mine, createdBy: null });
    expect(
      (await db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0].lastUsedAt,
    ).toBeNull();
    await touchApiToken(db, id);
    expect(
      (await db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0].lastUsedAt,
    ).not.toBeNull();
    expect(await verifyApiToken(db, token, "orders")).toBeNull();
    expect(
      await verifyApiToken(db, token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")),
    ).toBeNull();
    expect(await verifyApiToken(db, "not-a-token")).toBeNull();
  });

  it("revoke: only by its retailer, once; a revoked token no longer verifies", async () => {
    const { id, token } = await createApiToken(db, {
      retailerId: mine,
      createdBy: null,
      name: "Old",
    });
    expect(await revokeApiToken(db, id, theirs)).toBe(false);
    expect(await verifyApiToken(db, token)).not.toBeNull();
    expect(await revokeApiToken(db, id, mine)).toBe(true);
    expect(await revokeApiToken(db, id, mine)).toBe(false);
    expect(await verifyApiToken(db, token)).toBeNull();
    const listed = await listApiTokens(db, mine);
    expect(listed.find((t) => t.id === id)?.revokedAt).not.toBeNull();
    expect((await listApiTokens(db, theirs)).some((t) => t.id === id)).toBe(false);
  });

  it("the rate limit counts the imports sent with the token within the window", async () => {
    const { id } = await createApiToken(db, { retailerId: mine, createdBy: null, name: "Counted" });
    const since = new Date(Date.now() - 60_000);
    expect(await apiImportCount(db, id, since)).toBe(0);
    for (let i = 0; i < 2; i++)
      await createImport(db, {
        retailerId: mine,
        uploadedBy: null,
        apiTokenId: id,
        fileName: "upload.csv",
        fileSha256: "x",
        wholeSurplus: false,
        cells: [["a"]],
      });
    await createImport(db, {
      retailerId: mine,
      uploadedBy: null,
      fileName: "page.csv",
      fileSha256: "x",
      wholeSurplus: false,
      cells: [["a"]],
    });
    expect(await apiImportCount(db, id, since)).toBe(2);
    expect(await apiImportCount(db, id, new Date(Date.now() + 1000))).toBe(0);
  });
});
