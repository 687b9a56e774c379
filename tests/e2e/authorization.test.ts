/**
 * Authorization at the HTTP level: a retailer cannot read, edit or delete another
 * retailer's listing, request or cart by changing an id in a URL or a form (404), nor see brands it is not
 * authorized for. Also: staff acting as a retailer act as that retailer (same 404s); staff browsing as
 * admin may open any listing and their edit is a correction; bad input on the edit forms is a 400 with the
 * spec's message and the values kept; the pending-transaction confirmation is a 409 until pendingok=on.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "./harness";
import { carts, listingRequests, listings, orders } from "../../db/schema";
import {
  LISTING_PENDING_TRANSACTIONS,
  MODIFIED_REASON_REQUIRED_LISTING,
  MODIFIED_REASON_REQUIRED_REQUEST,
} from "../../domain/messages";
import { BUY_STATES } from "../../domain/states";
import { SIZE_COUNT_MESSAGE } from "../../app/utils/item-edit-schema";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest, type ListingRow } from "../factories/listings";
import { createOrder } from "../factories/orders";
import { uniqueToken } from "../factories/util";
import { DEFAULT_TEST_PASSWORD } from "../factories";
import { freshEmail, htmlDecode, HttpClient, inputValue, leakedTrace } from "./http";

const tok = uniqueToken().toUpperCase();

const emailA = freshEmail("authz-a");
const emailB = freshEmail("authz-b");
const emailStaff = freshEmail("authz-staff");
let a: { id: number; storeName: string };
let b: { id: number; storeName: string };
let brandShared: { id: number; name: string };
let brandOnlyB: { id: number; name: string };
let listingA: ListingRow;
let listingB: ListingRow;
let listingBOnlyBrand: ListingRow;
let requestA: number;
let requestB: number;
const clientA = new HttpClient();
const clientB = new HttpClient();
const staff = new HttpClient();

/** A valid edit form for a product with the apparel run (XS S M L XL). */
function editForm(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "sizes[0]": "0",
    "sizes[1]": "1",
    "sizes[2]": "2",
    "sizes[3]": "0",
    "sizes[4]": "0",
    listing_type: "sell",
    reason: "overstock",
    modified_reason: "inventory_correction",
    intent: "save",
    ...extra,
  };
}
function requestForm(extra: Record<string, string> = {}): Record<string, string> {
  const { listing_type: _lt, reason: _r, ...rest } = editForm(extra);
  return { ...rest, reason: "sold_out", ...extra };
}

async function listingRow(id: number) {
  return (await db().select().from(listings).where(eq(listings.id, id)))[0];
}
async function requestRow(id: number) {
  return (await db().select().from(listingRequests).where(eq(listingRequests.id, id)))[0];
}

beforeAll(async () => {
  const shared = await createWorld(db(), {
    brand: { name: `Shared ${tok}` },
    products: [{ sku: `SH${tok}`, colors: 3 }],
  });
  const onlyB = await createWorld(db(), {
    brand: { name: `OnlyB ${tok}` },
    products: [{ sku: `OB${tok}`, colors: 1 }],
  });
  [brandShared, brandOnlyB] = [shared.brand, onlyB.brand];
  const [pS, pB] = [shared.products[0], onlyB.products[0]];
  const ra = await createRetailer(db(), {
    payout: true,
    user: { email: emailA },
    storeName: `Store A ${tok}`,
  });
  const rb = await createRetailer(db(), {
    payout: true,
    user: { email: emailB },
    storeName: `Store B ${tok}`,
  });
  a = { id: ra.retailer.id, storeName: ra.retailer.storeName };
  b = { id: rb.retailer.id, storeName: rb.retailer.storeName };
  await authorizeBrand(db(), a.id, brandShared.id);
  await authorizeBrand(db(), b.id, brandShared.id);
  await authorizeBrand(db(), b.id, brandOnlyB.id);
  listingA = await createListing(db(), {
    variationId: pS.variations[0].id,
    providerId: a.id,
    sizes: { S: 1, M: 2 },
  });
  listingB = await createListing(db(), {
    variationId: pS.variations[1].id,
    providerId: b.id,
    sizes: { S: 4 },
  });
  listingBOnlyBrand = await createListing(db(), {
    variationId: pB.variations[0].id,
    providerId: b.id,
    sizes: { M: 3 },
  });
  requestA = (
    await createRequest(db(), {
      variationId: pS.variations[2].id,
      requestorId: a.id,
      sizes: { L: 1 },
    })
  ).id;
  requestB = (
    await createRequest(db(), {
      variationId: pS.variations[2].id,
      requestorId: b.id,
      sizes: { L: 2 },
    })
  ).id;
  await createStaffUser(db(), { email: emailStaff });
  await clientA.signIn(emailA, DEFAULT_TEST_PASSWORD);
  await clientB.signIn(emailB, DEFAULT_TEST_PASSWORD);
  await staff.signIn(emailStaff, DEFAULT_TEST_PASSWORD);
});

