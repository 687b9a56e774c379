/**
 * Staff retailer administration (ADR 0018): who may use these screens, and the e-mails they send through
 * the outbox (a password reset for a contact, a welcome e-mail for a bulk-uploaded retailer).
 *
 * Staff never see a token: it is generated here, only its hash is stored, and the link goes only into the
 * e-mail (the outbox row, delivered to the contact).
 */
import { replaceResetToken } from "../../db/queries/users";
import { requirePermission, type StaffContext } from "./permissions.server";
import { db } from "./db.server";
import { absoluteUrl } from "./mail.server";
import { resetLink, sendResetMail } from "./reset-mail.server";
import { generateResetToken, hashResetToken, RESET_TOKEN_TTL_MS } from "./password.server";

/**
 * The gate of every retailer-administration page and action (retailer admin, bulk upload, reports, map):
 * staff whose permissions map has "retailer" (ADR 0020); other staff get a 403, non-staff /error/.
 */
export async function requireRetailerAdmin(request: Request): Promise<StaffContext> {
  return requirePermission(request, "retailer");
}

/** A welcome link stays valid for a week (the retailer may open it days later); a reset link for an hour. */
export const WELCOME_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A new one-time password link for the user (earlier links stop working): the URL, never shown to staff. */
export async function newPasswordLink(userId: number, ttlMs: number): Promise<string> {
  const token = generateResetToken();
  await replaceResetToken(db, userId, hashResetToken(token), new Date(Date.now() + ttlMs));
  return resetLink(userId, token);
}

/** "Send PW reset" of the Contacts tab: the reset e-mail (and link) the reset page sends, as sent by staff. */
export async function sendStaffPasswordReset(user: { id: number; email: string }): Promise<void> {
  await sendResetMail(user.email, await newPasswordLink(user.id, RESET_TOKEN_TTL_MS), "staff");
}

/** The welcome e-mail text of a bulk-uploaded retailer's login (the link sets the first password). */
export function welcomeMailText(storeName: string, firstName: string, link: string): string {
  return [
    `Hello ${firstName || storeName},`,
    "",
    `${storeName} now has a retailer account on Wholesale Exchange, the marketplace where authorized retailers list unsold new stock, request what they need and trade with one another.`,
    "",
    "Open this link to choose your password (it works once, for 7 days):",
    "",
    link,
    "",
    `Afterwards sign in at ${absoluteUrl("/signin")}.`,
  ].join("\n");
}
