/**
 * The round-robin proxy in front of `npm run prod`'s web processes (scripts/lib/rr-proxy.mjs): a backend that
 * is down is skipped and the request, body included, goes to the next one; when none answers, the answer is
 * the product's "try again" page with a 502, never a socket error's text.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TRY_AGAIN_TEXT } from "../../app/components/errors";

let PROXY = 0;
let DEAD = 0;
let LIVE = 0;
let proxy: ChildProcess;
let live: http.Server;

/** A port the system hands out now: the server bound to it is closed again, so nothing answers there. */
async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  live = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => res.end(`${req.method} ${req.url} ${body}`));
  });
  await new Promise<void>((r) => live.listen(0, "127.0.0.1", r));
  LIVE = (live.address() as AddressInfo).port;
  DEAD = await freePort();
  proxy = spawn(
    process.execPath,
    [path.resolve("scripts/lib/rr-proxy.mjs"), "0", String(DEAD), String(LIVE)],
    { stdio: "pipe" },
  );
  const first = await new Promise<string>((resolve, reject) => {
    proxy.stdout!.once("data", (d: Buffer) => resolve(String(d)));
    proxy.once("exit", (code) => reject(new Error(`rr-proxy exited (${code})`)));
  });
  PROXY = Number(/rr-proxy :(\d+)/.exec(first)?.[1]);
});
afterAll(() => {
  proxy?.kill();
  live?.closeAllConnections();
  live?.close();
});

describe("rr-proxy", () => {
  test("every request reaches the live backend, a POST's body included, though the other refuses connections", async () => {
    for (let i = 0; i < 4; i++) {
      const post = i % 2 === 1;
      const res = await fetch(`http://127.0.0.1:${PROXY}/orders?i=${i}`, {
        method: post ? "POST" : "GET",
        body: post ? `n=${i}` : undefined,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(post ? `POST /orders?i=${i} n=${i}` : `GET /orders?i=${i} `);
    }
  });

  test("no backend answers: 502 with the try-again page and Retry-After", async () => {
    live.closeAllConnections();
    await new Promise<void>((r) => live.close(() => r()));
    const res = await fetch(`http://127.0.0.1:${PROXY}/orders`);
    expect(res.status).toBe(502);
    expect(res.headers.get("retry-after")).toBe("1");
    const text = await res.text();
    expect(text).toContain(TRY_AGAIN_TEXT); // the app's own 503 page says the same
    expect(text).not.toMatch(/ECONNREFUSED|backend :/);
  });
});
