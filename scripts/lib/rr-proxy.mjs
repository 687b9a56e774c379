// A small round-robin HTTP proxy for the scale-out bench (scale-out on one box; Node built-ins only):
//   node scripts/lib/rr-proxy.mjs <listen port> <backend port> [<backend port> ...]
// Each request goes to the next backend in turn, with its method, path, headers (Host kept, so the app sees
// its public origin) and body streamed through; the answer comes back as the backend gave it (redirects and
// Set-Cookie untouched). Keep-alive connections to the backends. What a load balancer in front of stateless
// web processes does, minus health checks: a backend that refuses the connection gets the request's 502 and
// is skipped for a second. Sessions live in Postgres, so any backend serves any session.
import http from "node:http";

const [listenPort, ...backendPorts] = process.argv.slice(2).map(Number);
if (!listenPort || backendPorts.length === 0 || [listenPort, ...backendPorts].some((p) => !Number.isInteger(p))) {
  console.error("usage: node scripts/lib/rr-proxy.mjs <listen port> <backend port> [<backend port> ...]");
  process.exit(2);
}

// Idle connections to a backend are dropped after 30 s, before the backend drops them (workers/web.mjs keeps
// them 70 s): reusing one the backend is closing at that moment would answer 502.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 });
const downUntil = new Map();
let next = 0;

function pick() {
  for (let i = 0; i < backendPorts.length; i++) {
    const port = backendPorts[next++ % backendPorts.length];
    if ((downUntil.get(port) ?? 0) <= Date.now()) return port;
  }
  return backendPorts[next++ % backendPorts.length];
}

const server = http.createServer((req, res) => {
  const port = pick();
  const upstream = http.request(
    {
      host: "127.0.0.1",
      port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "" },
      agent,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.rawHeaders);
      up.pipe(res);
    },
  );
  upstream.on("error", (err) => {
    downUntil.set(port, Date.now() + 1000);
    if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
    res.end(`backend :${port}: ${err.message}`);
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(listenPort, "127.0.0.1", () => console.log(`rr-proxy :${listenPort} → ${backendPorts.map((p) => `:${p}`).join(", ")}`));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
