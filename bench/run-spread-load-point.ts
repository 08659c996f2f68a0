import autocannon from "autocannon";
import { readMachineCpuTicks, stealShare } from "./read-machine-cpu-ticks.js";
import { readProcessCpuMicroseconds } from "./read-process-cpu-microseconds.js";
import type { LoadPointResult } from "./run-load-point.js";
import { summariseLatencies } from "./summarise-latencies.js";

export interface SpreadLoadPointOptions {
  name: string;
  /** Gateway base URLs; the connections are split evenly between them (one load generator, several instances). */
  urls: string[];
  /** Gateway process ids, whose CPU per request is reported. */
  gatewayPids: number[];
  /**
   * The PostgreSQL backends serving the gateways, whose CPU per request is reported apart; listed at the start and
   * again at the end, as a pool opens connections for a load after closing its idle ones.
   */
  listDatabaseBackends: () => Promise<number[]>;
  /**
   * `authorization` headers; request n of a connection uses key (connection + n) mod keys, or with `keyPerInstance`
   * instance i always key i mod keys (instances that share no row).
   */
  keyHeaders: Record<string, string>[];
  keyPerInstance?: boolean;
  connections: number;
  durationSeconds: number;
  body: string;
}

export interface SpreadLoadPointResult extends LoadPointResult {
  /** Answers other than 2xx by status, and transport errors and timeouts, so a failing point says why. */
  failuresByKind: Record<string, number>;
  /** CPU of PostgreSQL's backends per answered request (µs); the gateways' is serverCpuMicrosecondsPerRequest. */
  databaseCpuMicrosecondsPerRequest: number;
}

const readCpu = (pids: number[]) => pids.map((pid) => readProcessCpuMicroseconds(pid));
// A process gone by the end (a pooled connection closed while idle) counts nothing rather than making the sum NaN.
const cpuSince = (pids: number[], atStart: number[]) =>
  readCpu(pids).reduce((sum, atEnd, index) => (Number.isFinite(atEnd) ? sum + atEnd - atStart[index]! : sum), 0);
// Backends opened during the load (a pool reopening connections it closed while idle) count all their CPU.
const databaseCpuSince = async (list: () => Promise<number[]>, pids: number[], atStart: number[]) => {
  const opened = (await list()).filter((pid) => !pids.includes(pid));
  const whole = readCpu(opened).reduce((sum, cpu) => (Number.isFinite(cpu) ? sum + cpu : sum), 0);
  return cpuSince(pids, atStart) + whole;
};

/**
 * One load point spread over several gateway instances and keys: one autocannon per instance, started together, with
 * `connections / instances` connections each, every connection walking through the keys.
 */
export async function runSpreadLoadPoint(options: SpreadLoadPointOptions): Promise<SpreadLoadPointResult> {
  const latencies: number[] = [];
  let failures = 0;
  const failuresByKind: Record<string, number> = {};
  const gatewayCpuAtStart = readCpu(options.gatewayPids);
  const databasePids = await options.listDatabaseBackends();
  const databaseCpuAtStart = readCpu(databasePids);
  const machineAtStart = readMachineCpuTicks();
  const startedAt = performance.now();
  const perInstance = Math.max(1, Math.round(options.connections / options.urls.length));
  let nextKey = 0;
  const runs = options.urls.map((url, instanceIndex) => {
    const instance = autocannon({
      url: `${url}/v1/chat/completions`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: options.body,
      connections: perInstance,
      duration: options.durationSeconds,
      requests: [
        {
          setupRequest: (request: { headers?: Record<string, string> }) => {
            const key = options.keyPerInstance
              ? options.keyHeaders[instanceIndex % options.keyHeaders.length]!
              : options.keyHeaders[nextKey++ % options.keyHeaders.length]!;
            return { ...request, headers: { ...request.headers, "content-type": "application/json", ...key } };
          },
        },
      ],
    });
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
      else {
        failures += 1;
        failuresByKind[statusCode] = (failuresByKind[statusCode] ?? 0) + 1;
      }
    });
    return instance;
  });
  const results = await Promise.all(runs);
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const gatewayCpu = cpuSince(options.gatewayPids, gatewayCpuAtStart);
  const databaseCpu = await databaseCpuSince(options.listDatabaseBackends, databasePids, databaseCpuAtStart);
  for (const result of results) {
    failures += result.errors + result.timeouts;
    if (result.errors > 0) failuresByKind.errors = (failuresByKind.errors ?? 0) + result.errors;
    if (result.timeouts > 0) failuresByKind.timeouts = (failuresByKind.timeouts ?? 0) + result.timeouts;
  }
  const answered = latencies.length;
  return {
    target: options.name,
    connections: perInstance * options.urls.length,
    requestsPerSecond: answered / elapsedSeconds,
    latency: summariseLatencies(latencies),
    failures,
    failuresByKind,
    serverCpuMicrosecondsPerRequest: answered > 0 ? gatewayCpu / answered : Number.NaN,
    databaseCpuMicrosecondsPerRequest: answered > 0 ? databaseCpu / answered : Number.NaN,
    stealShare: stealShare(machineAtStart, readMachineCpuTicks()),
  };
}
