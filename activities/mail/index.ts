/**
 * Mail from activities: every message is written to the outbox table (staff read it at /admin/outbox); with
 * SMTP_URL set the worker's SMTP sender (./smtp.ts) delivers queued rows and marks them sent. A dedupe key
 * (workflow id + step) makes a retried activity a no-op.
 */
import type { Db } from "../../db/client";
import { insertOutboxEmail } from "../../db/queries/outbox";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  kind: string;
  dedupeKey: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ id: number }>;
}

export function createOutboxMailer(db: Db): Mailer {
  return {
    async send(mail) {
      const row = await insertOutboxEmail(db, {
        toEmail: mail.to,
        subject: mail.subject,
        bodyText: mail.text,
        kind: mail.kind,
        dedupeKey: mail.dedupeKey,
        status: "queued",
      });
      return { id: row.id };
    },
  };
}
