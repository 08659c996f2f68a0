import type { AddressInfo } from "node:net";
import express from "express";
import { Pool } from "undici";

// The stack the aims were calibrated against: bare Express 5 with JSON body parsing and an undici pass-through,
// nothing else (no validation, authentication, routing or billing). The request body is parsed and re-serialised
// and so is the answer, as any gateway that reads the model and the usage must.
const pool = new Pool(process.env.BENCH_PROXY_TARGET ?? "", { connections: 512 });
const app = express();
app.use(express.json());
app.post("/v1/chat/completions", async (request, response, next) => {
  try {
    const upstreamAnswer = await pool.request({
      path: request.path,
      method: "POST",
      headers: { authorization: request.headers.authorization ?? "", "content-type": "application/json" },
      body: JSON.stringify(request.body),
    });
    const answer: unknown = await upstreamAnswer.body.json();
    response.status(upstreamAnswer.statusCode).json(answer);
  } catch (error) {
    next(error);
  }
});
const server = app.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void pool.close().then(() => process.exit(0)));
});
