// A retailer's status and brand links tell the retailer (db/queries/retailer-status.ts): one outbox row per
// address per actual change, none when nothing changed.
import { describe, expect, it } from "vitest";
import { listOutbox } from "../../db/queries/outbox";
import {
  authorizeBrands,
  getBrandLink,
  noticeBrandLinkChange,
  setRetailerStatus,
  unauthorizeBrand,
} from "../../db/queries/retailer-status";
import { authorizeBrand, createBrand, createRetailer, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb();

const LINKS = {
  signInUrl: "http://localhost:3000/signin",
  supportEmail: "retailers-help@example.test",
};

async function retailer(status: "pending" | "active" | "inactive" | "denied") {
  const email = `rs-${uniqueToken()}@example.test`;
  const r = await createRetailer(db, { status, user: { email } });
  return { id: r.retailer.id, storeName: r.retailer.storeName, email };
}

const kinds = async (email: string) =>
  (await listOutbox(db, { toEmail: email })).map((m) => m.kind).reverse();

describe("setRetailerStatus", () => {
  it("writes exactly one e-mail per change, with the status's text, and none when the status did not change", async () => {
    const r = await retailer("pending");
    expect((await setRetailerStatus(db, r.id, "pending", LINKS))?.changed).toBe(false);
    expect(await kinds(r.email)).toEqual([]);

    const activated = await setRetailerStatus(db, r.id, "active", LINKS);
    expect(activated).toMatchObject({ changed: true, retailer: { status: "active" } });
    await setRetailerStatus(db, r.id, "active", LINKS);
    expect(await kinds(r.email)).toEqual(["retailer_activated"]);
    const [mail] = await listOutbox(db, { toEmail: r.email });
    expect(mail.subject).toBe("Your retailer account is active");
    expect(mail.bodyText).toContain(`Hello ${r.storeName},`);
    expect(mail.bodyText).toContain("Sign in: http://localhost:3000/signin");

    await setRetailerStatus(db, r.id, "inactive", LINKS);
    await setRetailerStatus(db, r.id, "inactive", LINKS);
    await setRetailerStatus(db, r.id, "denied", LINKS);
    await setRetailerStatus(db, r.id, "denied", LINKS);
    expect(await kinds(r.email)).toEqual([
      "retailer_activated",
      "retailer_inactivated",
      "retailer_denied",
    ]);
    const [denied] = await listOutbox(db, { toEmail: r.email });
    expect(denied.bodyText).toContain(
      "Your retailer account has been denied. If you think this is in error, you can submit additional credentials to the retailer support email: retailers-help@example.test",
    );
  });

  it("back to pending tells the retailer too; an unknown retailer is null and writes nothing", async () => {
    const r = await retailer("active");
    expect((await setRetailerStatus(db, r.id, "pending", LINKS))?.changed).toBe(true);
    await setRetailerStatus(db, r.id, "pending", LINKS);
    expect(await kinds(r.email)).toEqual(["retailer_pending"]);
    const [mail] = await listOutbox(db, { toEmail: r.email });
    expect(mail.subject).toBe("Your retailer account is under review");
    expect(mail.bodyText).toContain(
      "Your retailer account is under review again: until it is active you cannot trade on the marketplace.",
    );
    expect(mail.bodyText).toContain(LINKS.supportEmail);
    expect(await setRetailerStatus(db, 2_000_000_000, "active", LINKS)).toBeNull();
  });

  it("activation with brands authorizes them and tells the retailer of the new ones once", async () => {
    const r = await retailer("pending");
    const a = await createBrand(db, { name: `RS A ${uniqueToken()}` });
    const b = await createBrand(db, { name: `RS B ${uniqueToken()}` });
    await setRetailerStatus(db, r.id, "active", LINKS, [a.id, b.id]);
    expect(await kinds(r.email)).toEqual(["retailer_activated", "retailer_brand_authorized"]);
    const [brandMail] = await listOutbox(db, { toEmail: r.email });
    expect(brandMail.bodyText).toContain(a.displayName || a.name);
    expect(brandMail.bodyText).toContain(b.displayName || b.name);
    // Both already authorized: nothing new to tell.
    await setRetailerStatus(db, r.id, "active", LINKS, [a.id, b.id]);
    await authorizeBrands(db, r.id, [a.id]);
    expect(await kinds(r.email)).toHaveLength(2);
  });
});

describe("brand links", () => {
  it("authorizing and removing a brand each tell the retailer once; removing an absent link tells nobody", async () => {
    const r = await retailer("active");
    const brand = await createBrand(db, { name: `RS Link ${uniqueToken()}` });
    await authorizeBrands(db, r.id, [brand.id]);
    await unauthorizeBrand(db, r.id, brand.id);
    await unauthorizeBrand(db, r.id, brand.id);
    expect(await kinds(r.email)).toEqual(["retailer_brand_authorized", "retailer_brand_removed"]);
    const [removed] = await listOutbox(db, { toEmail: r.email });
    expect(removed.subject).toBe(`Brand no longer authorized: ${brand.displayName || brand.name}`);
  });

  it("a generic save that moves a link to another retailer tells both; a revoked link tells its retailer", async () => {
    const r1 = await retailer("active");
    const r2 = await retailer("active");
    const brand = await createBrand(db, { name: `RS Move ${uniqueToken()}` });
    const link = await authorizeBrand(db, r1.id, brand.id);
    const before = await getBrandLink(db, link.id);
    await noticeBrandLinkChange(db, before, { ...before!, retailerId: r2.id });
    expect(await kinds(r1.email)).toEqual(["retailer_brand_removed"]);
    expect(await kinds(r2.email)).toEqual(["retailer_brand_authorized"]);
    await noticeBrandLinkChange(db, before, before);
    await noticeBrandLinkChange(
      db,
      { ...before!, status: "revoked" },
      { ...before!, status: "revoked" },
    );
    expect(await kinds(r1.email)).toHaveLength(1);
  });
});
