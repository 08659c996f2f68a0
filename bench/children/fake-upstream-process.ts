import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";

// The fake OpenAI upstream in its own process, so its event loop is not shared with the load generator.
// The bench switches its latency over IPC: a FaultPlan without `times` applies to every request until replaced.
const upstream = await startFakeOpenaiServer({ apiKey: process.env.BENCH_UPSTREAM_KEY });

// The fake records every request for tests; a load run would otherwise grow that list by millions of entries.
setInterval(() => {
  upstream.requests.length = 0;
}, 1_000).unref();

process.on("message", (message: { type: string; latencyMs?: number }) => {
  if (message.type !== "set-latency") return;
  upstream.setFaults(message.latencyMs ? { latencyMs: message.latencyMs } : {});
  process.send?.({ type: "latency-set", latencyMs: message.latencyMs ?? 0 });
});
process.on("SIGTERM", () => {
  void upstream.close().then(() => process.exit(0));
});
process.send?.({ type: "ready", url: upstream.url });
