/**
 * The SMTP sender: delivers the outbox through SMTP (nodemailer) when SMTP_URL is set. Every e-mail is
 * first written to `outbox_emails` (by the web app, by activities, or in a workflow step's own transaction),
 * so staff still read it at /admin/outbox; the worker process runs this sender, which claims queued rows,
 * sends each and marks it sent.
 *
 * - Once per row: a row is claimed atomically (queued -> sending, SKIP LOCKED) before it is sent, so two
 *   senders never send the same row, and a sent row is never sent again. A sender that dies between the
 *   SMTP server's answer and the update leaves the row in `sending`; it is claimed again after the lease,
 *   with the same Message-ID (receivers that deduplicate drop the copy).
 * - Retries: a temporary failure (connection refused, 4xx) puts the row back to queued and it is tried
 *   again after a back-off (5 s, 10 s, 20 s, ... up to 5 min) for up to `maxAttempts`; a permanent refusal
 *   (5xx, e.g. an unknown recipient) or the last attempt marks it failed (staff see it in the outbox).
 */
import nodemailer from "nodemailer";
import type { Db } from "../../db/client";
import {
  claimOutboxForDelivery,
  finishOutboxDelivery,
  type OutboxRow,
} from "../../db/queries/outbox";
import { sweepEvery } from "../sweep";

export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
    messageId: string;
    headers: Record<string, string>;
  }): Promise<unknown>;
  close?(): void;
}

export interface SmtpSenderOptions {
  db: Db;
  /** smtp://user:pass@host:port (or smtps://); not needed when `transport` is given. */
  smtpUrl?: string;
  transport?: MailTransport;
  /** From header (MAIL_FROM). */
  from: string;
  pollMs?: number;
  batchSize?: number;
  /** A row left in `sending` this long is claimed again. */
  leaseMs?: number;
  /** Queued rows older than this are not mailed (left in the outbox). */
  maxAgeMs?: number;
  maxAttempts?: number;
  /** First retry delay; doubled on each attempt, at most 5 min. */
  retryBaseMs?: number;
  log?: (msg: string) => void;
}

export interface DeliveryPass {
  sent: number;
  retrying: number;
  failed: number;
}

export interface SmtpSender {
  /** One pass: claims due rows and sends them. */
  deliverPending(): Promise<DeliveryPass>;
  /** Delivers every `pollMs` until stop(). */
  start(): void;
  stop(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 5 * 60_000;

/** host:port of an SMTP URL, without credentials (for logs). */
export function smtpHostOf(smtpUrl: string): string {
  try {
    return new URL(smtpUrl).host;
  } catch {
    return "(invalid SMTP_URL)";
  }
}

function messageIdOf(row: OutboxRow, from: string): string {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? "localhost";
  return `<outbox-${row.id}-${row.createdAt.getTime()}@${domain}>`;
}

/** SMTP's permanent refusals (5xx) are not retried; everything else (network, 4xx) is. */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

export function createSmtpSender(opts: SmtpSenderOptions): SmtpSender {
  const { db, from } = opts;
  const pollMs = opts.pollMs ?? 2_000;
  const batchSize = opts.batchSize ?? 20;
  const leaseMs = opts.leaseMs ?? 10 * 60_000;
  const maxAgeMs = opts.maxAgeMs ?? 2 * 24 * 3600_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const retryBaseMs = opts.retryBaseMs ?? 5_000;
  const log = opts.log ?? ((msg: string) => console.log(`[mail] ${msg}`));
  if (!opts.transport && !opts.smtpUrl)
    throw new Error("createSmtpSender needs smtpUrl or transport");
  const transport: MailTransport =
    opts.transport ?? (nodemailer.createTransport(opts.smtpUrl) as unknown as MailTransport);
  /** Rows waiting for a retry: attempts so far and the earliest next try (this process only). */
  const retries = new Map<number, { attempts: number; notBefore: number }>();

  async function deliver(row: OutboxRow, pass: DeliveryPass): Promise<void> {
    try {
      await transport.sendMail({
        from,
        to: row.toEmail,
        subject: row.subject,
        text: row.bodyText,
        ...(row.bodyHtml ? { html: row.bodyHtml } : {}),
        messageId: messageIdOf(row, from),
        headers: { "X-Outbox-ID": String(row.id), "X-Mail-Kind": row.kind },
      });
      retries.delete(row.id);
      await finishOutboxDelivery(db, row.id, "sent");
      pass.sent += 1;
    } catch (err) {
      const attempts = (retries.get(row.id)?.attempts ?? 0) + 1;
      const why = err instanceof Error ? err.message : String(err);
      if (isPermanent(err) || attempts >= maxAttempts) {
        retries.delete(row.id);
        await finishOutboxDelivery(db, row.id, "failed");
        pass.failed += 1;
        log(`outbox #${row.id} to ${row.toEmail} failed after ${attempts} attempt(s): ${why}`);
        return;
      }
      const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
      retries.set(row.id, { attempts, notBefore: Date.now() + delay });
      await finishOutboxDelivery(db, row.id, "queued");
      pass.retrying += 1;
      log(
        `outbox #${row.id} to ${row.toEmail}: ${why}; retry ${attempts + 1}/${maxAttempts} in ${Math.round(delay / 1000)} s`,
      );
    }
  }

  async function deliverPending(): Promise<DeliveryPass> {
    const pass: DeliveryPass = { sent: 0, retrying: 0, failed: 0 };
    const now = Date.now();
    const skipIds = [...retries].filter(([, r]) => r.notBefore > now).map(([id]) => id);
    const rows = await claimOutboxForDelivery(db, { limit: batchSize, leaseMs, maxAgeMs, skipIds });
    for (const row of rows) await deliver(row, pass);
    return pass;
  }

  // A full batch: more may be due, go again at once.
  const sweep = sweepEvery(
    pollMs,
    async () => {
      const pass = await deliverPending();
      return pass.sent + pass.retrying + pass.failed >= batchSize;
    },
    (why) => log(`delivery pass failed: ${why}`),
  );

  return {
    deliverPending,
    start: () => sweep.start(),
    async stop() {
      await sweep.stop();
      transport.close?.();
    },
  };
}
