import { insertOutboxEmail, type OutboxRow } from "../../db/queries/outbox";
import { db } from "./db.server";
import { getEnv } from "./env.server";

/**
 * E-mail from the web app. Every message is written to the outbox table (staff read it at
 * /admin/outbox). SMTP delivery is not implemented yet: with SMTP_URL set we still only keep the
 * message in the outbox and log a warning once (see ADR 0003).
 */
export type Mail = { to: string; subject: string; text: string; kind: string; dedupeKey?: string };

let warned = false;

export async function sendMail(mail: Mail): Promise<OutboxRow> {
  const env = getEnv();
  if (env.SMTP_URL && !warned) {
    warned = true;
    console.warn("[mail] SMTP_URL is set but SMTP delivery is not implemented; messages stay in the outbox.");
  }
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