function expectNotFound(r: { status: number; body: string }) {
  expect(r.status).toBe(404);
  expect(leakedTrace(r.body)).toBeNull();
}

describe("listings and requests of another retailer: 404", () => {
  it("reading another retailer's listing or request by URL", async () => {
    expect((await clientA.get(`/updatelisting/${listingA.id}`)).status).toBe(200);
    expect((await clientA.get(`/updaterequest/${requestA}`)).status).toBe(200);
    expectNotFound(await clientA.get(`/updatelisting/${listingB.id}`));
    expectNotFound(await clientA.get(`/updatelisting/${listingBOnlyBrand.id}`));
    expectNotFound(await clientA.get(`/updaterequest/${requestB}`));
    // A listing id is not a request id, and nonsense ids are just as unknown.
    expectNotFound(
      await clientA.get(`/updaterequest/${listingA.id === requestA ? 2_000_000_000 : listingA.id}`),
    );
    expectNotFound(await clientA.get("/updatelisting/2000000000"));
    expectNotFound(await clientA.get("/updatelisting/abc"));
    expectNotFound(await clientA.get("/updatelisting/-1"));
    expectNotFound(await clientA.get("/updatelisting/99999999999999999999"));
  });

  it("editing or deleting another retailer's listing by URL or by the id in the form", async () => {
    const before = await listingRow(listingB.id);
    expectNotFound(await clientA.postForm(`/updatelisting/${listingB.id}`, editForm()));
    expectNotFound(
      await clientA.postForm(`/updatelisting/${listingB.id}`, editForm({ intent: "delete" })),
    );
    expectNotFound(
      await clientA.postForm(`/updatelisting/${listingB.id}`, editForm({ pendingok: "on" })),
    );
    // The URL is mine, the form names B's listing.
    expectNotFound(
      await clientA.postForm(
        `/updatelisting/${listingA.id}`,
        editForm({ id: String(listingB.id) }),
      ),
    );
    expect(await listingRow(listingB.id)).toEqual(before);
    // My own listing, same form: saved.
    const ok = await clientA.postForm(
      `/updatelisting/${listingA.id}`,
      editForm({ id: String(listingA.id) }),
    );
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/active/listings?notice=listing-updated");
    expect((await listingRow(listingA.id)).totalUnits).toBe(3);
  });

  it("editing or deleting another retailer's request", async () => {
    const before = await requestRow(requestB);
    expectNotFound(await clientA.postForm(`/updaterequest/${requestB}`, requestForm()));
    expectNotFound(
      await clientA.postForm(`/updaterequest/${requestB}`, requestForm({ intent: "delete" })),
    );
    expectNotFound(
      await clientA.postForm(`/updaterequest/${requestA}`, requestForm({ id: String(requestB) })),
    );
    expect(await requestRow(requestB)).toEqual(before);
  });

  it("My Listings and My Requests show only my items and only my authorized brands", async () => {
    const mine = await clientA.get("/active/listings");
    expect(mine.status).toBe(200);
    const html = htmlDecode(mine.body);
    expect(html).toContain(`/updatelisting/${listingA.id}`);
    expect(html).not.toContain(`/updatelisting/${listingB.id}"`);
    expect(html).not.toContain(`/updatelisting/${listingBOnlyBrand.id}"`);
    expect(html).toContain(`Shared ${tok}`);
    expect(html).not.toContain(`OnlyB ${tok}`);
    expect(html).not.toContain(b.storeName);
    const reqs = htmlDecode((await clientA.get("/active/requests")).body);
    expect(reqs).toContain(`/updaterequest/${requestA}`);
    expect(reqs).not.toContain(`/updaterequest/${requestB}"`);
    expect(reqs).not.toContain(`OnlyB ${tok}`);
    // B sees its own brand.
    expect(htmlDecode((await clientB.get("/active/listings")).body)).toContain(`OnlyB ${tok}`);
  });

  it("the named route 'active' takes a tab: the two tabs, /active opens the first, others are 404", async () => {
    expect((await clientA.get("/active/listings/")).status).toBe(200);
    expect((await clientA.get("/active/requests/")).status).toBe(200);
    expect((await clientA.get("/active")).location).toBe("/active/listings");
    expectNotFound(await clientA.get("/active/nonsense"));
  });
});

