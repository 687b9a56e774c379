/**
 * The password-reset e-mail, written once: sent by the reset page (the user asked) and by the Contacts tab of
 * staff's retailer admin (staff sent it). Both carry a one-time link to /password-reset/:uid/:token that works
 * for an hour (docs/product/screens.md, "Sign-in, registration and password reset").
 */
import { absoluteUrl, sendMail } from "./mail.server";

/** Who asked for the link: the user on the reset page, staff for the user, or staff inviting a new staff user. */
export type ResetAskedBy = "user" | "staff" | "invite";

const OPENING: Record<ResetAskedBy, string[]> = {
  user: [
    "Someone (hopefully you) asked to reset the password of your Wholesale Exchange account.",
    "Open this link to choose a new password. It works once, for one hour:",
  ],
  staff: [
    "Our support team sent you this link to choose a new password for your Wholesale Exchange account.",
    "It works once, for one hour:",
  ],
  invite: [
    "You have been invited to the staff of Wholesale Exchange.",
    "Open this link to choose your password. It works once, for 7 days:",
  ],
};

/** The link that sets a new password with `token` (only its hash is stored). */
export function resetLink(userId: number, token: string): string {
  return absoluteUrl(`/password-reset/${userId}/${token}`);
}

/** The e-mail's text around `link`. */
export function resetMailText(link: string, askedBy: ResetAskedBy): string {
  return [
    "Hello,",
    "",
    ...OPENING[askedBy],
    "",
    link,
    "",
    "If you did not ask for this, you can ignore this e-mail; your password stays the same.",
  ].join("\n");
}

/** Queues the reset e-mail with `link` to the user (through the outbox). */
export async function sendResetMail(
  to: string,
  link: string,
  askedBy: ResetAskedBy,
): Promise<void> {
  const subject =
    askedBy === "invite"
      ? "Set your Wholesale Exchange staff password"
      : "Reset your Wholesale Exchange password";
  await sendMail({ to, subject, kind: "password_reset", text: resetMailText(link, askedBy) });
}

/**
 * A mail's text with every password link's token replaced: what /admin/outbox shows. The link is a credential
 * for its addressee alone (staff would otherwise read a new staff user's invitation, or a retailer's reset).
 */
export function hideResetTokens(text: string): string {
  return text.replace(/(\/password-reset\/\d+\/)[A-Za-z0-9_-]+/g, "$1[hidden]");
}
