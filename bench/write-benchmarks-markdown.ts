import { formatUsageLogsAtScale } from "./measure-usage-logs-at-scale.js";
import type { BenchResults } from "./bench-results.js";
import { evaluateAims } from "./evaluate-aims.js";
import { median } from "./pick-median-round.js";
import {
  floorRowsOf,
  figuresPerRound,
  type MultiInstanceRound,
  type MultiInstanceRow,
} from "./measure-multi-instance.js";
import type { ProfileEntry } from "./summarise-cpu-profile.js";
import { formatTaskDrainSection } from "./format-task-drain-section.js";
import { directName, undiciPassThroughName } from "./target-names.js";

const format = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const signed = (value: number) => (Number.isFinite(value) ? `${value >= 0 ? "+" : ""}${value.toFixed(2)}` : "–");

function loadTable(results: BenchResults, latencyMs: number): string {
  const rows = [
    "| target | c | CPU µs/req | CPU × undici | req/s | % of undici | mean ms | p50 ms | p99 ms | added mean | added p50 | added p99 | steal % | failures |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const points = results.points.filter((point) => point.latencyMs === latencyMs);
  const connectionsList = [...new Set(points.map((point) => point.connections))].sort((left, right) => left - right);
  for (const connections of connectionsList) {
    const atLevel = points.filter((point) => point.connections === connections);
    const direct = atLevel.find((point) => point.target === directName);
    const reference = atLevel.find((point) => point.target === undiciPassThroughName);
    for (const point of atLevel) {
      const isDirect = point.target === directName;
      const versusReference = (value: number, of: number) => (reference && !isDirect ? value / of : Number.NaN);
      rows.push(
        `| ${point.target} | ${connections} | **${format(point.serverCpuMicrosecondsPerRequest, 0)}** | ${format(versusReference(point.serverCpuMicrosecondsPerRequest, reference?.serverCpuMicrosecondsPerRequest ?? Number.NaN))} | ${format(point.requestsPerSecond, 0)} | ${format(100 * versusReference(point.requestsPerSecond, reference?.requestsPerSecond ?? Number.NaN), 1)} | ${format(point.latency.meanMs)} | ${format(point.latency.p50Ms)} | ${format(point.latency.p99Ms)} | ${
          isDirect || !direct ? "–" : signed(point.latency.meanMs - direct.latency.meanMs)
        } | ${isDirect || !direct ? "–" : signed(point.latency.p50Ms - direct.latency.p50Ms)} | ${isDirect || !direct ? "–" : signed(point.latency.p99Ms - direct.latency.p99Ms)} | ${format(100 * point.stealShare, 0)} | ${point.failures} |`,
      );
    }
  }
  return rows.join("\n");
}

function streamPointTable(results: BenchResults): string {
  const rows = [
    "| target | c | CPU µs/chunk | CPU × undici | chunks/s | % of undici | chunks/answer | first byte mean ms | added first byte | gap p50 ms | gap p99 ms | added gap p99 | answers | failures |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const point of results.streamPoints) {
    const atLevel = results.streamPoints.filter((entry) => entry.connections === point.connections);
    const direct = atLevel.find((entry) => entry.target === directName);
    const reference = atLevel.find((entry) => entry.target === undiciPassThroughName);
    const isDirect = point.target === directName;
    const versusReference = (value: number, of: number | undefined) =>
      reference && !isDirect && of !== undefined ? value / of : Number.NaN;
    const added = (value: number, of: number | undefined) => (isDirect || of === undefined ? "–" : signed(value - of));
    rows.push(
      `| ${point.target} | ${point.connections} | **${format(point.serverCpuMicrosecondsPerChunk, 1)}** | ${format(versusReference(point.serverCpuMicrosecondsPerChunk, reference?.serverCpuMicrosecondsPerChunk))} | ${format(point.chunksPerSecond, 0)} | ${format(100 * versusReference(point.chunksPerSecond, reference?.chunksPerSecond), 1)} | ${format(point.chunksPerAnswer, 0)} | ${format(point.firstByte.meanMs)} | ${added(point.firstByte.meanMs, direct?.firstByte.meanMs)} | ${format(point.gap.p50Ms, 3)} | ${format(point.gap.p99Ms, 3)} | ${added(point.gap.p99Ms, direct?.gap.p99Ms)} | ${point.answers} | ${point.failures} |`,
    );
  }
  return rows.join("\n");
}

function openStreamsTable(results: BenchResults): string {
  const rows = [
    "| process | streams open | idle MiB | with the streams open MiB | above idle MiB | above idle MB | after closing MiB |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const entry of results.openStreams)
    rows.push(
      `| ${entry.target} | ${entry.opened} of ${entry.streams} | ${format(entry.idleMiB, 1)} | ${format(entry.openMiB, 1)} | **${format(entry.aboveIdleMiB, 1)}** | ${format((entry.aboveIdleMiB * 1024 ** 2) / 1e6, 1)} | ${format(entry.afterCloseMiB, 1)} |`,
    );
  return rows.join("\n");
}

function largeImageTable(results: BenchResults): string {
  const rows = [
    "| target | requests | answer MB | mean ms | p50 ms | added mean | RSS before MiB | peak RSS MiB | peak above before MiB | peak from | failures |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
  ];
  const direct = results.largeImages.find((entry) => entry.target === directName);
  for (const entry of results.largeImages)
    rows.push(
      `| ${entry.target} | ${entry.latency.count} | ${format(entry.answerBytes / 1e6, 1)} | ${format(entry.latency.meanMs, 1)} | ${format(entry.latency.p50Ms, 1)} | ${
        entry.target === directName || !direct ? "–" : signed(entry.latency.meanMs - direct.latency.meanMs)
      } | ${format(entry.beforeMiB, 0)} | ${format(entry.peakMiB, 0)} | **${format(entry.peakAboveMiB, 0)}** | ${entry.peakFrom} | ${entry.failures} |`,
    );
  return rows.join("\n");
}

function idleGapSentence(results: BenchResults): string {
  const gaps = results.machine.idleGaps;
  const backToBack = gaps.find((timing) => timing.gapMs === 0);
  const described = gaps
    .map(
      (timing) =>
        `${format(timing.memoryWalkMicroseconds, 0)} µs ${timing.gapMs === 0 ? "back to back" : `after ${timing.gapMs} ms idle`}`,
    )
    .join(", ");
  const arithmetic = gaps.map((timing) => format(timing.arithmeticMicroseconds, 0)).join(" / ");
  const slowest = gaps.at(-1);
  const factor =
    backToBack && slowest && slowest !== backToBack
      ? ` (${format(slowest.memoryWalkMicroseconds / backToBack.memoryWalkMicroseconds, 1)}× after ${slowest.gapMs} ms)`
      : "";
  return `${described}${factor}; an arithmetic loop measured alongside took ${arithmetic} µs`;
}

function streamTable(results: BenchResults): string {
  const rows = [
    "| upstream | target | requests | mean ms | p50 ms | p99 ms | added mean | added p50 | failures |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const stream of results.streams) {
    const direct = results.streams.find((entry) => entry.latencyMs === stream.latencyMs && entry.target === directName);
    const isDirect = stream.target === directName;
    rows.push(
      `| ${stream.latencyMs} ms | ${stream.target} | ${stream.firstByte.count} | ${format(stream.firstByte.meanMs)} | ${format(stream.firstByte.p50Ms)} | ${format(stream.firstByte.p99Ms)} | ${
        isDirect || !direct ? "–" : signed(stream.firstByte.meanMs - direct.firstByte.meanMs)
      } | ${isDirect || !direct ? "–" : signed(stream.firstByte.p50Ms - direct.firstByte.p50Ms)} | ${stream.failures} |`,
    );
  }
  return rows.join("\n");
}

function profileTable(entries: ProfileEntry[], busyMs: number, limit: number): string {
  const rows = ["| self % | total % | function or package |", "|---:|---:|---|"];
  for (const entry of entries.slice(0, limit)) {
    rows.push(
      `| ${format((100 * entry.selfMs) / busyMs, 1)} | ${entry.totalMs === undefined ? "–" : format((100 * entry.totalMs) / busyMs, 1)} | \`${entry.name}\` |`,
    );
  }
  return rows.join("\n");
}

/** docs/BENCHMARKS.md from one run's results; `findings` is the hand-written reading of the profile. */
function settlementFloorSection(floor: NonNullable<BenchResults["settlementFloor"]>): string {
  const perCommit = floor.requestsPerCommitRounds;
  const sorted = [...perCommit].sort((left, right) => left - right);
  const middle = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const rows = [
    "| requests per commit | ledger CPU µs per request | of which user | of which system |",
    "|---:|---:|---:|---:|",
  ];
  for (const point of floor.commitCosts)
    rows.push(
      `| ${point.requestsPerCommit} | ${format(point.cpuMicrosecondsPerRequest, 1)} | ${format(point.userMicrosecondsPerRequest, 1)} | ${format(point.systemMicrosecondsPerRequest, 1)} |`,
    );
  return `## The settlement floor (SQLite)

A limited token's request writes its reservation, its settlement with the ledger row and its usage row, and its
answer waits until that settlement is committed (the settlements finished in one event-loop turn share one commit).
In the 0 ms, 64-connection rounds of the limited token above the gateway answered **${format(middle, 1)} requests per
commit** (median; rounds ${perCommit.map((value) => format(value, 1)).join(", ")}, from \`gateway_sqlite_commits_total\`).
What the ledger alone costs per request at each ratio, through the gateway's own ledger and commit window with no
HTTP at all (bench/measure-settlement-commits.ts):

${rows.join("\n")}
`;
}

export function writeBenchmarksMarkdown(results: BenchResults, findings: string): string {
  const aims = evaluateAims(results);
  const { summary } = results.profile;
  const gatewayFrames = summary.functions
    .filter((entry) => / (src|generated)\//.test(entry.name))
    .sort((left, right) => (right.totalMs ?? 0) - (left.totalMs ?? 0));
  return `# Benchmarks

Generated by \`npm run bench\` (bench/run-bench.ts) on ${results.date}. Do not edit the measured sections by hand:
the profile findings come from [bench/profile-findings.md](../bench/profile-findings.md).

- Machine: ${results.machine.cpus} CPUs (${results.machine.cpuModel}), ${results.machine.platform}, Node ${results.machine.node};
  1-minute load average ${format(results.machine.loadAverage.start)} at the start and ${format(results.machine.loadAverage.end)} at the end
  (above ${results.machine.cpus}, other work competed for the CPUs and every number below is pessimistic and noisy).
- Gateway: \`${results.gatewayLaunch}\`, SQLite in a temporary folder, \`LOG_LEVEL=warn\`, one config channel to the
  fake upstream (the chat model and a per-image priced image model), a limited token created through \`POST /api/token/\` (so every request takes the real reservation and
  settlement path) and, for comparison, an unlimited one.
- Upstream: the fake OpenAI server (mocks/upstreams/openai) with a \`latencyMs\` fault of 0 or 20 ms on every request.
- **The reference: the _undici Pool pass-through_** (bench/children/undici-pass-through-process.ts): a raw
  \`node:http\` server in, an undici \`Pool.request\` out to the same upstream, the bytes piped both ways and nothing
  else, the strongest limit a Node gateway has. Every aim compares with it; *CPU × undici* and *% of undici* are
  ratios to its row at the same point. Kept for continuity: a raw \`node:http\` pass-through with a keep-alive
  agent; *bare Express 5 + undici* (Express 5, \`express.json()\`, an undici \`Pool\`, the answer parsed and sent
  with \`res.json\`: no validation, authentication, routing or billing; bench/children/bare-express-proxy-process.ts);
  and the Portkey gateway (\`@portkey-ai/gateway\`, \`x-portkey-provider: openai\` + \`x-portkey-custom-host\`,
  \`@hono/node-server\` 1.13.8).
- **The measured floor of the CPU aim: the _hand-written floor_** (bench/children/hand-written-floor-process.ts):
  the least work a gateway that validates, authenticates and bills before answering must do, written by hand
  straight on \`node:http\` and an undici \`Pool\` with no framework, router, adapter layer, channel choice,
  metrics or logging: the body parsed and checked with the spec's compiled schema (the gateway's own fast-lane
  validator), the API key's memoised HMAC and a token read cached for 2 s, the worst case reserved and the usage
  settled and logged on the gateway's own SQLite ledger, the answer sent after that commit.
- Load: autocannon, keep-alive connections, \`POST /v1/chat/completions\` with one user message, non-streaming;
  ${results.rounds} rounds per point, each running every target in turn for ${Object.entries(results.secondsPerPoint)
    .map(([latency, seconds]) => `${seconds} s at ${latency} ms`)
    .join(" or ")}, after a warm-up of every target.
  A row is the target's round with the median requests/s; an aim takes the median over the rounds of the ratio (or
  difference) between two targets measured one right after the other.
  **CPU µs/req, the primary figure of every aim,** is the user + system time of the process the load hits
  (\`/proc/<pid>/stat\`) per answered request:
  the proxy alone for a proxy, the upstream itself for *direct*; it does not count time spent waiting for a core,
  so it moves far less between runs than requests/s on this shared machine. *Steal %* is the share of the
  machine's CPU time the hypervisor gave to other guests during that round (\`/proc/stat\`): this machine is a
  virtual one on a shared host, and rounds with steal measured the neighbours as much as the target.
  Latencies are per response in fractional milliseconds. *Added* = through the target minus direct to the upstream at
  the same point (percentile differences are differences of percentiles).
- Idle gaps on this machine, measured before any server started (bench/measure-idle-cache-penalty.ts): one walk
  over ~12,500 cache lines of warm memory took ${idleGapSentence(results)}. Work that touches memory pays that after
  every idle gap, work that does not (an arithmetic loop) does not; at the one-connection, 20 ms points every process
  waits ~20 ms between requests, so each request runs with cold caches.
- Every server runs in its own process, the load generator in the bench process. **The machine has
  ${results.machine.cpus} cores shared by the load generator, the upstream and the server under test**, so absolute numbers
  are low and a proxy's requests/s at 0 ms is bounded by CPU contention as much as by its own cost; ratios from the
  same run are what the aims compare.

## Aims

CPU (the gateway's CPU time per request, chunk or poll, as a ratio to the undici pass-through's in the same rounds)
is the primary figure of every aim.

| aim | CPU | measured | result |
|---|---|---|---|
${aims.map((verdict) => `| ${verdict.aim} | ${verdict.cpu} | ${verdict.measured} | ${verdict.passed ? "pass" : "**fail**"} |`).join("\n")}

## Non-streaming chat, 0 ms upstream

${loadTable(results, 0)}

## Non-streaming chat, 20 ms upstream

${loadTable(results, 20)}

## Streaming time to first byte

One request at a time, \`stream: true\`, time from sending the request to the first body byte (the first SSE event).

${streamTable(results)}

## Memory (RSS, MiB)

| process | after start-up | after the run | peak |
|---|---:|---:|---:|
${results.memory.map((reading) => `| ${reading.target} | ${format(reading.beforeMiB, 0)} | ${format(reading.afterMiB, 0)} | ${format(reading.peakMiB, 0)} |`).join("\n")}

## Streaming chat: 200-chunk answers

\`stream: true\` chat whose answer is 200 chunks (the fake echoes the 197-word prompt one word per event, after the
role event and before the finish event; \`data: [DONE]\` is one more event), 0 ms upstream, \`c\` clients each
sending the next request as soon as the last answer ended, ${results.rounds} round${results.rounds === 1 ? "" : "s"} per point, each running every
target in turn (bench/measure-stream-throughput.ts). *Chunks* are SSE events received (\`[DONE]\` included); *gap* is the time at the
client between one event's arrival and the next one's within an answer (events arriving in the same read count 0,
so a proxy that coalesces events under load shows small percentiles: compare chunks/s there);
*CPU µs/chunk* is the target process's CPU time per event delivered. A row is the median round by chunks/s.

${streamPointTable(results)}

## ${results.openStreams[0]?.streams.toLocaleString("en") ?? "1,000"} open streams

Streaming chats opened 100 at a time and held open (the fake stalls every stream after its first two events), RSS of
the process from /proc, settled 1.5 s before each reading (bench/measure-open-streams.ts). Each process is a fresh
one, warmed up by 50 streams: after the load points a heap shrinks at its next collections and would hide the figure. \`npm run bench:memory\`
measures the same for a fresh gateway, and 50 slow readers of long streams besides.

${openStreamsTable(results)}

## A ${results.largeImages[0] ? format(results.largeImages[0].b64Characters / 1e6, 0) : "20"} MB base64 image answer

\`POST /v1/images/generations\` (\`response_format: b64_json\`, a per-image priced model on the gateway's OpenAI
channel), the fake answering one image of that many base64 characters (its \`[b64-bytes:N]\` prompt knob), one request
at a time, timed to the answer's last byte (bench/measure-large-image.ts). The peak is the process's RSS high-water
mark, reset (\`/proc/<pid>/clear_refs\`) right before the requests.

${largeImageTable(results)}

${results.settlementFloor ? `${settlementFloorSection(results.settlementFloor)}\n` : ""}
${results.multiInstance?.length ? `${multiInstanceSection(results.multiInstance)}\n` : ""}
${results.usageLogs ? `${formatUsageLogsAtScale(results.usageLogs)}\n` : ""}
## Profile

A fresh gateway under \`node --cpu-prof\`, limited token, 0 ms upstream, 64 connections, ${results.profile.seconds} s after a warm-up
(${format(results.profile.load.requestsPerSecond, 0)} req/s while profiled). Only samples inside the measured load count
(start-up and schema compilation excluded): ${format(summary.busyMs, 0)} ms busy, ${format(summary.idleMs, 0)} ms idle.
Percentages are of busy time; *total* includes callees, but for async code only what its own synchronous slices call:
work it awaits that resumes in another microtask is not counted under it. Produced by bench/summarise-cpu-profile.ts.

### By package

${profileTable(summary.packages, summary.busyMs, 16)}

### Top functions by self time

${profileTable(summary.functions, summary.busyMs, 25)}

### Gateway functions by total time

${profileTable(gatewayFrames, summary.busyMs, 15)}

${findings.trim()}
${results.taskDrain ? `\n${formatTaskDrainSection(results.taskDrain)}\n` : ""}`;
}

/** A SQLite row's readings in a round: the SQLite pair has no mean (two load generators), the floor has one. */
type SqliteReading = { requestsPerSecond: number; meanMs?: number; cpuMicrosecondsPerRequest: number };

/** The multi-instance mode beside SQLite: per point and row, the median over rounds of each figure. */
function multiInstanceSection(rounds: MultiInstanceRound[]): string {
  const points = [...new Set(rounds.map((entry) => `${entry.latencyMs}:${entry.connections}`))];
  const lines: string[] = [];
  for (const point of points) {
    const [latencyMs, connections] = point.split(":").map(Number) as [number, number];
    const atPoint = rounds.filter((entry) => entry.latencyMs === latencyMs && entry.connections === connections);
    const sqliteRate = median(atPoint.map((entry) => entry.sqlite.requestsPerSecond));
    const sqliteMean = median(atPoint.map((entry) => entry.sqlite.meanMs));
    const sqliteCpu = median(atPoint.map((entry) => entry.sqlite.cpuMicrosecondsPerRequest));
    lines.push(
      `| ${latencyMs} ms, c=${connections} | SQLite, hot key | ${format(sqliteRate, 0)} | 1.00× | ${format(sqliteMean)} | ${format(sqliteCpu, 0)} | | |`,
    );
    // A SQLite row measured beside the PostgreSQL ones (absent from rounds saved before it was measured).
    const sqliteLine = (target: string, read: (entry: MultiInstanceRound) => SqliteReading | undefined) => {
      const readings = atPoint.flatMap((entry) => {
        const reading = read(entry);
        return reading === undefined ? [] : [{ entry, reading }];
      });
      if (readings.length === 0) return;
      const figure = (of: (reading: SqliteReading, entry: MultiInstanceRound) => number | undefined) => {
        const values = readings.flatMap(({ entry, reading }) => of(reading, entry) ?? []);
        return values.length === 0 ? "" : format(median(values), 0);
      };
      const ratio = median(
        readings.map(({ entry, reading }) => reading.requestsPerSecond / entry.sqlite.requestsPerSecond),
      );
      lines.push(
        `| | ${target} | ${figure((reading) => reading.requestsPerSecond)} | ${format(ratio)}× | ${
          readings.every(({ reading }) => reading.meanMs !== undefined)
            ? format(median(readings.map(({ reading }) => reading.meanMs!)))
            : ""
        } | ${figure((reading) => reading.cpuMicrosecondsPerRequest)} | | |`,
      );
    };
    sqliteLine("SQLite, 2 instances sharing nothing", (entry) => entry.sqlitePair);
    const postgresLine = (
      target: string,
      name: string,
      rowsOf?: (round: MultiInstanceRound) => MultiInstanceRow[],
    ): string => {
      const figure = (read: (row: MultiInstanceRow, entry: MultiInstanceRound) => number) =>
        median(figuresPerRound(atPoint, latencyMs, connections, name, read, rowsOf).filter(Number.isFinite));
      return `| | ${target} | ${format(
        figure((row) => row.requestsPerSecond),
        0,
      )} | ${format(figure((row, entry) => row.requestsPerSecond / entry.sqlite.requestsPerSecond))}× | ${format(figure((row) => row.meanMs))} | ${format(
        figure((row) => row.gatewayCpuMicrosecondsPerRequest),
        0,
      )} | ${format(
        figure((row) => row.postgresCpuMicrosecondsPerRequest),
        0,
      )} | ${format(figure((row) => row.commitsPerRequest))} |`;
    };
    for (const name of atPoint[0]!.postgres.map((row) => row.name))
      lines.push(postgresLine(`PostgreSQL + Redis, ${name}`, name));
    sqliteLine("hand-written floor, SQLite", (entry) => entry.floors?.sqlite);
    const floorRows = atPoint.find((entry) => entry.floors !== undefined)?.floors?.postgres ?? [];
    for (const row of floorRows)
      lines.push(postgresLine(`hand-written floor, PostgreSQL, ${row.name}`, row.name, floorRowsOf));
  }
  return `## Multi-instance mode: PostgreSQL + Redis

The gateway on one fresh PostgreSQL database and Redis (bench/measure-multi-instance.ts): one instance, and two
instances on the same database behind one load generator (the connections split between them; at c=1 each instance
gets one, so the two-instance rows there carry two requests at a time), with one hot key or
64 keys of one user (each connection walks through the keys), beside the SQLite gateway's hot key measured in the same
round, and two SQLite gateways that share nothing (each its own database and key, the connections split as for the
pairs): what two instances serve on this machine when nothing is shared. Gateway CPU is the instances' together;
PostgreSQL CPU is that of the database's backends (the gateways' pooled connections; the server's shared writer
processes are not counted); commits are the database's (\`pg_stat_database\`). At 0 ms the hand-written floor
(bench/children/hand-written-floor-process.ts: the same validation, key lookup, hold, upstream call, settlement with
its usage row and answer, by hand with no framework) runs on each mode's ledger in the same rounds: on PostgreSQL one
process, two on one key, and two on a key and user each (sharing no row). What the mode costs with nothing of the
gateway around it. Medians over rounds.

| Point | Target | req/s | × SQLite | mean ms | gateway CPU µs/req | PostgreSQL CPU µs/req | commits/req |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${lines.join("\n")}
`;
}
