/**
 * The stock-import API's rules (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"): its
 * messages, the Authorization header's shape, the token name's schema and the rate limit. Pure.
 */
import { z } from "zod";

export const STOCK_IMPORT_API_PATH = "/api/stock-import";

export const API_LIMITS = Object.freeze({
  /** Imports (previews and confirmations) per token per window. */
  importsPerWindow: 30,
  windowMs: 60 * 60 * 1000,
});

export const API_MSG = Object.freeze({
  noToken: 'Send your API token as "Authorization: Bearer <token>".',
  badToken: "This API token is not valid: it is unknown, revoked, or not for this use.",
  otherStore: "This API token is not for this store.",
  otherRoute: `API tokens are accepted only by POST ${STOCK_IMPORT_API_PATH}.`,
  postOnly: `Send the file with POST ${STOCK_IMPORT_API_PATH}.`,
  tooMany: `Too many imports with this token: at most ${API_LIMITS.importsPerWindow} an hour. Try again later.`,
  inactive: "Your store is not active: its stock cannot be imported.",
  alreadyConfirmed: "This import was already confirmed.",
  nameRequired: "Give the token a name (what will use it).",
  nameTooLong: "A token's name has at most 60 characters.",
  serverError: "A server error stopped the import. Try again later.",
});

/** The token of an "Authorization: Bearer <token>" header; null when the header is absent or malformed. */
export function bearerToken(header: string | null | undefined): string | null {
  const m = /^Bearer ([A-Za-z0-9_-]{16,200})$/.exec(header ?? "");
  return m ? m[1] : null;
}

export const TokenNameSchema = z.object({
  name: z
    .string({ required_error: API_MSG.nameRequired })
    .trim()
    .min(1, API_MSG.nameRequired)
    .max(60, API_MSG.nameTooLong),
});

export const TokenRevokeSchema = z.object({ token: z.coerce.number().int().positive() });
