/**
 * Messages on an order in Chromium (ADR 0027; docs/product/screens.md, "Messages on an order"): the buyer and
 * the seller of a purchase talk on its page, each the other only as retailer-00{id}; a new message raises the
 * other party's bell on /alerts (opening the order clears it) and e-mails it, at most once an hour per
 * conversation. Contact details are refused with the reason and a 400, nothing saved: a phone number spelled
 * with spaces, an e-mail written with " at ", the sender's own store name. Staff open the conversation from the
 * order card and post in it, marked as staff; both retailers see the mark.
 */
import { and, count, eq, like, sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import { orderMessages, outboxEmails } from "../../db/schema";
import {
  MESSAGE_RATE_LIMIT,
  MESSAGE_RATE_LIMITED,
  MESSAGE_REFUSALS,
  MESSAGE_TOO_LONG,
} from "../../domain/order-messages";
import { SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { createOrderAt, createRmaOf } from "../factories/orders";
import { db, hydrated, launchBrowser, signedIn, uniqueEmail, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const SELLER = { email: uniqueEmail("msg-seller"), storeName: `Message Seller Store ${tok}` };
const BUYER = { email: uniqueEmail("msg-buyer"), storeName: `Message Buyer Store ${tok}` };
const OUTSIDER = { email: uniqueEmail("msg-outsider") };
const staffEmail = uniqueEmail("msg-staff");
let sellerId: number;
let buyerId: number;
let order: { id: number; externalId: string };
let seller: Page;
let buyer: Page;
let staff: Page;
const orderPath = () => `/transaction/buy/${order.id}`;

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `MsgBrand ${tok}` },
    products: [{ sku: `MSG${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
    retailers: {
      seller: { payout: true, storeName: SELLER.storeName, user: { email: SELLER.email } },
      buyer: { payout: true, storeName: BUYER.storeName, user: { email: BUYER.email } },
      outsider: { payout: true, user: { email: OUTSIDER.email } },
    },
  });
  sellerId = world.retailers.seller.retailer.id;
  buyerId = world.retailers.buyer.retailer.id;
  await createStaffUser(db(), { email: staffEmail });
  const created = await createOrderAt(db(), "delivered", {
    providerId: sellerId,
    receiverId: buyerId,
    lines: [{ variationId: world.variation.id, sizes: { S: 2 } }],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  order = { id: created.order.id, externalId: created.order.externalId };
  browser = await launchBrowser();
  seller = await signedIn(browser, SELLER.email, { at: null });
  buyer = await signedIn(browser, BUYER.email, { at: null });
}, 120_000);

const savedMessages = async () =>
  (
    await db().select({ n: count() }).from(orderMessages).where(eq(orderMessages.orderId, order.id))
  )[0].n;

/** The message e-mails of this conversation to a retailer's notice address. */
async function messageMails(retailerId: number) {
  return db()
    .select()
    .from(outboxEmails)
    .where(
      and(
        eq(outboxEmails.kind, "order_message"),
        like(outboxEmails.dedupeKey, `order-message:${order.id}:${retailerId}:%`),
      ),
    );
}

/** The number on the header's Alerts link (docs/product/screens.md, "Menus and banners"). */
const HEADER_COUNT = '.nav-quick a[href="/alerts"] [data-testid="alerts-count"]';

async function openOrder(p: Page, path = orderPath()) {
  await p.goto(url(path));
  await p.getByTestId("conversation").waitFor();
  await hydrated(p);
}

/** Types and sends a message; returns the POST's status once the page has the answer. */
async function send(p: Page, text: string): Promise<number> {
  await p.getByTestId("message-input").fill(text);
  const [res] = await Promise.all([
    p.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/messages/"),
    ),
    p.getByTestId("message-send").click(),
  ]);
  await p.waitForFunction(
    () =>
      !(document.querySelector("[data-testid=message-send]") as HTMLButtonElement | null)?.disabled,
  );
  return res.status();
}

async function waitForMessages(p: Page, n: number) {
  await p.waitForFunction(
    (k) => document.querySelectorAll("[data-testid=message]").length === k,
    n,
    { timeout: 15_000 },
  );
}

describe("messages on a purchase", () => {
  it("the buyer writes; the seller's bell rings, the e-mail goes, and opening the order clears the bell", async () => {
    await openOrder(buyer);
    await expect(buyer.getByTestId("conversation-empty").textContent()).resolves.toBe(
      "No messages yet.",
    );
    expect(
      await send(buyer, "Hello! Can you confirm the two pairs ship\nin the original boxes?"),
    ).toBe(200);
    await waitForMessages(buyer, 1);
    const mine = buyer.getByTestId("message").first();
    await expect(mine.getByTestId("message-author").textContent()).resolves.toBe("You");
    await expect(mine.getByTestId("message-body").textContent()).resolves.toBe(
      "Hello! Can you confirm the two pairs ship\nin the original boxes?",
    );
    await expect(buyer.getByTestId("message-input").inputValue()).resolves.toBe("");

    await seller.goto(url("/alerts"));
    await expect(seller.getByTestId("bell-messages").textContent()).resolves.toBe("🔔 1");
    // The header's Alerts link counts the conversation with news, on every page.
    await expect(seller.locator(HEADER_COUNT).textContent()).resolves.toBe("1");
    const alert = seller.locator(`[data-testid=message-alert][data-order="${order.externalId}"]`);
    await expect(alert.getByTestId("message-alert-other").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await expect(alert.textContent()).resolves.toContain("1 new message");
    expect(await seller.content()).not.toContain(BUYER.storeName);

    const mails = await messageMails(sellerId);
    expect(mails).toHaveLength(1);
    expect(mails[0].toEmail).toBe(await retailerNoticeAddress(db(), sellerId));
    expect(mails[0].subject).toBe(`New message about order ${order.externalId}`);
    expect(mails[0].bodyText).toContain(`retailer-00${buyerId} sent you a message`);
    expect(mails[0].bodyText).toContain(orderPath());
    expect(mails[0].bodyText).not.toContain(BUYER.storeName);

    await Promise.all([
      seller.waitForURL((u) => u.pathname === orderPath()),
      alert.getByTestId("message-alert-link").click(),
    ]);
    await seller.getByTestId("conversation").waitFor();
    const theirs = seller.getByTestId("message").first();
    await expect(theirs.getByTestId("message-author").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await seller.goto(url("/alerts"));
    expect(await seller.getByTestId("message-alerts").count()).toBe(0);
    expect(await seller.locator(HEADER_COUNT).count()).toBe(0);
  });

  it("the seller answers: the buyer's bell rings; a second message within the hour mails no one again", async () => {
    await openOrder(seller);
    expect(await send(seller, "Yes, original boxes. Shipping Monday.")).toBe(200);
    await waitForMessages(seller, 2);
    await buyer.goto(url("/alerts"));
    await expect(buyer.getByTestId("bell-messages").textContent()).resolves.toBe("🔔 1");
    expect(await messageMails(buyerId)).toHaveLength(1);

    await openOrder(buyer);
    await waitForMessages(buyer, 2);
    expect(await send(buyer, "Great, thanks.")).toBe(200);
    await waitForMessages(buyer, 3);
    expect(await messageMails(sellerId), "one e-mail an hour per conversation").toHaveLength(1);

    // An hour later the next message mails again.
    await db()
      .update(outboxEmails)
      .set({ createdAt: sql`${outboxEmails.createdAt} - interval '61 minutes'` })
      .where(like(outboxEmails.dedupeKey, `order-message:${order.id}:${sellerId}:%`));
    expect(await send(buyer, "One more thing: the invoice can go in the box.")).toBe(200);
    await waitForMessages(buyer, 4);
    expect(await messageMails(sellerId)).toHaveLength(2);
  });

  it("contact details are refused with the reason and a 400, and nothing is saved", async () => {
    await openOrder(buyer);
    const before = await savedMessages();
    const cases: [string, string][] = [
      ["Call me on 3 1 2 5 5 5 0 1 9 9 tomorrow", MESSAGE_REFUSALS.phone],
      ["Write to buyer at gmail dot com", MESSAGE_REFUSALS.email],
      [`This is ${BUYER.storeName} here`, MESSAGE_REFUSALS.name],
      ["See www.example-shop.com", MESSAGE_REFUSALS.url],
    ];
    for (const [text, reason] of cases) {
      expect(await send(buyer, text), text).toBe(400);
      await expect(buyer.getByTestId("message-error").textContent()).resolves.toBe(reason);
      // What was refused stays in the field to be corrected.
      await expect(buyer.getByTestId("message-input").inputValue()).resolves.toBe(text);
    }
    // A pasted text over the limit is kept whole and counted as it is typed; the server refuses it.
    const long = "Please double-box the shoes. ".repeat(40).slice(0, 1050);
    await buyer.getByTestId("message-input").fill(long);
    await expect(buyer.getByTestId("message-input").inputValue()).resolves.toBe(long);
    await expect(buyer.getByTestId("message-count").textContent()).resolves.toBe(
      "1050 / 1000 characters (50 too many: shorten it before you send it)",
    );
    expect(await send(buyer, long)).toBe(400);
    await expect(buyer.getByTestId("message-error").textContent()).resolves.toBe(MESSAGE_TOO_LONG);
    await buyer.getByTestId("message-input").fill("Short.");
    await expect(buyer.getByTestId("message-count").textContent()).resolves.toBe(
      "6 / 1000 characters",
    );
    expect(await savedMessages()).toBe(before);
    await buyer.reload();
    expect(await buyer.content()).not.toContain("3 1 2 5 5 5 0 1 9 9");

    // The same through a plain form post; an empty one and an outsider's too.
    const http = new HttpClient();
    await http.signIn(BUYER.email, DEFAULT_TEST_PASSWORD);
    const phone = await http.postForm(`/messages/buy/${order.id}`, {
      body: "five five five one two three four five six seven",
    });
    expect(phone.status).toBe(400);
    expect((await http.postForm(`/messages/buy/${order.id}`, { body: "   " })).status).toBe(400);
    expect(
      (await http.postForm(`/messages/buy/${order.id}`, { body: "x".repeat(1001) })).status,
    ).toBe(400);
    const outsider = new HttpClient();
    await outsider.signIn(OUTSIDER.email, DEFAULT_TEST_PASSWORD);
    expect((await outsider.postForm(`/messages/buy/${order.id}`, { body: "hello" })).status).toBe(
      404,
    );
    expect((await outsider.get(`/messages/buy/${order.id}`)).status).toBe(404);
    expect(await savedMessages()).toBe(before);
  });

  it("staff open the conversation from the order card and post, marked as staff; both retailers see the mark and the bell", async () => {
    staff = await signedIn(browser, staffEmail, { at: null });
    await staff.goto(url(`/admin/active-transactions/all?order=${order.id}`));
    await Promise.all([
      staff.waitForURL((u) => u.pathname === `/messages/buy/${order.id}`),
      staff.getByTestId("card-messages").first().click(),
    ]);
    await staff.getByTestId("conversation").waitFor();
    await hydrated(staff);
    const n = await staff.getByTestId("message").count();
    expect(n).toBe(4);
    expect(await send(staff, "Staff here: the label is re-issued, please ship by Monday.")).toBe(
      200,
    );
    await waitForMessages(staff, 5);
    for (const p of [buyer, seller]) {
      await p.goto(url("/alerts"));
      await p.getByTestId("bell-messages").waitFor();
      await openOrder(p);
      const last = p.getByTestId("message").last();
      await expect(last.getAttribute("data-staff")).resolves.toBe("1");
      await expect(last.getByTestId("message-author").textContent()).resolves.toBe("Staff");
      await expect(last.getByTestId("message-staff").textContent()).resolves.toBe("Staff");
    }
  });
  it("a user may post 10 messages in 10 minutes: the next is refused with a 429 and the reason, nothing saved", async () => {
    const http = new HttpClient();
    await http.signIn(SELLER.email, DEFAULT_TEST_PASSWORD);
    const posted = (
      await db()
        .select({ n: count() })
        .from(orderMessages)
        .where(
          and(eq(orderMessages.orderId, order.id), eq(orderMessages.authorRetailerId, sellerId)),
        )
    )[0].n;
    for (let i = posted; i < MESSAGE_RATE_LIMIT; i++) {
      expect(
        (
          await http.postForm(`/messages/buy/${order.id}`, {
            body: `Update number ${i + 1}: packing now.`,
          })
        ).status,
      ).toBe(200);
    }
    const before = await savedMessages();
    await openOrder(seller);
    expect(await send(seller, "And one more update.")).toBe(429);
    await expect(seller.getByTestId("message-error").textContent()).resolves.toBe(
      MESSAGE_RATE_LIMITED,
    );
    expect(await savedMessages()).toBe(before);
  });
  it("an RMA has its own conversation on the RMA page: the perpetrator's bell links there", async () => {
    const rma = await createRmaOf(db(), order.id, {
      victimId: buyerId,
      contact: {
        name: "Pat Buyer",
        email: BUYER.email,
        phone: "+1-217-555-0100",
        packingSlipName: "Returns",
      },
    });
    await openOrder(buyer, `/rma/${rma.rmaId}`);
    await expect(buyer.getByTestId("conversation-empty").textContent()).resolves.toBe(
      "No messages yet.",
    );
    // The other conversation (the purchase's) does not show here.
    expect(await buyer.getByTestId("message").count()).toBe(0);
    expect(await send(buyer, "Two pairs came with the wrong colour.")).toBe(200);
    await waitForMessages(buyer, 1);
    await seller.goto(url("/alerts"));
    const alert = seller.locator(`[data-testid=message-alert][data-order="${rma.externalId}"]`);
    await expect(alert.getByTestId("message-alert-other").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await Promise.all([
      seller.waitForURL((u) => u.pathname === `/rma/${rma.rmaId}`),
      alert.getByTestId("message-alert-link").click(),
    ]);
    await seller.getByTestId("conversation").waitFor();
    await expect(
      seller.getByTestId("message").first().getByTestId("message-body").textContent(),
    ).resolves.toBe("Two pairs came with the wrong colour.");
  });
});
