import http from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream";
import { Pool } from "undici";

// The reference every aim is measured against (issue 19): a raw node:http server in, an undici `Pool.request` out
// to the same upstream, the bytes piped both ways and nothing else (no parsing, validation, authentication or
// billing). The pool is built as the gateway builds its channel pools: no connection limit, 30 s keep-alive.
const pool = new Pool(process.env.BENCH_PROXY_TARGET ?? "", { keepAliveTimeout: 30_000 });
// Hop-by-hop headers belong to one connection; undici refuses some of them on a request and Node sets its own.
const hopByHop = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "expect", "te"]);

function forwardedHeaders(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !hopByHop.has(name)) forwarded[name] = value;
  return forwarded;
}

const server = http.createServer((request, response) => {
  pool
    .request({
      path: request.url ?? "/",
      method: (request.method ?? "GET") as "GET",
      headers: forwardedHeaders(request.headers),
      body: request.method === "GET" || request.method === "HEAD" ? null : request,
    })
    .then(
      (upstream) => {
        response.writeHead(upstream.statusCode, forwardedHeaders(upstream.headers));
        pipeline(upstream.body, response, () => undefined);
      },
      () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      },
    );
  // A client gone mid-answer: the pipeline destroys the upstream body, which aborts the upstream request.
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void pool.destroy().then(() => process.exit(0)));
});
