/**
 * The payloads of a workflow history, wherever they sit in it, with their encoding and their bytes read as text:
 * what a reader of a history could decode without the payload keys. Takes a history as the client fetches it
 * (bytes as Uint8Array) or as its JSON export (bytes as base64 strings: tests/histories/*.json).
 */
export interface HistoryPayload {
  /** metadata.encoding ("json/plain", "binary/encrypted", ...). */
  encoding: string;
  text: string;
}

const bytesOf = (v: unknown): Buffer | null =>
  typeof v === "string"
    ? Buffer.from(v, "base64")
    : v instanceof Uint8Array
      ? Buffer.from(v)
      : null;

export function payloadsOf(history: unknown): HistoryPayload[] {
  const out: HistoryPayload[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const p = node as { data?: unknown; metadata?: Record<string, unknown> | null };
    const data = bytesOf(p.data);
    if (data && p.metadata && typeof p.metadata === "object") {
      const encoding = bytesOf(p.metadata.encoding)?.toString("utf8") ?? "";
      out.push({ encoding, text: data.toString("utf8") });
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(history);
  return out;
}
