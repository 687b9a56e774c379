/**
 * The SMTP sender (activities/mail/smtp.ts) against a real SMTP server started in the test (smtp-server,
 * on a random local port) and the test database: outbox rows are delivered through SMTP and marked sent,
 * once each even with two senders at work, temporary failures are retried and permanent ones fail the row.
 * The recipients carry a unique token: the shared test database also holds other files' queued rows.
 */
import type { AddressInfo } from "node:net";
import { and, eq, inArray, lt } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpSender } from "../../activities/mail/smtp";
import { insertOutboxEmail } from "../../db/queries/outbox";
import { outboxEmails } from "../../db/schema";
import { uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb();

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
const refusals = new Map<string, number>(); // recipient -> temporary refusals still to give
let server: SMTPServer;
let smtpUrl = "";

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("bounce-"))
        return callback(Object.assign(new Error("no such user"), { responseCode: 550 }));
      const left = refusals.get(address.address) ?? 0;
      if (left > 0) {
        refusals.set(address.address, left - 1);
        return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => (raw += d));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  // The test database keeps the queued outbox rows of every earlier run and of the other test files (nothing
  // delivers them there), and a sender claims the oldest rows first, 20 at a time: after enough runs of the
  // suite on one machine, this file's rows were no longer in its senders' first batch. The backlog already
  // there is made older than a sender's maxAge (an old backlog is never sent), so each test's rows come first.
  await db
    .update(outboxEmails)
    .set({ createdAt: new Date(Date.now() - 10 * 24 * 3600_000) })
    .where(and(eq(outboxEmails.status, "queued"), lt(outboxEmails.createdAt, new Date())));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const quiet = () => {};
const FROM = "Wholesale Exchange <no-reply@wholesale.example>";
const rowsOf = (ids: number[]) =>
  db.select().from(outboxEmails).where(inArray(outboxEmails.id, ids)).orderBy(outboxEmails.id);
const receivedBy = (to: string) => received.filter((m) => m.to.includes(to));

async function queue(to: string, subject: string) {
  return insertOutboxEmail(db, {
    toEmail: to,
    subject,
    bodyText: `Hello ${to}\nhttp://localhost:3000/signin`,
    kind: "test",
    dedupeKey: `smtp-test:${to}`,
  });
}