describe("bad input on the edit forms: 400 with the message, values kept", () => {
  it("a listing edit without a reason for the change", async () => {
    for (const modified_reason of ["none", "", "made-up"]) {
      const r = await clientA.postForm(
        `/updatelisting/${listingA.id}`,
        editForm({ modified_reason, "sizes[2]": "7" }),
      );
      expect(r.status).toBe(400);
      expect(htmlDecode(r.body)).toContain(MODIFIED_REASON_REQUIRED_LISTING);
      expect(inputValue(r.body, "sizes[2]")).toBe("7");
      expect(leakedTrace(r.body)).toBeNull();
    }
    // Deleting needs the reason too.
    const del = await clientA.postForm(
      `/updatelisting/${listingA.id}`,
      editForm({ modified_reason: "none", intent: "delete" }),
    );
    expect(del.status).toBe(400);
    expect(htmlDecode(del.body)).toContain(MODIFIED_REASON_REQUIRED_LISTING);
    expect((await listingRow(listingA.id)).totalUnits).toBeGreaterThan(0);
  });

  it("a request edit without a reason says 'request'", async () => {
    const r = await clientA.postForm(
      `/updaterequest/${requestA}`,
      requestForm({ modified_reason: "none" }),
    );
    expect(r.status).toBe(400);
    expect(htmlDecode(r.body)).toContain(MODIFIED_REASON_REQUIRED_REQUEST);
  });

  it("size counters must be whole numbers, 0 or more; other fields must be known values", async () => {
    for (const bad of ["-1", "1.5", "abc", "", "1e9"]) {
      const r = await clientA.postForm(
        `/updatelisting/${listingA.id}`,
        editForm({ "sizes[1]": bad }),
      );
      expect(r.status).toBe(400);
      expect(htmlDecode(r.body)).toContain(SIZE_COUNT_MESSAGE);
    }
    expect(
      (await clientA.postForm(`/updatelisting/${listingA.id}`, editForm({ listing_type: "rent" })))
        .status,
    ).toBe(400);
    expect(
      (await clientA.postForm(`/updatelisting/${listingA.id}`, editForm({ reason: "because" })))
        .status,
    ).toBe(400);
    // Too few or too many counters for the product's sizes.
    const { "sizes[4]": _drop, ...fewer } = editForm();
    expect((await clientA.postForm(`/updatelisting/${listingA.id}`, fewer)).status).toBe(400);
    expect(
      (await clientA.postForm(`/updatelisting/${listingA.id}`, editForm({ "sizes[5]": "1" })))
        .status,
    ).toBe(400);
    // An unreadable body.
    const raw = await clientA.postRaw(
      `/updatelisting/${listingA.id}`,
      "%%%=%",
      "multipart/form-data; boundary=x",
    );
    expect(raw.status).toBe(400);
    expect(leakedTrace(raw.body)).toBeNull();
  });

  it("pending transactions: 409 with the message until pendingok=on", async () => {
    // A sale of one unit of the listing waiting for the seller's approval.
    const { order: o } = await createOrder(db(), {
      providerId: a.id,
      receiverId: b.id,
      statename: BUY_STATES.PROVIDER_APPROVE_SALE,
      lines: [{ variationId: listingA.variationId, listingId: listingA.id, sizes: { S: 1 } }],
    });
    const first = await clientA.postForm(
      `/updatelisting/${listingA.id}`,
      editForm({ "sizes[2]": "5" }),
    );
    expect(first.status).toBe(409);
    expect(htmlDecode(first.body)).toContain(LISTING_PENDING_TRANSACTIONS);
    expect(inputValue(first.body, "sizes[2]")).toBe("5");
    expect((await listingRow(listingA.id)).sizes.M).toBe(2);
    const again = await clientA.postForm(
      `/updatelisting/${listingA.id}`,
      editForm({ "sizes[2]": "5", pendingok: "on" }),
    );
    expect(again.status).toBe(302);
    expect((await listingRow(listingA.id)).sizes.M).toBe(5);
    await db().delete(orders).where(eq(orders.id, o.id));
  });
});

