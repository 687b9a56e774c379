import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
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
  status?: "queued" | "sent" | "failed";
};

/** Inserts an e-mail; with a dedupe key already used, returns the existing row instead. */
export async function insertOutboxEmail(db: Db, email: NewOutboxEmail): Promise<OutboxRow> {
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
  const existing = await db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, email.dedupeKey ?? "")).limit(1);
  if (!existing[0]) throw new Error("outbox insert conflicted but no row found");
  return existing[0];
}

export async function markOutboxSent(db: Db, id: number): Promise<void> {
  await db.update(outboxEmails).set({ status: "sent", sentAt: new Date() }).where(eq(outboxEmails.id, id));
}

/** Newest first. */
export async function listOutbox(db: Db, opts: { limit?: number; toEmail?: string } = {}): Promise<OutboxRow[]> {
  const q = db.select().from(outboxEmails);
  const filtered = opts.toEmail ? q.where(sql`lower(${outboxEmails.toEmail}) = ${opts.toEmail.trim().toLowerCase()}`) : q;
  return filtered.orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id)).limit(opts.limit ?? 100);
}
