import http from "node:http";
import { postJsonToTarget } from "./post-json-to-target.js";
import type { BenchTarget } from "./start-bench-servers.js";
import { summariseLatencies, type LatencySummary } from "./summarise-latencies.js";

export interface StreamTtfbResult {
  target: string;
  /** Time from sending the request to the first body byte (the first SSE event). */
  firstByte: LatencySummary;
  failures: number;
}

export type MeasuredStream = StreamTtfbResult & { latencyMs: number };

function streamOnce(target: BenchTarget, body: string, agent: http.Agent): Promise<number | undefined> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let firstByteMs: number | undefined;
    postJsonToTarget({
      target,
      path: "/v1/chat/completions",
      body,
      agent,
      accept: "text/event-stream",
      onResponse: (response) => {
        const ok = response.statusCode === 200;
        response.on("data", () => {
          firstByteMs ??= performance.now() - startedAt;
        });
        response.on("end", () => resolve(ok ? firstByteMs : undefined));
        response.on("error", () => resolve(undefined));
      },
      onError: () => resolve(undefined),
    });
  });
}

/** Sequential streaming requests (one at a time), read to the end, timing the first body byte of each. */
export async function measureStreamTtfb(
  target: BenchTarget,
  body: string,
  requests: number,
): Promise<StreamTtfbResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let failures = 0;
  for (let index = 0; index < requests; index += 1) {
    const firstByteMs = await streamOnce(target, body, agent);
    if (firstByteMs === undefined) failures += 1;
    else times.push(firstByteMs);
  }
  agent.destroy();
  return { target: target.name, firstByte: summariseLatencies(times), failures };
}
