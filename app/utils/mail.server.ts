import { insertOutboxEmail, type OutboxRow } from "../../db/queries/outbox";
import type { NoticeLinks } from "../../domain/messages";
import { db } from "./db.server";
import { getEnv } from "./env.server";

/**
 * E-mail from the web app. Every message is written to the outbox table (staff read it at /admin/outbox) as
 * queued; with SMTP_URL set, the worker's SMTP sender (activities/mail/smtp.ts) delivers it within seconds
 * and marks it sent. Without SMTP_URL it stays in the outbox only.
 */
export type Mail = { to: string; subject: string; text: string; kind: string; dedupeKey?: string };

export async function sendMail(mail: Mail): Promise<OutboxRow> {
  return insertOutboxEmail(db, {
    toEmail: mail.to,
    subject: mail.subject,
    bodyText: mail.text,
    kind: mail.kind,
    dedupeKey: mail.dedupeKey ?? null,
    status: "queued",
  });
}

/** Absolute URL of an app path (links in e-mails). */
export function absoluteUrl(path: string): string {
  return new URL(path, getEnv().APP_ORIGIN).toString();
}

/** What the account notices link to (db/queries/retailer-status.ts writes them). */
export function noticeLinks(): NoticeLinks {
  return { signInUrl: absoluteUrl("/signin"), supportEmail: getEnv().RETAILER_SUPPORT_EMAIL };
}
