import type { FaultPlan } from "../../mocks/upstreams/shared/fault-plan.js";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";

// The fake OpenAI upstream in its own process, so its event loop is not shared with the load generator.
// The bench sets its fault plan over IPC: a FaultPlan without `times` applies to every request until replaced
// (`set-latency` for the load points, `set-faults` for a whole plan, e.g. streams that stall after their first events).
const upstream = await startFakeOpenaiServer({ apiKey: process.env.BENCH_UPSTREAM_KEY });

// The fake records every request for tests; a load run would otherwise grow that list by millions of entries.
setInterval(() => {
  upstream.requests.length = 0;
}, 1_000).unref();

process.on("message", (message: { type: string; latencyMs?: number; faults?: FaultPlan }) => {
  if (message.type === "set-latency") {
    upstream.setFaults(message.latencyMs ? { latencyMs: message.latencyMs } : {});
    process.send?.({ type: "latency-set", latencyMs: message.latencyMs ?? 0 });
  } else if (message.type === "set-faults") {
    upstream.setFaults(message.faults ?? {});
    process.send?.({ type: "faults-set" });
  }
});
process.on("SIGTERM", () => {
  void upstream.close().then(() => process.exit(0));
});
process.send?.({ type: "ready", url: upstream.url });
