// A small round-robin HTTP proxy for `npm run prod` and the scale-out benches (Node built-ins only):
//   node scripts/lib/rr-proxy.mjs <listen port> <backend port> [<backend port> ...]
// Each request goes to the next backend in turn, with its method, path, headers (Host kept, so the app sees
// its public origin) and body; the answer comes back as the backend gave it (redirects and Set-Cookie
// untouched). Keep-alive connections to the backends. Sessions live in Postgres, so any backend serves any
// session. What a load balancer in front of stateless web processes does when one of them dies (nginx's
// `proxy_next_upstream error` with request buffering, its default):
//   - the request body is read whole before it is sent, so it can be sent again;
//   - a backend that refuses the connection (the request never reached it) is skipped for a second and the
//     request goes to the next one, whatever its method;
//   - a backend that drops the connection before answering gets a GET or HEAD sent to the next one; any
//     other method is not repeated (the backend may have acted on it) and gets the 502 page;
//   - when no backend answers, the 502 is the product's "try again" page (the app's own 503 page says the
//     same, app/components/errors.ts), never the socket's error text.
import http from "node:http";

const [listenPort, ...backendPorts] = process.argv.slice(2).map(Number);
// A listen port of 0 takes a free one (the first line printed names it).
if (
  backendPorts.length === 0 ||
  [listenPort, ...backendPorts].some((p) => !Number.isInteger(p) || p < 0)
) {
  console.error(
    "usage: node scripts/lib/rr-proxy.mjs <listen port> <backend port> [<backend port> ...]",
  );
  process.exit(2);
}

// Idle connections to a backend are dropped after 30 s, before the backend drops them (workers/web.mjs keeps
// them 70 s): reusing one the backend is closing at that moment would answer 502.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 });
const downUntil = new Map();
let next = 0;

const TRY_AGAIN_PAGE =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Please try again</title></head><body>' +
  "<h1>Please try again</h1><p>The marketplace is briefly unavailable. Please try again in a moment.</p></body></html>";

/** The backends in the order to try them: the next one in turn first, those marked down last. */
function order() {
  const start = next++ % backendPorts.length;
  const ports = backendPorts.map((_, i) => backendPorts[(start + i) % backendPorts.length]);
  const now = Date.now();
  return [
    ...ports.filter((p) => (downUntil.get(p) ?? 0) <= now),
    ...ports.filter((p) => (downUntil.get(p) ?? 0) > now),
  ];
}

/** One try: resolves with the backend's response, or rejects with `{ err, reached }` (reached: the request was sent). */
function attempt(req, body, port) {
  return new Promise((resolve, reject) => {
    let reached = false;
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "" },
        agent,
      },
      resolve,
    );
    upstream.on("socket", (socket) => {
      if (!socket.connecting)
        reached = true; // a kept-alive socket: the bytes go out at once
      else socket.once("connect", () => (reached = true));
    });
    upstream.on("error", (err) => reject({ err, reached: reached && err.code !== "ECONNREFUSED" }));
    upstream.end(body);
  });
}

async function forward(req, res, body) {
  const repeatable = req.method === "GET" || req.method === "HEAD";
  for (const port of order()) {
    try {
      const up = await attempt(req, body, port);
      res.writeHead(up.statusCode ?? 502, up.rawHeaders);
      up.pipe(res);
      return;
    } catch ({ err, reached }) {
      downUntil.set(port, Date.now() + 1000);
      console.error(`backend :${port}: ${err?.message ?? err} (${req.method} ${req.url})`);
      if (reached && !repeatable) break;
    }
  }
  res.writeHead(502, {
    "Content-Type": "text/html; charset=utf-8",
    "Retry-After": "1",
    "Cache-Control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : TRY_AGAIN_PAGE);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => void forward(req, res, Buffer.concat(chunks)));
  req.on("error", () => res.destroy());
});
server.keepAliveTimeout = 65_000;
server.listen(listenPort, "127.0.0.1", () =>
  console.log(
    `rr-proxy :${server.address().port} → ${backendPorts.map((p) => `:${p}`).join(", ")}`,
  ),
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
