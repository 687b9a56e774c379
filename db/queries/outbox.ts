import { and, desc, eq, gt, inArray, lt, notInArray, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { outboxEmails } from "../schema";

export type OutboxRow = typeof outboxEmails.$inferSelect;

export type NewOutboxEmail = {
  toEmail: string;
  subject: string;
  bodyText: string;
  bodyHtml?: string | null;
  kind: string;
  /** Makes a retried send a no-op. */
  dedupeKey?: string | null;
  status?: OutboxStatus;
};

/**
 * queued: waiting for the SMTP sender (or kept for staff when there is no SMTP); sending: claimed by a
 * sender (sent_at holds the claim time until it is sent); sent; failed: refused by the SMTP server or out
 * of retries.
 */
export type OutboxStatus = "queued" | "sending" | "sent" | "failed";

/** Inserts an e-mail; with a dedupe key already used, returns the existing row instead. */
export async function insertOutboxEmail(db: DbOrTx, email: NewOutboxEmail): Promise<OutboxRow> {
  const rows = await db
    .insert(outboxEmails)
    .values({
      toEmail: email.toEmail,
      subject: email.subject,
      bodyText: email.bodyText,
      bodyHtml: email.bodyHtml ?? null,
      kind: email.kind,
      dedupeKey: email.dedupeKey ?? null,
      status: email.status ?? "queued",
      sentAt: email.status === "sent" ? new Date() : null,
    })
    .onConflictDoNothing()
    .returning();
  if (rows[0]) return rows[0];
  const existing = await db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.dedupeKey, email.dedupeKey ?? ""))
    .limit(1);
  if (!existing[0]) throw new Error("outbox insert conflicted but no row found");
  return existing[0];
}

/**
 * Claims up to `limit` rows for delivery, oldest first, and returns them: queued rows created in the last
 * `maxAgeMs` (an older backlog is left for staff to read, never mailed late), plus rows left in `sending`
 * longer than `leaseMs` (their sender died mid-send). The claim is one UPDATE over rows locked with SKIP
 * LOCKED, so concurrent senders never get the same row. `skipIds`: rows waiting for a retry.
 */
export async function claimOutboxForDelivery(
  db: Db,
  opts: { limit: number; leaseMs: number; maxAgeMs: number; skipIds?: number[] },
): Promise<OutboxRow[]> {
  const now = Date.now();
  const due = db
    .select({ id: outboxEmails.id })
    .from(outboxEmails)
    .where(
      and(
        or(
          and(
            eq(outboxEmails.status, "queued"),
            gt(outboxEmails.createdAt, new Date(now - opts.maxAgeMs)),
          ),
          and(
            eq(outboxEmails.status, "sending"),
            lt(outboxEmails.sentAt, new Date(now - opts.leaseMs)),
          ),
        ),
        opts.skipIds?.length ? notInArray(outboxEmails.id, opts.skipIds) : undefined,
      ),
    )
    .orderBy(outboxEmails.id)
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(outboxEmails)
    .set({ status: "sending", sentAt: new Date(now) })
    .where(inArray(outboxEmails.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** After a claimed row's delivery: sent, back to queued (a retry), or failed. Only a row still in `sending`. */
export async function finishOutboxDelivery(
  db: Db,
  id: number,
  status: Exclude<OutboxStatus, "sending">,
): Promise<void> {
  await db
    .update(outboxEmails)
    .set({ status, sentAt: status === "sent" ? new Date() : null })
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "sending")));
}

/** Newest first. */
export async function listOutbox(
  db: Db,
  opts: { limit?: number; toEmail?: string } = {},
): Promise<OutboxRow[]> {
  const q = db.select().from(outboxEmails);
  const filtered = opts.toEmail
    ? q.where(sql`lower(${outboxEmails.toEmail}) = ${opts.toEmail.trim().toLowerCase()}`)
    : q;
  return filtered
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(opts.limit ?? 100);
}
