import { verify } from "@node-rs/argon2";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { retailerContacts, users } from "../../db/schema";
import { createRetailer, createStaffUser, createUser, uniqueToken } from "../factories";
import { expectPgError, useTestDb } from "./helpers";

const db = useTestDb();

describe("users", () => {
  it("e-mail is unique case-insensitively", async () => {
    const tok = uniqueToken();
    await createUser(db, { email: `Jane.Doe-${tok}@Example.test`, passwordHash: "x" });
    const err = await expectPgError(() =>
      createUser(db, { email: `jane.doe-${tok}@example.TEST`, passwordHash: "x" }),
    );
    expect(err.code).toBe("23505"); // unique_violation
    expect(err.constraint).toBe("users_email_lower_idx");
    // A different address is fine.
    await expect(
      createUser(db, { email: `jane.doe2-${tok}@example.test`, passwordHash: "x" }),
    ).resolves.toBeDefined();
  });

  it("a look-up by lower(email) finds the user whatever the case", async () => {
    const tok = uniqueToken();
    const u = await createUser(db, { email: `MiXeD-${tok}@Example.test`, passwordHash: "x" });
    const [found] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${`mixed-${tok}@example.TEST`})`);
    expect(found?.id).toBe(u.id);
  });

  it("factories hash passwords with argon2id", async () => {
    const u = await createStaffUser(db, { password: "s3cret-staff-pass" });
    expect(u.isStaff).toBe(true);
    expect(u.passwordHash.startsWith("$argon2id$")).toBe(true);
    expect(await verify(u.passwordHash, "s3cret-staff-pass")).toBe(true);
    expect(await verify(u.passwordHash, "wrong")).toBe(false);
  });

  it("createRetailer links the user and the contact to the retailer", async () => {
    const { retailer, contact, user } = await createRetailer(db, {
      status: "pending",
      setupCompleted: false,
      contact: { celphone: "" },
    });
    expect(user?.retailerId).toBe(retailer.id);
    expect(user?.isStaff).toBe(false);
    expect(retailer.status).toBe("pending");
    expect(retailer.setupCompletedAt).toBeNull();
    expect(retailer.btMerchantId).toBeNull();
    const [c] = await db.select().from(retailerContacts).where(eq(retailerContacts.id, contact.id));
    expect(c.userId).toBe(user?.id);
    expect(c.celphone).toBe("");
  });
});
