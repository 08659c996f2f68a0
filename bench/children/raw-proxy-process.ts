import http from "node:http";

// The comparison floor: a bare node:http pass-through with a keep-alive pool, no parsing of anything.
const target = new URL(process.env.BENCH_PROXY_TARGET ?? "");
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

const server = http.createServer((request, response) => {
  const upstreamRequest = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
      agent,
    },
    (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(response);
    },
  );
  upstreamRequest.on("error", () => response.destroy());
  request.pipe(upstreamRequest);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.send?.({ type: "ready", url: `http://127.0.0.1:${address.port}` });
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
