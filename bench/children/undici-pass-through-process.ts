import http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";

// The reference every aim is measured against: a raw node:http server in, an undici `Pool.request` out
// to the same upstream, the bytes passed through both ways and nothing else (no parsing, validation, authentication
// or billing). The pool is built as the gateway builds its channel pools: no connection limit, 30 s keep-alive.
// The request's bytes are gathered and sent as one Buffer (undici's fast path: handing it the request stream cost
// 1.5–2× the CPU per request in a probe on this machine), the answer is piped back as it arrives.
const pool = new Pool(process.env.BENCH_PROXY_TARGET ?? "", { keepAliveTimeout: 30_000 });
// Hop-by-hop headers belong to one connection; undici refuses some of them on a request and Node sets its own.
const hopByHop = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "expect", "te"]);

function forwardedHeaders(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !hopByHop.has(name)) forwarded[name] = value;
  return forwarded;
}

function relay(request: http.IncomingMessage, response: http.ServerResponse, body: Buffer | null): void {
  pool
    .request({
      path: request.url ?? "/",
      method: (request.method ?? "GET") as "GET",
      headers: forwardedHeaders(request.headers),
      body,
    })
    .then(
      (upstream) => {
        response.writeHead(upstream.statusCode, forwardedHeaders(upstream.headers));
        upstream.body.pipe(response);
        upstream.body.on("error", () => response.destroy());
        // A client gone mid-answer: destroying the upstream body aborts the upstream request.
        response.on("close", () => {
          if (!response.writableFinished) upstream.body.destroy();
        });
      },
      () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      },
    );
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () =>
    relay(request, response, chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)),
  );
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void pool.destroy().then(() => process.exit(0)));
});
