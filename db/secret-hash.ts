/**
 * What is stored of a secret handed out once (a password-reset link, an API token, a team invitation, a two-factor
 * sign-in step, a recovery code): its SHA-256 in hex, so the database never holds the secret itself and a lookup
 * hashes what it is shown. One home for it; db/ and app/ both use it.
 */
import { createHash } from "node:crypto";

export function secretHash(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
