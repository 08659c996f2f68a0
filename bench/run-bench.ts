import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody, createBenchPlan, longStreamingChatBody, streamingChatBody } from "./bench-plan.js";
import type { BenchResults, MemoryReading } from "./bench-results.js";
import { evaluateAims } from "./evaluate-aims.js";
import { measureIdleCachePenalty } from "./measure-idle-cache-penalty.js";
import { measureStreamTtfb } from "./measure-stream-ttfb.js";
import { profileGateway } from "./profile-gateway.js";
import { readProcessMemory } from "./read-process-memory.js";
import { pickMedianRound, pickMedianStreamRound } from "./pick-median-round.js";
import { measureStreamThroughput, type StreamThroughputResult } from "./measure-stream-throughput.js";
import { measureOpenStreams } from "./measure-open-streams.js";
import { measureLargeImage } from "./measure-large-image.js";
import { runLoadPoint, type LoadPointResult } from "./run-load-point.js";
import {
  benchImageModel,
  directTarget,
  setUpstreamLatency,
  startBareExpressProxy,
  startFakeUpstream,
  startGateway,
  startHandWrittenFloor,
  startPortkey,
  startRawProxy,
  startUndiciPassThrough,
  type GatewayLaunch,
} from "./start-bench-servers.js";
import { writeBenchmarksMarkdown } from "./write-benchmarks-markdown.js";
import { measureTaskDrain } from "./measure-task-drain.js";
import { measureSettlementCommits } from "./measure-settlement-commits.js";
import { readSqliteCommits } from "./read-sqlite-commits.js";
import { measureMultiInstance } from "./measure-multi-instance.js";
import { measureUsageLogsAtScale } from "./measure-usage-logs-at-scale.js";
import { saveBenchmarksMarkdown } from "./save-benchmarks-markdown.js";

