import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody, createBenchPlan, streamingChatBody } from "./bench-plan.js";
import type { BenchResults, MemoryReading } from "./bench-results.js";
import { evaluateAims } from "./evaluate-aims.js";
import { measureIdleCachePenalty } from "./measure-idle-cache-penalty.js";
import { measureStreamTtfb } from "./measure-stream-ttfb.js";
import { profileGateway } from "./profile-gateway.js";
import { readProcessMemory } from "./read-process-memory.js";
import { pickMedianRound } from "./pick-median-round.js";
import { runLoadPoint, type LoadPointResult } from "./run-load-point.js";
import {
  directTarget,
  setUpstreamLatency,
  startBareExpressProxy,
  startFakeUpstream,
  startGateway,
  startPortkey,
  startRawProxy,
  type GatewayLaunch,
} from "./start-bench-servers.js";
import { writeBenchmarksMarkdown } from "./write-benchmarks-markdown.js";
import { measureTaskDrain, writeTaskDrainSection } from "./measure-task-drain.js";

// `npm run bench`: issue 4's benchmark. Writes docs/BENCHMARKS.md; BENCH_QUICK=1 runs 1 s points to check the harness.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const plan = createBenchPlan(process.env.BENCH_QUICK === "1");
const log = (message: string) => console.log(`[bench] ${message}`);

function buildGateway(): GatewayLaunch {
  // Compiled output is what `npm start` runs; tsx stays as a fallback so a broken build elsewhere does not stop the bench.
  const build = spawnSync(
    process.execPath,
    [path.join(projectRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
    { cwd: projectRoot, encoding: "utf8" },
  );
  if (build.status === 0) return { entry: ["dist/src/main.js"] };
  log(`build failed, running the gateway through tsx instead:\n${build.stdout}${build.stderr}`);
  return { entry: ["--import", "tsx", "src/main.ts"] };
}

const launch = buildGateway();
// Before any server starts, while the machine is quiet: what an idle gap costs memory-bound work here.
const idleGaps = await measureIdleCachePenalty();
log(
  `idle gaps: ${idleGaps.map((timing) => `${timing.gapMs} ms → memory walk ${timing.memoryWalkMicroseconds.toFixed(0)} µs, arithmetic ${timing.arithmeticMicroseconds.toFixed(0)} µs`).join("; ")}`,
);
const upstream = await startFakeUpstream(projectRoot);
const raw = await startRawProxy(projectRoot, upstream.url);
const bareExpress = await startBareExpressProxy(projectRoot, upstream.url);
const portkey = await startPortkey(projectRoot, upstream.url);
const gateway = await startGateway(projectRoot, upstream.url, launch);
const direct = directTarget(upstream);
const measured = [raw, gateway.limited, portkey];
// The issue's reference stack is loaded at every point but not streamed: it buffers and parses every answer as JSON.
const loaded = [raw, bareExpress, gateway.limited, portkey];
const memoryBefore = new Map(measured.map((target) => [target.name, readProcessMemory(target.server.process.pid!)]));

const results: Omit<BenchResults, "profile"> = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverage: { start: os.loadavg()[0]!, end: Number.NaN },
    idleGaps,
  },
  gatewayLaunch: `node ${launch.entry.join(" ")}`,
  secondsPerPoint: Object.fromEntries(
    plan.upstreamLatenciesMs.map((latency) => [latency, plan.secondsPerPoint(latency)]),
  ),
  rounds: plan.rounds,
  points: [],
  streams: [],
  memory: [],
};

