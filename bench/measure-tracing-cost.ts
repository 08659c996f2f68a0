import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody } from "./bench-plan.js";
import { median } from "./pick-median-round.js";
import { runLoadPoint } from "./run-load-point.js";
import { setUpstreamLatency, startFakeUpstream, startGateway } from "./start-bench-servers.js";

// What OpenTelemetry tracing costs the gateway (issue 28): the same build on SQLite with tracing off (no OTEL_*
// variable: nothing of OpenTelemetry is loaded) and on (OTLP over HTTP to a receiver in this process that counts the
// spans it is sent and answers 200), alternating round by round at 0 ms upstream, limited token.
// Run alone: npx tsx bench/measure-tracing-cost.ts [rounds] [seconds] [connections,…] (defaults 5, 3, "1,64");
// BENCH_GATEWAY_ENTRY (default dist/src/main.js).
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 3);
const connectionPoints = (process.argv[4] ?? "1,64").split(",").map(Number);

let spansReceived = 0;
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    // OTLP/HTTP JSON: resourceSpans[].scopeSpans[].spans[]; counted, not kept.
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
    };
    for (const resource of body.resourceSpans ?? [])
      for (const scope of resource.scopeSpans ?? []) spansReceived += scope.spans?.length ?? 0;
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const launch = { entry: [process.env.BENCH_GATEWAY_ENTRY ?? "dist/src/main.js"] };
const upstream = await startFakeUpstream(projectRoot);
const off = await startGateway(projectRoot, upstream.url, launch);
const on = await startGateway(projectRoot, upstream.url, launch, {
  OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
  OTEL_SERVICE_NAME: "gateway-bench",
});
try {
  await setUpstreamLatency(upstream, 0);
  for (const target of [off.limited, on.limited])
    await runLoadPoint({ target, connections: 16, durationSeconds: 2, body: chatBody });
  for (const connections of connectionPoints) {
    const rows: { off: number; on: number; offCpu: number; onCpu: number; spansPerRequest: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const offPoint = await runLoadPoint({
        target: off.limited,
        connections,
        durationSeconds: seconds,
        body: chatBody,
      });
      // The batch processor exports every 5 s; spans of earlier rounds may still arrive, so count from a quiet moment.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const spansBefore = spansReceived;
      const onPoint = await runLoadPoint({ target: on.limited, connections, durationSeconds: seconds, body: chatBody });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const onRequests = onPoint.requestsPerSecond * seconds;
      rows.push({
        off: offPoint.requestsPerSecond,
        on: onPoint.requestsPerSecond,
        offCpu: offPoint.serverCpuMicrosecondsPerRequest,
        onCpu: onPoint.serverCpuMicrosecondsPerRequest,
        spansPerRequest: (spansReceived - spansBefore) / onRequests,
      });
      console.log(
        `c=${connections} round ${round + 1}: off ${offPoint.requestsPerSecond.toFixed(0)} req/s ${offPoint.serverCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request (failures ${offPoint.failures}); on ${onPoint.requestsPerSecond.toFixed(0)} req/s ${onPoint.serverCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request (failures ${onPoint.failures}), ${rows.at(-1)!.spansPerRequest.toFixed(2)} spans a request received`,
      );
    }
    console.log(
      `c=${connections} medians over ${rounds} rounds: requests/s on ÷ off ${median(rows.map((row) => row.on / row.off)).toFixed(3)}, CPU a request on ÷ off ${median(rows.map((row) => row.onCpu / row.offCpu)).toFixed(3)} (${median(rows.map((row) => row.offCpu)).toFixed(0)} → ${median(rows.map((row) => row.onCpu)).toFixed(0)} µs)`,
    );
  }
} finally {
  await Promise.all([off.server.stop(), on.server.stop(), upstream.stop()]);
  receiver.close();
}
process.exit(0);