describe("staff", () => {
  it("as admin (no retailer chosen) may open any listing and request; saving marks a listing corrected", async () => {
    const r = await staff.get(`/updatelisting/${listingB.id}`);
    expect(r.status).toBe(200);
    expect(htmlDecode(r.body)).toContain(b.storeName); // staff see names
    expect((await staff.get(`/updaterequest/${requestB}`)).status).toBe(200);
    const saved = await staff.postForm(`/updatelisting/${listingB.id}`, editForm());
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/updatelisting/${listingB.id}?notice=listing-updated`);
    expect((await listingRow(listingB.id)).correctedAt).not.toBeNull();
    // The owner now sees the re-list notice; saving it clears the flag.
    const ownerView = await clientB.get(`/updatelisting/${listingB.id}`);
    expect(htmlDecode(ownerView.body)).toContain("Action Required! This listing was corrected");
    expect((await clientB.postForm(`/updatelisting/${listingB.id}`, editForm())).status).toBe(302);
    expect((await listingRow(listingB.id)).correctedAt).toBeNull();
    // The lists need a retailer: staff as admin are sent to the picker.
    const list = await staff.get("/active/listings");
    expect(list.status).toBe(302);
    expect(list.location).toContain("/admin/retailers");
  });

  it("acting as a retailer act as that retailer: its items open, another retailer's are 404", async () => {
    const act = await staff.postForm("/act-as", { intent: "act", retailerId: String(a.id) });
    expect([302, 303]).toContain(act.status);
    expect((await staff.get(`/updatelisting/${listingA.id}`)).status).toBe(200);
    expectNotFound(await staff.get(`/updatelisting/${listingB.id}`));
    expectNotFound(await staff.postForm(`/updatelisting/${listingB.id}`, editForm()));
    expectNotFound(await staff.get(`/updaterequest/${requestB}`));
    const list = htmlDecode((await staff.get("/active/listings")).body);
    expect(list).toContain(`/updatelisting/${listingA.id}`);
    expect(list).not.toContain(`OnlyB ${tok}`);
    // Acting staff editing the retailer's listing is the retailer's own edit: no correction.
    expect(
      (await staff.postForm(`/updatelisting/${listingA.id}`, editForm({ pendingok: "on" }))).status,
    ).toBe(302);
    expect((await listingRow(listingA.id)).correctedAt).toBeNull();
    await staff.postForm("/act-as", { intent: "clear" });
  });
});

describe("carts of another retailer: 404", () => {
  it("adding a listing or request the retailer cannot see is 404; removing another retailer's cart line is 404", async () => {
    // A listing of a brand A is not authorized for.
    const hidden = await clientA.postForm("/cart", {
      intent: "add",
      listingId: String(listingBOnlyBrand.id),
      "size.M": "1",
    });
    expectNotFound(hidden);
    // Nonsense ids.
    expectNotFound(
      await clientA.postForm("/cart", { intent: "add", listingId: "2000000000", "size.M": "1" }),
    );
    expectNotFound(
      await clientA.postForm("/cart", { intent: "add", listingId: "abc", "size.M": "1" }),
    );
    // B puts A's listing in B's cart; A cannot remove B's line (A's cart is A's only).
    const addB = await clientB.postForm("/cart", {
      intent: "add",
      listingId: String(listingA.id),
      "size.S": "1",
    });
    expect([302, 303]).toContain(addB.status);
    const beforeB = (await db().select().from(carts).where(eq(carts.retailerId, b.id)))[0];
    expect(beforeB.items.some((i) => i.listingId === listingA.id)).toBe(true);
    expectNotFound(
      await clientA.postForm("/cart", { intent: "remove", listingId: String(listingA.id) }),
    );
    const afterB = (await db().select().from(carts).where(eq(carts.retailerId, b.id)))[0];
    expect(afterB.items).toEqual(beforeB.items);
    await clientB.postForm("/cart", { intent: "clear" });
  });
});
