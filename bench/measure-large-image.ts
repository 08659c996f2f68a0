import fs from "node:fs";
import http from "node:http";
import { readProcessMemory } from "./read-process-memory.js";
import { postJsonToTarget } from "./post-json-to-target.js";
import type { BenchTarget } from "./start-bench-servers.js";
import { summariseLatencies, type LatencySummary } from "./summarise-latencies.js";

export interface LargeImageResult {
  target: string;
  /** Base64 characters of the one image each answer carries. */
  b64Characters: number;
  /** Request sent → last byte of the answer, for 200 answers of the expected size. */
  latency: LatencySummary;
  /** Mean answer size, bytes. */
  answerBytes: number;
  /** RSS before the first request, settled. */
  beforeMiB: number;
  /**
   * The process's peak RSS during the requests: its high-water mark reset just before them (/proc/<pid>/clear_refs),
   * or, where the kernel refuses that, RSS sampled every 5 ms.
   */
  peakMiB: number;
  peakAboveMiB: number;
  peakFrom: "high-water mark" | "samples";
  failures: number;
}

/** Resets the process's peak RSS (VmHWM) to its current RSS; false when the kernel does not allow it. */
function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

function requestOnce(
  target: BenchTarget,
  path: string,
  body: string,
  agent: http.Agent,
): Promise<{ ok: boolean; ms: number; bytes: number }> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let bytes = 0;
    postJsonToTarget({
      target,
      path,
      body,
      agent,
      onResponse: (response) => {
        // Only counted, never kept: the bench process's own memory stays out of the way.
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on("end", () =>
          resolve({ ok: response.statusCode === 200, ms: performance.now() - startedAt, bytes }),
        );
        response.on("error", () => resolve({ ok: false, ms: Number.NaN, bytes }));
      },
      onError: () => resolve({ ok: false, ms: Number.NaN, bytes }),
    });
  });
}

/**
 * The large-answer point: `requests` image generations one after the other, each answered by the fake with one
 * `b64_json` image of `b64Characters` base64 characters (its `[b64-bytes:N]` prompt knob), timed to the last byte.
 */
export async function measureLargeImage(options: {
  target: BenchTarget;
  model: string;
  b64Characters: number;
  requests: number;
}): Promise<LargeImageResult> {
  const pid = options.target.server.process.pid!;
  const body = JSON.stringify({
    model: options.model,
    prompt: `a large picture [b64-bytes:${options.b64Characters}]`,
    response_format: "b64_json",
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const beforeMiB = readProcessMemory(pid).rssMiB;
  const peakFromMark = resetPeakRss(pid);
  let sampledPeak = beforeMiB;
  const sampler = peakFromMark
    ? undefined
    : setInterval(() => {
        sampledPeak = Math.max(sampledPeak, readProcessMemory(pid).rssMiB);
      }, 5);
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  try {
    for (let index = 0; index < options.requests; index += 1) {
      const answer = await requestOnce(options.target, "/v1/images/generations", body, agent);
      // An answer much smaller than the image is an error envelope, whatever its status.
      if (answer.ok && answer.bytes >= options.b64Characters) {
        latencies.push(answer.ms);
        bytes += answer.bytes;
      } else failures += 1;
    }
  } finally {
    if (sampler) clearInterval(sampler);
    agent.destroy();
  }
  const peakMiB = peakFromMark ? readProcessMemory(pid).peakRssMiB : sampledPeak;
  return {
    target: options.target.name,
    b64Characters: options.b64Characters,
    latency: summariseLatencies(latencies),
    answerBytes: latencies.length > 0 ? bytes / latencies.length : Number.NaN,
    beforeMiB,
    peakMiB,
    peakAboveMiB: peakMiB - beforeMiB,
    peakFrom: peakFromMark ? "high-water mark" : "samples",
    failures,
  };
}
