/**
 * Signing of carrier webhooks (the sender side; the app verifies with its own node:crypto helper, and a
 * unit test proves both agree). Scheme (EasyPost's): header `X-Hmac-Signature: hmac-sha256-hex=<hex>`,
 * <hex> = lowercase hex HMAC-SHA256(secret = CARRIER_WEBHOOK_SECRET, message = the raw body bytes).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { CARRIER_SIGNATURE_HEADER, CARRIER_SIGNATURE_PREFIX } from "../../domain/carrier-events";

export { CARRIER_SIGNATURE_HEADER, CARRIER_SIGNATURE_PREFIX };

/** The header value for a raw body. */
export function signCarrierEvent(rawBody: string | Buffer, secret: string): string {
  if (!secret) throw new Error("a carrier webhook secret is required");
  return `${CARRIER_SIGNATURE_PREFIX}${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** True when `header` is the signature of exactly this raw body (constant-time comparison). */
export function verifyCarrierSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
): boolean {
  if (!header || !secret || !header.startsWith(CARRIER_SIGNATURE_PREFIX)) return false;
  const given = header.slice(CARRIER_SIGNATURE_PREFIX.length).trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, "hex"), expected);
}
