/**
 * Settings → API tokens, server half (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"): the
 * retailer's tokens, and one function per intent: create (the token returned once), revoke.
 */
import { data } from "@remix-run/node";
import { TokenNameSchema, TokenRevokeSchema } from "../../domain/api-tokens";
import { createApiToken, listApiTokens, revokeApiToken } from "../../db/queries/api-tokens";
import type { AuthContext } from "~/utils/auth.server";
import type { RetailerRow } from "../../db/queries/retailers";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";

type Auth = AuthContext & { retailer: RetailerRow };
const at = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace("T", " ") + " UTC" : null);

export async function apiTokensLoader(auth: Auth) {
  const tokens = await listApiTokens(db, auth.retailer.id);
  return {
    store: auth.retailer.id,
    tokens: tokens.map((t) => ({
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      createdAt: at(t.createdAt)!,
      lastUsedAt: at(t.lastUsedAt),
      revokedAt: at(t.revokedAt),
    })),
  };
}

export async function apiTokensAction(request: Request, auth: Auth) {
  const form = await readFormData(request);
  switch (form.get("intent")) {
    case "create":
      return createToken(form, auth);
    case "revoke":
      return revokeToken(form, auth);
    default:
      return data({ result: formError("Unknown action."), created: null }, { status: 400 });
  }
}

async function createToken(form: FormData, auth: Auth) {
  const submission = parseSubmission(form, { schema: TokenNameSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), created: null }, { status: 400 });
  const { token } = await createApiToken(db, {
    retailerId: auth.retailer.id,
    createdBy: auth.user.id,
    name: submission.value.name,
  });
  return {
    result: submission.reply({ resetForm: true }),
    created: { name: submission.value.name, token },
  };
}

async function revokeToken(form: FormData, auth: Auth) {
  const submission = parseSubmission(form, { schema: TokenRevokeSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), created: null }, { status: 400 });
  if (!(await revokeApiToken(db, submission.value.token, auth.retailer.id)))
    return data(
      { result: submission.reply({ formErrors: ["No such token to revoke."] }), created: null },
      { status: 404 },
    );
  return { result: submission.reply(), created: null };
}
