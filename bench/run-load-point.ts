import autocannon from "autocannon";
import type { BenchTarget } from "./start-bench-servers.js";
import { readMachineCpuTicks, stealShare } from "./read-machine-cpu-ticks.js";
import { readProcessCpuMicroseconds } from "./read-process-cpu-microseconds.js";
import { summariseLatencies, type LatencySummary } from "./summarise-latencies.js";

export interface LoadPointOptions {
  target: BenchTarget;
  connections: number;
  durationSeconds: number;
  body: string;
}

export interface LoadPointResult {
  target: string;
  connections: number;
  requestsPerSecond: number;
  /** 2xx answers only; anything else counts in `failures`. */
  latency: LatencySummary;
  failures: number;
  /**
   * CPU time (user + system) of the process the load hits, per answered request: the proxy alone for a proxy (the
   * upstream's share not included), the upstream itself for direct calls. Steadier than requests/s on a shared
   * machine, since it does not count the time a process waited for a core.
   */
  serverCpuMicrosecondsPerRequest: number;
  /**
   * The share of the machine's CPU time the hypervisor gave to other guests during the point: a point with much
   * steal measured the host's neighbours as much as the target.
   */
  stealShare: number;
}

/**
 * One point of the benchmark: `connections` keep-alive clients sending the same non-streaming chat request for
 * `durationSeconds`. Latencies come from autocannon's per-response event (fractional milliseconds).
 */
export async function runLoadPoint(options: LoadPointOptions): Promise<LoadPointResult> {
  const latencies: number[] = [];
  let failures = 0;
  const serverPid = options.target.server.process.pid;
  const cpuAtStart = readProcessCpuMicroseconds(serverPid);
  const machineAtStart = readMachineCpuTicks();
  const startedAt = performance.now();
  const instance = autocannon({
    url: `${options.target.url}/v1/chat/completions`,
    method: "POST",
    headers: { ...options.target.headers, "content-type": "application/json" },
    body: options.body,
    connections: options.connections,
    duration: options.durationSeconds,
  });
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    else failures += 1;
  });
  const result = await instance;
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const serverCpuMicroseconds = readProcessCpuMicroseconds(serverPid) - cpuAtStart;
  const machineAtEnd = readMachineCpuTicks();
  failures += result.errors + result.timeouts;
  return {
    target: options.target.name,
    connections: options.connections,
    requestsPerSecond: latencies.length / elapsedSeconds,
    latency: summariseLatencies(latencies),
    failures,
    serverCpuMicrosecondsPerRequest: latencies.length > 0 ? serverCpuMicroseconds / latencies.length : Number.NaN,
    stealShare: stealShare(machineAtStart, machineAtEnd),
  };
}