// `npm run bench`: the load benchmark, with the undici pass-through as the reference and its points. Writes
// docs/BENCHMARKS.md; BENCH_QUICK=1 runs 1 s points to check the harness.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const plan = createBenchPlan(process.env.BENCH_QUICK === "1");
const benchStartedAt = performance.now();
const log = (message: string) =>
  console.log(`[bench ${((performance.now() - benchStartedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

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
const undici = await startUndiciPassThrough(projectRoot, upstream.url);
const raw = await startRawProxy(projectRoot, upstream.url);
const bareExpress = await startBareExpressProxy(projectRoot, upstream.url);
const floor = await startHandWrittenFloor(projectRoot, upstream.url);
const portkey = await startPortkey(projectRoot, upstream.url);
const gateway = await startGateway(projectRoot, upstream.url, launch);
const direct = directTarget(upstream);
const measured = [undici, raw, gateway.limited, portkey];
// Bare Express is loaded at every point but not streamed: it buffers and parses every answer as JSON.
const loaded = [undici, raw, bareExpress, floor, gateway.limited, portkey];
// The reference points compare the gateway with the reference and with the fake itself.
const referenced = [direct, undici, gateway.limited];
const memoryBefore = new Map(measured.map((target) => [target.name, readProcessMemory(target.server.process.pid!)]));

/** Requests answered per SQLite ledger commit, per 0 ms / 64-connection round of the limited token. */
const requestsPerCommitRounds: number[] = [];
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
  streamPoints: [],
  openStreams: [],
  largeImages: [],
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
          ? [direct, undici, raw, bareExpress, floor, gateway.limited, gateway.unlimited, portkey]
          : [direct, ...loaded];
      const rounds = new Map(targets.map((target) => [target.name, [] as LoadPointResult[]]));
      for (let round = 1; round <= plan.rounds; round += 1) {
        for (const target of targets) {
          const countsCommits = target === gateway.limited && latencyMs === 0 && connections === 64;
          const commitsBefore = countsCommits ? await readSqliteCommits(target.url) : 0;
          const point = await runLoadPoint({
            target,
            connections,
            durationSeconds: plan.secondsPerPoint(latencyMs),
            body: chatBody,
          });
          rounds.get(target.name)!.push(point);
          if (countsCommits) {
            requestsPerCommitRounds.push(point.latency.count / ((await readSqliteCommits(target.url)) - commitsBefore));
          }
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
  // Read before the points below: the large-image point resets each process's peak.
  results.memory = measured.map((target): MemoryReading => {
    const after = readProcessMemory(target.server.process.pid!);
    return {
      target: target.name,
      beforeMiB: memoryBefore.get(target.name)!.rssMiB,
      afterMiB: after.rssMiB,
      peakMiB: after.peakRssMiB,
    };
  });
  await setUpstreamLatency(upstream, 0);
  for (const connections of plan.streamPointConnections) {
    const rounds = new Map(referenced.map((target) => [target.name, [] as StreamThroughputResult[]]));
    for (let round = 1; round <= plan.rounds; round += 1) {
      for (const target of referenced) {
        const point = await measureStreamThroughput({
          target,
          connections,
          durationSeconds: plan.streamPointSeconds,
          body: longStreamingChatBody,
        });
        rounds.get(target.name)!.push(point);
        log(
          `stream point c=${connections} round ${round} ${target.name}: ${point.chunksPerSecond.toFixed(0)} chunks/s (${point.chunksPerAnswer.toFixed(0)} per answer), first byte mean ${point.firstByte.meanMs.toFixed(2)} ms, gap p99 ${point.gap.p99Ms.toFixed(3)} ms, ${point.serverCpuMicrosecondsPerChunk.toFixed(1)} µs CPU/chunk, failures ${point.failures}`,
        );
      }
    }
    for (const [, measuredRounds] of rounds)
      results.streamPoints.push({ ...pickMedianStreamRound(measuredRounds), latencyMs: 0 });
  }
  for (const target of referenced) {
    const image = await measureLargeImage({
      target,
      model: benchImageModel,
      b64Characters: plan.largeImageB64Characters,
      requests: plan.largeImageRequests,
    });
    results.largeImages.push(image);
    log(
      `large image ${target.name}: mean ${image.latency.meanMs.toFixed(1)} ms, ${(image.answerBytes / 1e6).toFixed(1)} MB answers, peak RSS ${image.peakMiB.toFixed(0)} MiB (+${image.peakAboveMiB.toFixed(0)}), failures ${image.failures}`,
    );
  }
} finally {
  await Promise.all([
    undici.server.stop(),
    raw.server.stop(),
    bareExpress.server.stop(),
    floor.server.stop(),
    portkey.server.stop(),
    gateway.server.stop(),
  ]);
  fs.rmSync(gateway.dataFolder, { recursive: true, force: true });
}

try {
  await setUpstreamLatency(upstream, 0);
  // Open streams on fresh processes, warmed up by 50 streams: after the load points a process's heap has grown and
  // shrinks at its next collections, which would hide what the open streams take.
  const freshUndici = await startUndiciPassThrough(projectRoot, upstream.url);
  const freshGateway = await startGateway(projectRoot, upstream.url, launch);
  try {
    for (const target of [freshUndici, freshGateway.limited]) {
      await measureStreamTtfb(target, streamingChatBody, 50);
      const open = await measureOpenStreams({ target, upstream, streams: plan.openStreams, body: streamingChatBody });
      results.openStreams.push(open);
      log(
        `open streams ${target.name}: ${open.opened}/${open.streams} open, RSS ${open.idleMiB.toFixed(1)} → ${open.openMiB.toFixed(1)} MiB (+${open.aboveIdleMiB.toFixed(1)}), ${open.afterCloseMiB.toFixed(1)} after closing`,
      );
    }
  } finally {
    await Promise.all([freshUndici.server.stop(), freshGateway.server.stop()]);
    fs.rmSync(freshGateway.dataFolder, { recursive: true, force: true });
  }
  // The multi-instance mode needs PostgreSQL and Redis (BENCH_POSTGRES_URL, BENCH_REDIS_URL); without them the
  // rest of the bench still runs.
  try {
    results.multiInstance = await measureMultiInstance({
      projectRoot,
      upstream,
      launch,
      upstreamLatenciesMs: plan.upstreamLatenciesMs,
      concurrencies: [1, 64],
      rounds: plan.rounds,
      secondsPerPoint: plan.secondsPerPoint(0),
      log,
    });
  } catch (error) {
    log(`multi-instance mode not measured: ${(error as Error).message}`);
  }
  log("settlement floor: the SQLite ledger's CPU per request by requests per commit");
  results.settlementFloor = {
    requestsPerCommitRounds,
    commitCosts: await measureSettlementCommits({
      requestsPerCommit: [1, 2, 4, 8, 16, 32],
      requests: process.env.BENCH_QUICK === "1" ? 3_000 : 30_000,
    }),
  };
  log(
    `settlement floor: ${requestsPerCommitRounds.map((value) => value.toFixed(1)).join(", ")} requests per commit; ${results.settlementFloor.commitCosts.map((point) => `${point.requestsPerCommit}/commit ${point.cpuMicrosecondsPerRequest.toFixed(1)} µs`).join(", ")}`,
  );
  // BENCH_SKIP_USAGE_LOGS=1 leaves it out; `npm run bench:usage-logs` runs it alone.
  if (process.env.BENCH_SKIP_USAGE_LOGS !== "1") {
    results.usageLogs = await measureUsageLogsAtScale({
      projectRoot,
      upstream,
      launch,
      quick: process.env.BENCH_QUICK === "1",
      log,
    });
  }
  log("profiling the gateway at 0 ms, c=64");
  const profile = await profileGateway(projectRoot, upstream.url, launch, {
    body: chatBody,
    warmupSeconds: plan.warmupSeconds,
    durationSeconds: plan.profileSeconds,
  });
  log(`profile: ${profile.profileFile}`);
  log(`task point: ${plan.tasks} video tasks of four protocols drained against the fakes`);
  const taskDrain = await measureTaskDrain({ projectRoot, launch, tasks: plan.tasks, aloneTasks: plan.aloneTasks });
  log(
    `task point: ${taskDrain.pollsPerSecond.toFixed(0)} polls/s, ${taskDrain.cpuMicrosecondsPerPoll.toFixed(0)} µs CPU per poll, drained in ${taskDrain.drainSeconds.toFixed(1)} s (${taskDrain.protocols.map((protocol) => `${protocol.protocol} ${protocol.pollsPerSecond.toFixed(0)}/s, alone ${protocol.alone.pollsPerSecond.toFixed(0)}/s at ${protocol.alone.cpuMicrosecondsPerPoll.toFixed(0)} µs`).join("; ")})`,
  );
  results.machine.loadAverage.end = os.loadavg()[0]!;
  const complete: BenchResults = {
    ...results,
    taskDrain,
    profile: { summary: profile.summary, load: profile.load, seconds: plan.profileSeconds },
  };
  const findings = fs.readFileSync(path.join(projectRoot, "bench/profile-findings.md"), "utf8");
  saveBenchmarksMarkdown(projectRoot, writeBenchmarksMarkdown(complete, findings));
  const resultsFile = path.join(path.dirname(profile.profileFile), "bench-results.json");
  fs.writeFileSync(resultsFile, JSON.stringify(complete, null, 2));
  for (const verdict of evaluateAims(complete))
    log(`${verdict.passed ? "pass" : "FAIL"}: ${verdict.aim} (CPU: ${verdict.cpu}; ${verdict.measured})`);
  log(`wrote docs/BENCHMARKS.md; raw results in ${resultsFile}`);
} finally {
  await upstream.stop();
}
