/**
 * The codes of two-factor sign-in (ADR 0041; app/utils/totp.server.ts): a TOTP code of the current step or
 * one step either side is accepted, others refused; a code of a step already accepted is refused (no replay);
 * recovery codes are ten, distinct, and hashed the same however they are typed.
 */
import { generateSync } from "otplib";
import { describe, expect, it } from "vitest";
import {
  RECOVERY_CODE_COUNT,
  checkTotp,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
} from "~/utils/totp.server";

const secret = newTotpSecret();
const now = 1_800_000_015; // 15 s into a step
const step = Math.floor(now / 30);
const codeAt = (epoch: number) => generateSync({ secret, epoch });

describe("checkTotp", () => {
  const cases: Array<{ name: string; code: string; lastStep: number | null; ok: false | number }> =
    [
      { name: "the current step's code", code: codeAt(now), lastStep: null, ok: step },
      {
        name: "the previous step's code (clock behind)",
        code: codeAt(now - 30),
        lastStep: null,
        ok: step - 1,
      },
      {
        name: "the next step's code (clock ahead)",
        code: codeAt(now + 30),
        lastStep: null,
        ok: step + 1,
      },
      { name: "two steps back", code: codeAt(now - 60), lastStep: null, ok: false },
      { name: "two steps ahead", code: codeAt(now + 60), lastStep: null, ok: false },
      {
        name: "spaces typed inside the code",
        code: codeAt(now).replace(/^(\d{3})/, "$1 "),
        lastStep: null,
        ok: step,
      },
      {
        name: "a replayed code (its step accepted before)",
        code: codeAt(now),
        lastStep: step,
        ok: false,
      },
      {
        name: "an earlier step's code after a later one was accepted",
        code: codeAt(now - 30),
        lastStep: step,
        ok: false,
      },
      {
        name: "the next step after the current one was accepted",
        code: codeAt(now + 30),
        lastStep: step,
        ok: step + 1,
      },
      { name: "not six digits", code: "12345", lastStep: null, ok: false },
      { name: "letters", code: "abcdef", lastStep: null, ok: false },
    ];
  it.each(cases)("$name", ({ code, lastStep, ok }) => {
    expect(checkTotp(secret, code, lastStep, now)).toEqual(
      ok === false ? { ok: false } : { ok: true, step: ok },
    );
  });

  it("refuses a code of another secret", () => {
    expect(checkTotp(newTotpSecret(), codeAt(now), null, now)).toEqual({ ok: false });
  });
});

describe("recovery codes", () => {
  it("are ten distinct codes of the form xxxxx-xxxxx", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });

  it("hash the same typed in capitals, with spaces or without the dash; another code differs", () => {
    const [a, b] = newRecoveryCodes();
    const h = hashRecoveryCode(a!);
    expect(hashRecoveryCode(a!.toUpperCase())).toBe(h);
    expect(hashRecoveryCode(` ${a!.replace("-", "")} `)).toBe(h);
    expect(hashRecoveryCode(b!)).not.toBe(h);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
  });
});

it("the otpauth URI names the issuer and the account and carries the secret", () => {
  const uri = otpauthUri("staff@example.com", secret);
  expect(uri.startsWith("otpauth://totp/")).toBe(true);
  expect(uri).toContain(`secret=${secret}`);
  expect(decodeURIComponent(uri)).toContain("Wholesale Exchange:staff@example.com");
});
