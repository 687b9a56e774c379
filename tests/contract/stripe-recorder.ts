/**
 * A recording HTTP proxy in front of stripe-mock: the Stripe adapter is pointed at it (host/port of
 * createStripeClient) and every exchange is kept as it went over the wire: the request (method, path,
 * Idempotency-Key, form parameters as sent) and stripe-mock's answer (status and JSON body), with the time it
 * was made. Used by tests/contract/statements-stripe.test.ts to read "the provider's records" of a run.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface StripeExchange {
  /** When the request was made (stripe-mock's own `created` is a fixture). */
  at: Date;
  method: string;
  /** Path without the query string, e.g. /v1/payment_intents/pi_123/capture. */
  path: string;
  idempotencyKey: string | undefined;
  /** The form parameters as sent, flat (nested ones keep Stripe's `metadata[order_id]` names). */
  params: Record<string, string>;
  status: number;
  body: Record<string, unknown>;
}

export interface StripeRecorder {
  /** Host, port and protocol for createStripeClient. */
  host: string;
  port: number;
  protocol: "http";
  exchanges: StripeExchange[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
]);

export async function startStripeRecorder(target: URL): Promise<StripeRecorder> {
  const exchanges: StripeExchange[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = new Date();
      const raw = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (!HOP_BY_HOP.has(k) && typeof v === "string") headers[k] = v;
      const url = new URL(req.url ?? "/", target);
      fetch(url, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : raw,
      })
        .then(async (answer) => {
          const text = await answer.text();
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { unparsed: text };
          }
          exchanges.push({
            at,
            method: req.method ?? "",
            path: url.pathname,
            idempotencyKey: headers["idempotency-key"],
            params: Object.fromEntries(new URLSearchParams(raw)),
            status: answer.status,
            body,
          });
          const out: Record<string, string> = {
            "content-type": answer.headers.get("content-type") ?? "application/json",
          };
          const requestId = answer.headers.get("request-id");
          if (requestId) out["request-id"] = requestId;
          res.writeHead(answer.status, out);
          res.end(text);
        })
        .catch((e: unknown) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`stripe recorder: ${String(e)}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    protocol: "http",
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