describe("SMTP sender", () => {
  it("delivers queued outbox rows through SMTP and marks them sent, each exactly once", async () => {
    const t = uniqueToken();
    const a = await queue(`a-${t}@store.test`, `First ${t}`);
    const b = await queue(`b-${t}@store.test`, `Second ${t}`);
    expect(a.status).toBe("queued");
    const one = createSmtpSender({ db, smtpUrl, from: FROM, log: quiet });
    const two = createSmtpSender({ db, smtpUrl, from: FROM, log: quiet });
    // Two senders at once (two workers): never the same row twice.
    await Promise.all([one.deliverPending(), two.deliverPending(), one.deliverPending()]);
    await one.deliverPending();

    expect(receivedBy(a.toEmail)).toHaveLength(1);
    expect(receivedBy(b.toEmail)).toHaveLength(1);
    const mail = receivedBy(a.toEmail)[0];
    expect(mail.from).toBe("no-reply@wholesale.example");
    expect(mail.raw).toContain(`Subject: First ${t}`);
    expect(mail.raw).toContain(`Hello ${a.toEmail}`);
    expect(mail.raw).toMatch(
      new RegExp(`Message-ID: <outbox-${a.id}-\\d+@wholesale\\.example>`, "i"),
    );
    expect(mail.raw).toMatch(new RegExp(`^X-Outbox-ID: ${a.id}\r?$`, "im"));

    const rows = await rowsOf([a.id, b.id]);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    for (const r of rows) expect(r.sentAt).toBeInstanceOf(Date);
    await Promise.all([one.stop(), two.stop()]);
  });

  it("retries a temporary failure, fails a permanent refusal, and gives up after the last attempt", async () => {
    const t = uniqueToken();
    const flaky = await queue(`flaky-${t}@store.test`, `Flaky ${t}`);
    const bounce = await queue(`bounce-${t}@store.test`, `Bounce ${t}`);
    const never = await queue(`never-${t}@store.test`, `Never ${t}`);
    refusals.set(flaky.toEmail, 1);
    refusals.set(never.toEmail, 99);
    const sender = createSmtpSender({
      db,
      smtpUrl,
      from: FROM,
      retryBaseMs: 0,
      maxAttempts: 3,
      log: quiet,
    });

    await sender.deliverPending();
    let rows = await rowsOf([flaky.id, bounce.id, never.id]);
    expect(rows.map((r) => r.status)).toEqual(["queued", "failed", "queued"]);
    expect(receivedBy(flaky.toEmail)).toHaveLength(0);

    await sender.deliverPending(); // flaky: accepted now; never: attempt 2
    await sender.deliverPending(); // never: attempt 3, the last
    rows = await rowsOf([flaky.id, bounce.id, never.id]);
    expect(rows.map((r) => r.status)).toEqual(["sent", "failed", "failed"]);
    expect(receivedBy(flaky.toEmail)).toHaveLength(1);
    expect(receivedBy(bounce.toEmail)).toHaveLength(0);
    expect(receivedBy(never.toEmail)).toHaveLength(0);
    await sender.stop();
  });

  it("keeps rows queued while the SMTP server is down, and waits for the back-off before retrying", async () => {
    const t = uniqueToken();
    const row = await queue(`down-${t}@store.test`, `Down ${t}`);
    const down = createSmtpSender({
      db,
      smtpUrl: "smtp://127.0.0.1:9",
      from: FROM,
      retryBaseMs: 60_000,
      log: quiet,
    });
    await down.deliverPending();
    expect((await rowsOf([row.id]))[0].status).toBe("queued");
    // Within its back-off this sender does not claim the row again.
    const pass = await down.deliverPending();
    expect(pass).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect((await rowsOf([row.id]))[0].status).toBe("queued");
    await down.stop();
    // Another sender (the server is back) delivers it.
    const up = createSmtpSender({ db, smtpUrl, from: FROM, log: quiet });
    await up.deliverPending();
    expect((await rowsOf([row.id]))[0].status).toBe("sent");
    expect(receivedBy(row.toEmail)).toHaveLength(1);
    await up.stop();
  });

  it("sends a row again only when its sender died mid-send (claim older than the lease), and never an old backlog", async () => {
    const t = uniqueToken();
    const stuck = await queue(`stuck-${t}@store.test`, `Stuck ${t}`);
    const busy = await queue(`busy-${t}@store.test`, `Busy ${t}`);
    const old = await queue(`old-${t}@store.test`, `Old ${t}`);
    await db
      .update(outboxEmails)
      .set({ status: "sending", sentAt: new Date(Date.now() - 3600_000) })
      .where(eq(outboxEmails.id, stuck.id));
    await db
      .update(outboxEmails)
      .set({ status: "sending", sentAt: new Date() })
      .where(eq(outboxEmails.id, busy.id));
    await db
      .update(outboxEmails)
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 3600_000) })
      .where(eq(outboxEmails.id, old.id));
    const sender = createSmtpSender({ db, smtpUrl, from: FROM, leaseMs: 10 * 60_000, log: quiet });
    await sender.deliverPending();
    const rows = await rowsOf([stuck.id, busy.id, old.id]);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sending", "queued"]);
    expect(receivedBy(stuck.toEmail)).toHaveLength(1);
    expect(receivedBy(busy.toEmail)).toHaveLength(0);
    expect(receivedBy(old.toEmail)).toHaveLength(0);
    await sender.stop();
  });

  it("start() delivers in the background until stop()", async () => {
    const t = uniqueToken();
    const sender = createSmtpSender({ db, smtpUrl, from: FROM, pollMs: 50, log: quiet });
    sender.start();
    const row = await queue(`loop-${t}@store.test`, `Loop ${t}`);
    for (let i = 0; i < 100 && receivedBy(row.toEmail).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    await sender.stop();
    expect(receivedBy(row.toEmail)).toHaveLength(1);
    expect((await rowsOf([row.id]))[0].status).toBe("sent");
  });
});
