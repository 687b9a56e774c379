/**
 * The payload codec (temporal/codec.ts, ADR 0040): sealed with the current key, opened with any key of the ring,
 * plain payloads passed through; the keys from the environment (domain/env.ts) and the codec server's wire form.
 */
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { DEV_PAYLOAD_KEYS, parseEnv, payloadKeysOf } from "../../domain/env";
import {
  ENCRYPTED_ENCODING,
  isEncrypted,
  KEY_ID_METADATA,
  keyIdOf,
  payloadFromJson,
  payloadToJson,
} from "../../temporal/codec";
import { dataConverterOf, payloadCodecOf } from "../../temporal/connection";

const KEY_A = "a:" + Buffer.alloc(32, 1).toString("base64");
const KEY_B = "b:" + Buffer.alloc(32, 2).toString("base64");
const text = (b: Uint8Array | null | undefined) => new TextDecoder().decode(b ?? new Uint8Array());
const value = (p: Payload) => defaultPayloadConverter.fromPayload(p);
const input = {
  orderId: 42,
  shipTo: { name: "Ada Lovelace", street: "12 Analytical Row" },
  cents: 12_345,
};

describe("the payload codec", () => {
  it("seals every payload with the current key: encoding binary/encrypted, the key id, nothing readable", async () => {
    const codec = payloadCodecOf({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}` });
    const plain = defaultPayloadConverter.toPayload(input);
    const [sealed] = await codec.encode([plain]);
    expect(text(sealed.metadata?.[METADATA_ENCODING_KEY])).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed.metadata?.[KEY_ID_METADATA])).toBe("b");
    expect(Buffer.from(sealed.data!).toString("latin1")).not.toContain("Lovelace");
    const [opened] = await codec.decode([sealed]);
    expect(value(opened)).toEqual(input);
    // A fresh IV each time: the same value never seals to the same bytes.
    const [again] = await codec.encode([plain]);
    expect(Buffer.from(again.data!).equals(Buffer.from(sealed.data!))).toBe(false);
  });

  it("rotates without downtime: old payloads open after a new key is added, new ones take it", async () => {
    const before = payloadCodecOf({ PAYLOAD_KEYS: KEY_A });
    const [old] = await before.encode([defaultPayloadConverter.toPayload(input)]);
    // Step 1: the new key is known everywhere, the old one still seals.
    const step1 = payloadCodecOf({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}`, PAYLOAD_KEY_CURRENT: "a" });
    expect(keyIdOf((await step1.encode([defaultPayloadConverter.toPayload(1)]))[0])).toBe("a");
    // Step 2: the new key seals; the old one still opens what it sealed.
    const step2 = payloadCodecOf({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}` });
    expect(keyIdOf((await step2.encode([defaultPayloadConverter.toPayload(1)]))[0])).toBe("b");
    expect(value((await step2.decode([old]))[0])).toEqual(input);
    // A key taken out of the ring too early is named.
    await expect(payloadCodecOf({ PAYLOAD_KEYS: KEY_B }).decode([old])).rejects.toThrow(
      /key "a", which is not in PAYLOAD_KEYS/,
    );
  });

  it("passes plain payloads through (histories recorded before the codec still replay)", async () => {
    const codec = payloadCodecOf({});
    const plain = defaultPayloadConverter.toPayload(input);
    const [out] = await codec.decode([plain]);
    expect(out).toBe(plain);
    expect(isEncrypted(plain)).toBe(false);
  });

  it("refuses a payload whose key id was changed, or whose bytes were", async () => {
    const codec = payloadCodecOf({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}` });
    const [sealed] = await codec.encode([defaultPayloadConverter.toPayload(input)]);
    const relabelled = {
      ...sealed,
      metadata: { ...sealed.metadata, [KEY_ID_METADATA]: new TextEncoder().encode("a") },
    };
    await expect(codec.decode([relabelled])).rejects.toThrow();
    const data = Buffer.from(sealed.data!);
    data[20] ^= 1;
    await expect(codec.decode([{ ...sealed, data }])).rejects.toThrow();
  });

  it("speaks the codec server's JSON form (base64 metadata and data) both ways", async () => {
    const codec = payloadCodecOf({});
    const [sealed] = await codec.encode([defaultPayloadConverter.toPayload(input)]);
    const json = JSON.parse(JSON.stringify(payloadToJson(sealed)));
    expect(Buffer.from(json.metadata.encoding, "base64").toString()).toBe(ENCRYPTED_ENCODING);
    const [opened] = await codec.decode([payloadFromJson(json)]);
    expect(value(opened)).toEqual(input);
  });
});

describe("the data converter of clients and workers", () => {
  it("has the codec by default, and none with PAYLOAD_CODEC=off (benchmarks only; production refuses it)", () => {
    expect(dataConverterOf({}).payloadCodecs).toHaveLength(1);
    expect(dataConverterOf(parseEnv({})).payloadCodecs).toHaveLength(1);
    expect(dataConverterOf(parseEnv({ PAYLOAD_CODEC: "off" })).payloadCodecs ?? []).toEqual([]);
    expect(() => parseEnv({ PAYLOAD_CODEC: "none" })).toThrow(/PAYLOAD_CODEC/);
  });
});

describe("the payload keys from the environment", () => {
  it("are the public development key when PAYLOAD_KEYS is empty (local and test only)", () => {
    expect(payloadKeysOf({})).toEqual({
      currentId: "dev",
      keys: [{ id: "dev", key: DEV_PAYLOAD_KEYS.slice(4) }],
    });
  });

  it("take the last key as current unless PAYLOAD_KEY_CURRENT names one", () => {
    expect(payloadKeysOf({ PAYLOAD_KEYS: `${KEY_A}, ${KEY_B}` }).currentId).toBe("b");
    expect(
      payloadKeysOf({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}`, PAYLOAD_KEY_CURRENT: "a" }).currentId,
    ).toBe("a");
  });

  it("name a malformed list in every environment", () => {
    const fails = (raw: Record<string, string>) => {
      try {
        parseEnv(raw);
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(fails({ PAYLOAD_KEYS: "nokey" })).toMatch(/PAYLOAD_KEYS: .* is not id:base64key/);
    expect(fails({ PAYLOAD_KEYS: "a:c2hvcnQ=" })).toMatch(/PAYLOAD_KEYS: key "a" is not 32 bytes/);
    expect(fails({ PAYLOAD_KEYS: `${KEY_A},${KEY_A}` })).toMatch(/key id "a" is listed twice/);
    expect(fails({ PAYLOAD_KEYS: KEY_A, PAYLOAD_KEY_CURRENT: "z" })).toMatch(
      /PAYLOAD_KEY_CURRENT: "z" is not a key id/,
    );
    expect(fails({ PAYLOAD_KEYS: `${KEY_A},${KEY_B}` })).toBe("");
  });
});
