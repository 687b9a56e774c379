/**
 * The carrier webhook contract in one import for the sender side: the event types and schema (pure, in
 * domain/carrier-events.ts, which the app's webhook endpoint imports too) and the HMAC signing helpers
 * (node:crypto, activities/carrier/signature.ts; the app verifies with its own app/utils helper).
 */
export * from "../../domain/carrier-events";
export { signCarrierEvent, verifyCarrierSignature } from "./signature";