try {
  await setUpstreamLatency(upstream, 0);
  for (const target of [direct, ...loaded, gateway.unlimited]) {
    log(`warming up ${target.name}`);
    await runLoadPoint({ target, connections: 16, durationSeconds: plan.warmupSeconds, body: chatBody });
  }
  for (const latencyMs of plan.upstreamLatenciesMs) {
    await setUpstreamLatency(upstream, latencyMs);
    for (const connections of plan.concurrencies) {
      // The unlimited token (no reservation rows) is a cheap extra row at the 0 ms points where CPU cost shows.
      const targets =
        latencyMs === 0 && connections !== 16
          ? [direct, raw, bareExpress, gateway.limited, gateway.unlimited, portkey]
          : [direct, ...loaded];
      const rounds = new Map(targets.map((target) => [target.name, [] as LoadPointResult[]]));
      for (let round = 1; round <= plan.rounds; round += 1) {
        for (const target of targets) {
          const point = await runLoadPoint({
            target,
            connections,
            durationSeconds: plan.secondsPerPoint(latencyMs),
            body: chatBody,
          });
          rounds.get(target.name)!.push(point);
          log(
            `${latencyMs} ms c=${connections} round ${round} ${target.name}: ${point.requestsPerSecond.toFixed(0)} req/s, mean ${point.latency.meanMs.toFixed(2)} ms, ${point.serverCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request, steal ${(100 * point.stealShare).toFixed(0)}%, failures ${point.failures}`,
          );
        }
      }
      for (const [, measuredRounds] of rounds) results.points.push({ ...pickMedianRound(measuredRounds), latencyMs });
    }
  }
  for (const latencyMs of plan.upstreamLatenciesMs) {
    await setUpstreamLatency(upstream, latencyMs);
    for (const target of [direct, ...measured]) {
      const stream = await measureStreamTtfb(target, streamingChatBody, plan.streamRequests(latencyMs));
      results.streams.push({ ...stream, latencyMs });
      log(
        `stream ${latencyMs} ms ${target.name}: first byte mean ${stream.firstByte.meanMs.toFixed(2)} ms, failures ${stream.failures}`,
      );
    }
  }
  results.memory = measured.map((target): MemoryReading => {
    const after = readProcessMemory(target.server.process.pid!);
    return {
      target: target.name,
      beforeMiB: memoryBefore.get(target.name)!.rssMiB,
      afterMiB: after.rssMiB,
      peakMiB: after.peakRssMiB,
    };
  });
} finally {
  await Promise.all([raw.server.stop(), bareExpress.server.stop(), portkey.server.stop(), gateway.server.stop()]);
  fs.rmSync(gateway.dataFolder, { recursive: true, force: true });
}

try {
  await setUpstreamLatency(upstream, 0);
  log("profiling the gateway at 0 ms, c=64");
  const profile = await profileGateway(projectRoot, upstream.url, launch, {
    body: chatBody,
    warmupSeconds: plan.warmupSeconds,
    durationSeconds: plan.profileSeconds,
  });
  log(`profile: ${profile.profileFile}`);
  results.machine.loadAverage.end = os.loadavg()[0]!;
  const complete: BenchResults = {
    ...results,
    profile: { summary: profile.summary, load: profile.load, seconds: plan.profileSeconds },
  };
  const findings = fs.readFileSync(path.join(projectRoot, "bench/profile-findings.md"), "utf8");
  fs.writeFileSync(path.join(projectRoot, "docs/BENCHMARKS.md"), writeBenchmarksMarkdown(complete, findings));
  const resultsFile = path.join(path.dirname(profile.profileFile), "bench-results.json");
  fs.writeFileSync(resultsFile, JSON.stringify(complete, null, 2));
  for (const verdict of evaluateAims(complete))
    log(`${verdict.passed ? "pass" : "FAIL"}: ${verdict.aim} (${verdict.measured})`);
  log(`wrote docs/BENCHMARKS.md; raw results in ${resultsFile}`);
  log("task point: queued video tasks drained against the fake");
  const taskDrain = await measureTaskDrain({ tasks: process.env.BENCH_QUICK === "1" ? 500 : 10_000 });
  writeTaskDrainSection(projectRoot, taskDrain);
  log(`task point: ${taskDrain.pollsPerSecond.toFixed(0)} polls/s, drained in ${taskDrain.drainSeconds.toFixed(1)} s`);
} finally {
  await upstream.stop();
}
