/**
 * The payload codec of every Temporal client and worker of this project (ADR 0040): each payload (workflow and
 * activity inputs and results, signals, updates, queries, memo) is sealed with AES-256-GCM before it leaves the
 * process, and opened when it comes back. Search attributes do not pass through a codec and stay readable.
 *
 * A sealed payload: metadata `encoding: binary/encrypted` and `encryption-key-id: <id>`; data = 12-byte random IV,
 * then the ciphertext of the original payload (protobuf: its metadata and data), then the 16-byte GCM tag. The
 * key id is also the GCM's additional data, so a payload relabelled with another key id does not open.
 *
 * Keys rotate without downtime (docs/operations.md, "Payload encryption keys: rotation"): new payloads take the
 * keyring's current key, any key of the ring opens what it sealed, and a payload that is not sealed (histories
 * recorded before the codec, e.g. tests/histories) passes through unchanged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from "@temporalio/common";
// A CommonJS package: its default import is what Node's ESM loader and the bundlers all give.
import proto from "@temporalio/proto";
import type { PayloadKeySpec } from "../domain/env";

export const ENCRYPTED_ENCODING = "binary/encrypted";
export const KEY_ID_METADATA = "encryption-key-id";

const ProtoPayload = proto.temporal.api.common.v1.Payload;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The keys a process may open payloads with, and the one it seals new payloads with. */
export interface Keyring {
  currentId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** A keyring from the environment's key list (domain/env.ts payloadKeysOf): every key 32 bytes. */
export function keyringOf(spec: PayloadKeySpec): Keyring {
  const keys = new Map<string, Buffer>();
  for (const { id, key } of spec.keys) {
    const bytes = Buffer.from(key, "base64");
    if (bytes.length !== KEY_BYTES)
      throw new Error(`payload key "${id}" is ${bytes.length} bytes, not ${KEY_BYTES}`);
    keys.set(id, bytes);
  }
  if (!keys.has(spec.currentId))
    throw new Error(`the current payload key "${spec.currentId}" is not in the keyring`);
  return { currentId: spec.currentId, keys };
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : undefined);

/** Whether a payload was sealed by this codec (by its metadata only). */
export function isEncrypted(payload: Payload): boolean {
  return text(payload.metadata?.[METADATA_ENCODING_KEY]) === ENCRYPTED_ENCODING;
}

/** The id of the key a sealed payload needs (undefined for a plain one). */
export function keyIdOf(payload: Payload): string | undefined {
  return isEncrypted(payload) ? text(payload.metadata?.[KEY_ID_METADATA]) : undefined;
}

export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly keyring: Keyring) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => this.seal(p));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => (isEncrypted(p) ? this.open(p) : p));
  }

  private seal(payload: Payload): Payload {
    const id = this.keyring.currentId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.keyring.keys.get(id)!, iv);
    cipher.setAAD(utf8(id));
    const plain = ProtoPayload.encode(payload).finish();
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: { [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: utf8(id) },
      data: sealed,
    };
  }

  private open(payload: Payload): Payload {
    const id = keyIdOf(payload) ?? "";
    const key = this.keyring.keys.get(id);
    if (!key) throw new Error(`payload sealed with key "${id}", which is not in PAYLOAD_KEYS`);
    const data = payload.data ?? new Uint8Array();
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error("sealed payload is too short");
    const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, IV_BYTES));
    decipher.setAAD(utf8(id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return ProtoPayload.decode(plain);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The codec server's wire form (the Temporal Web UI's POST /decode and /encode): { payloads: [...] } with the
// metadata values and the data as base64 strings (the protobuf JSON mapping of Payload).

export interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

export function payloadFromJson(p: JsonPayload): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {}))
    metadata[k] = Buffer.from(String(v), "base64");
  return { metadata, data: Buffer.from(String(p.data ?? ""), "base64") };
}

export function payloadToJson(p: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {}))
    if (v) metadata[k] = Buffer.from(v).toString("base64");
  return { metadata, data: Buffer.from(p.data ?? new Uint8Array()).toString("base64") };
}
