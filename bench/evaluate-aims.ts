import type { BenchResults, RoundFigures, StreamRoundFigures } from "./bench-results.js";
import {
  floorRowsOf,
  figuresPerRound,
  type MultiInstanceRound,
  type MultiInstanceRow,
} from "./measure-multi-instance.js";
import { median } from "./pick-median-round.js";
import { directName, gatewayName, handWrittenFloorName, portkeyName, undiciPassThroughName } from "./target-names.js";

export interface AimVerdict {
  aim: string;
  /**
   * The primary figure: the gateway's CPU time per unit of work (request, stream chunk, poll), as a ratio to the
   * undici pass-through's where both ran; it moves far less than rates on a shared machine.
   */
  cpu: string;
  measured: string;
  passed: boolean;
}

/** 1 MB = 10^6 bytes (the unit the memory aims are stated in), in MiB. */
const megabytesInMiB = 1e6 / 1024 ** 2;
/** The load points' and streaming points' connection counts the aims read. */
export const streamingThroughputConnections = 16;
export const streamingGapConnections = 1;

/**
 * The aims of docs/BENCHMARKS.md, all read from the same run, against the undici pass-through (the strongest limit
 * a Node gateway has). Each compares two targets round by round (they ran one right after the other) and takes the
 * median over the rounds, so one slow spell of the shared machine cannot decide an aim.
 */
export function evaluateAims(results: BenchResults): AimVerdict[] {
  const roundsOf = (target: string, latencyMs: number, connections: number) =>
    results.points.find(
      (entry) => entry.target === target && entry.latencyMs === latencyMs && entry.connections === connections,
    )?.rounds ?? [];
  const streamRoundsOf = (target: string, connections: number) =>
    results.streamPoints.find((entry) => entry.target === target && entry.connections === connections)?.rounds ?? [];
  const perRound = <Figures>(left: Figures[], right: Figures[], combine: (left: Figures, right: Figures) => number) =>
    left.length > 0 && left.length === right.length
      ? left.map((round, index) => combine(round, right[index]!))
      : [Number.NaN];
  const listed = (values: number[], format: (value: number) => string) =>
    values.length > 1 ? `; rounds ${values.map(format).join(", ")}` : "";
  const summary = (values: number[], format: (value: number) => string) =>
    `median ${format(median(values))}${listed(values, format)}`;
  // The larger steal of the two rounds compared: a round the host took cores from says little about either target.
  const steals = (target: string, versus: string, latencyMs: number, connections: number) => {
    const shares = perRound(
      roundsOf(target, latencyMs, connections),
      roundsOf(versus, latencyMs, connections),
      (left, right) => Math.max(left.stealShare, right.stealShare),
    );
    return shares.every(Number.isFinite)
      ? ` (steal ${shares.map((share) => `${(100 * share).toFixed(0)}%`).join(", ")})`
      : "";
  };
  const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
  const times = (value: number) => `${value.toFixed(2)}×`;
  const milliseconds = (value: number) => `${value.toFixed(2)} ms`;
  const ratio = (target: string, versus: string, latencyMs: number, connections: number, figure: keyof RoundFigures) =>
    perRound(
      roundsOf(target, latencyMs, connections),
      roundsOf(versus, latencyMs, connections),
      (left, right) => left[figure] / right[figure],
    );
  const cpuVersusUndici = (latencyMs: number, connections: number) =>
    `${summary(ratio(gatewayName, undiciPassThroughName, latencyMs, connections, "serverCpuMicrosecondsPerRequest"), times)} undici's CPU/request`;
  const verdicts: AimVerdict[] = [];

  const cpuFast = ratio(gatewayName, undiciPassThroughName, 0, 64, "serverCpuMicrosecondsPerRequest");
  const cpuOf = (target: string) => roundsOf(target, 0, 64).map((round) => round.serverCpuMicrosecondsPerRequest);
  const microseconds = (value: number) => `${value.toFixed(0)} µs`;
  verdicts.push({
    aim: "0 ms upstream, c=64, limited token: CPU per request ≤ 1.3× the undici pass-through's",
    cpu: cpuVersusUndici(0, 64),
    measured:
      `gateway ${summary(cpuOf(gatewayName), microseconds)}, undici pass-through ${summary(cpuOf(undiciPassThroughName), microseconds)}; ` +
      `the hand-written floor ${summary(ratio(handWrittenFloorName, undiciPassThroughName, 0, 64, "serverCpuMicrosecondsPerRequest"), times)} undici's` +
      steals(gatewayName, undiciPassThroughName, 0, 64),
    passed: median(cpuFast) <= 1.3,
  });
  const rateFast = ratio(gatewayName, undiciPassThroughName, 0, 64, "requestsPerSecond");
  verdicts.push({
    aim: "0 ms upstream, c=64, limited token: ≥ 60% of the undici pass-through's requests/s",
    cpu: cpuVersusUndici(0, 64),
    measured: `${summary(rateFast, percent)}${steals(gatewayName, undiciPassThroughName, 0, 64)}`,
    passed: median(rateFast) >= 0.6,
  });
  const versusPortkey = ratio(gatewayName, portkeyName, 0, 64, "requestsPerSecond");
  const cpuVersusPortkey = ratio(gatewayName, portkeyName, 0, 64, "serverCpuMicrosecondsPerRequest");
  verdicts.push({
    aim: "0 ms upstream, c=64, limited token: ≥ 8× Portkey's requests/s",
    cpu: `${cpuVersusUndici(0, 64)}; ${summary(cpuVersusPortkey, times)} Portkey's`,
    measured:
      `${summary(versusPortkey, times)}${steals(gatewayName, portkeyName, 0, 64)}; ` +
      `the undici pass-through itself ${summary(ratio(undiciPassThroughName, portkeyName, 0, 64, "requestsPerSecond"), times)}, ` +
      `the hand-written floor ${summary(ratio(handWrittenFloorName, portkeyName, 0, 64, "requestsPerSecond"), times)}`,
    passed: median(versusPortkey) >= 8,
  });
  const rateSlow = ratio(gatewayName, undiciPassThroughName, 20, 64, "requestsPerSecond");
  verdicts.push({
    aim: "20 ms upstream, c=64: ≥ 95% of the undici pass-through's requests/s",
    cpu: cpuVersusUndici(20, 64),
    measured:
      `${summary(rateSlow, percent)}${steals(gatewayName, undiciPassThroughName, 20, 64)}; ` +
      `the hand-written floor ${summary(ratio(handWrittenFloorName, undiciPassThroughName, 20, 64, "requestsPerSecond"), percent)}`,
    passed: median(rateSlow) >= 0.95,
  });
  const addedOverUndici = perRound(
    roundsOf(gatewayName, 0, 1),
    roundsOf(undiciPassThroughName, 0, 1),
    (left, right) => left.meanMs - right.meanMs,
  );
  const undiciAdded = perRound(
    roundsOf(undiciPassThroughName, 0, 1),
    roundsOf(directName, 0, 1),
    (left, right) => left.meanMs - right.meanMs,
  );
  const floorAdded = perRound(
    roundsOf(handWrittenFloorName, 0, 1),
    roundsOf(undiciPassThroughName, 0, 1),
    (left, right) => left.meanMs - right.meanMs,
  );
  verdicts.push({
    aim: "0 ms upstream, c=1: mean added ≤ 0.15 ms over the undici pass-through",
    cpu: cpuVersusUndici(0, 1),
    measured:
      `${summary(addedOverUndici, milliseconds)}${steals(gatewayName, undiciPassThroughName, 0, 1)}; ` +
      `the hand-written floor added ${summary(floorAdded, milliseconds)}; ` +
      `the pass-through itself added ${summary(undiciAdded, milliseconds)} over direct`,
    passed: median(addedOverUndici) <= 0.15,
  });

  const streamRatio = (connections: number, figure: keyof StreamRoundFigures, versus = undiciPassThroughName) =>
    perRound(
      streamRoundsOf(gatewayName, connections),
      streamRoundsOf(versus, connections),
      (left, right) => left[figure] / right[figure],
    );
  const cpuPerChunk = (connections: number) =>
    `${summary(streamRatio(connections, "serverCpuMicrosecondsPerChunk"), times)} undici's CPU/chunk`;
  const gapAdded = perRound(
    streamRoundsOf(gatewayName, streamingGapConnections),
    streamRoundsOf(directName, streamingGapConnections),
    (left, right) => left.gapP99Ms - right.gapP99Ms,
  );
  const undiciGapAdded = perRound(
    streamRoundsOf(undiciPassThroughName, streamingGapConnections),
    streamRoundsOf(directName, streamingGapConnections),
    (left, right) => left.gapP99Ms - right.gapP99Ms,
  );
  verdicts.push({
    aim: `Streaming (200 chunks, 0 ms upstream, c=${streamingGapConnections}): inter-chunk gap p99 added ≤ 0.5 ms over direct`,
    cpu: cpuPerChunk(streamingGapConnections),
    measured: `${summary(gapAdded, milliseconds)}; the pass-through added ${summary(undiciGapAdded, milliseconds)}`,
    passed: median(gapAdded) <= 0.5,
  });
  const chunkRate = streamRatio(streamingThroughputConnections, "chunksPerSecond");
  verdicts.push({
    aim: `Streaming (200 chunks, 0 ms upstream, c=${streamingThroughputConnections}): ≥ 80% of the undici pass-through's chunks/s`,
    cpu: cpuPerChunk(streamingThroughputConnections),
    measured: summary(chunkRate, percent),
    passed: median(chunkRate) >= 0.8,
  });

  const gatewayStreams = results.openStreams.find((entry) => entry.target === gatewayName);
  const undiciStreams = results.openStreams.find((entry) => entry.target === undiciPassThroughName);
  const aboveIdleMegabytes = gatewayStreams ? gatewayStreams.aboveIdleMiB / megabytesInMiB : Number.NaN;
  // RSS lower with the streams open than idle means the process gave back memory the warm-up had left it between
  // the two readings: the difference then says nothing of what the streams take, so it cannot pass the aim.
  const unreadable = aboveIdleMegabytes < 0;
  verdicts.push({
    aim: `${gatewayStreams?.streams.toLocaleString("en") ?? "1,000"} open streams: ≤ 30 MB above idle`,
    cpu: "–",
    measured: gatewayStreams
      ? `${aboveIdleMegabytes.toFixed(1)} MB (${gatewayStreams.aboveIdleMiB.toFixed(1)} MiB; ${gatewayStreams.opened} of ${gatewayStreams.streams} opened)` +
        (unreadable ? ", unreadable: RSS fell while the streams opened" : "") +
        (undiciStreams ? `; the pass-through ${(undiciStreams.aboveIdleMiB / megabytesInMiB).toFixed(1)} MB` : "")
      : "not measured",
    passed:
      gatewayStreams !== undefined &&
      gatewayStreams.opened === gatewayStreams.streams &&
      !unreadable &&
      aboveIdleMegabytes <= 30,
  });

  const drain = results.taskDrain;
  verdicts.push({
    aim: "Task poller: ≥ 1,000 polls/s at ≤ 100 µs CPU per poll against the fakes",
    cpu: drain ? `${drain.cpuMicrosecondsPerPoll.toFixed(0)} µs per poll` : "–",
    measured: drain
      ? `${drain.pollsPerSecond.toFixed(0)} polls/s over ${drain.tasks.toLocaleString("en")} tasks of four protocols`
      : "not measured",
    passed: drain !== undefined && drain.pollsPerSecond >= 1000 && drain.cpuMicrosecondsPerPoll <= 100,
  });
  verdicts.push(
    ...evaluateMultiInstanceAims(results.multiInstance ?? [], {
      gateway: versusPortkey,
      floor: ratio(handWrittenFloorName, portkeyName, 0, 64, "requestsPerSecond"),
    }),
  );
  return verdicts;
}

/**
 * The multi-instance mode's aims, each the median over rounds of a ratio between rows measured one right after the
 * other in the same round: against SQLite's hot key at the same point, and two instances against one.
 */
export function evaluateMultiInstanceAims(
  rounds: MultiInstanceRound[],
  /** Per-round requests/s ratios to Portkey in the main points (0 ms, c=64): the SQLite gateway's and the floor's. */
  sqliteVersusPortkey?: { gateway: number[]; floor: number[] },
): AimVerdict[] {
  if (rounds.length === 0) return [];
  const times = (value: number) => `${value.toFixed(2)}×`;
  const listed = (values: number[]) => `median ${times(median(values))}; rounds ${values.map(times).join(", ")}`;
  const cpuOf = (name: string, latencyMs: number, connections: number) => {
    const gateway = figuresPerRound(
      rounds,
      latencyMs,
      connections,
      name,
      (row) => row.gatewayCpuMicrosecondsPerRequest,
    );
    const database = figuresPerRound(
      rounds,
      latencyMs,
      connections,
      name,
      (row) => row.postgresCpuMicrosecondsPerRequest,
    );
    return `gateway ${median(gateway).toFixed(0)} µs + PostgreSQL ${median(database).toFixed(0)} µs per request`;
  };
  const verdicts: AimVerdict[] = [];
  const versusSqlite = (name: string) =>
    figuresPerRound(rounds, 0, 64, name, (row, round) => row.requestsPerSecond / round.sqlite.requestsPerSecond);
  for (const name of ["hot key", "64 keys"]) {
    const ratios = versusSqlite(name);
    verdicts.push({
      aim: `PostgreSQL + Redis, ${name}, 0 ms upstream, c=64: ≥ 0.70 of SQLite's (hot key) requests/s`,
      cpu: cpuOf(name, 0, 64),
      measured: listed(ratios),
      passed: median(ratios) >= 0.7,
    });
  }
  // Portkey does not run in these rounds; the aim chains two medians of same-round ratios: PostgreSQL + Redis against
  // the SQLite gateway here, and the SQLite gateway against Portkey in the main points (the floor likewise).
  if (sqliteVersusPortkey !== undefined) {
    const gatewayVersusSqlite = versusSqlite("hot key").filter(Number.isFinite);
    const gatewayChain = median(gatewayVersusSqlite) * median(sqliteVersusPortkey.gateway);
    const floorVersusSqlite = figuresPerRound(
      rounds,
      0,
      64,
      "hot key",
      (row, round) => row.requestsPerSecond / round.floors!.sqlite.requestsPerSecond,
      floorRowsOf,
    ).filter(Number.isFinite);
    const floorChain =
      floorVersusSqlite.length === 0 ? undefined : median(floorVersusSqlite) * median(sqliteVersusPortkey.floor);
    verdicts.push({
      aim: "PostgreSQL + Redis, hot key, 0 ms upstream, c=64: ≥ 4× Portkey's requests/s",
      cpu: cpuOf("hot key", 0, 64),
      measured:
        `${times(gatewayChain)} (${times(median(gatewayVersusSqlite))} the SQLite gateway × its ${times(median(sqliteVersusPortkey.gateway))} Portkey's)` +
        (floorChain === undefined
          ? ""
          : `; the hand-written floor on PostgreSQL ${times(floorChain)} (${times(median(floorVersusSqlite))} the floor on SQLite × its ${times(median(sqliteVersusPortkey.floor))})`),
      passed: gatewayChain >= 4,
    });
  }
  const addedVersusSqlite = figuresPerRound(
    rounds,
    0,
    1,
    "hot key",
    (row, round) => (row.meanMs - round.direct.meanMs) / (round.sqlite.meanMs - round.direct.meanMs),
  );
  // The same aim for the hand-written floor: its added latency on the PostgreSQL ledger against on SQLite's.
  const floorAddedVersusSqlite = figuresPerRound(
    rounds,
    0,
    1,
    "hot key",
    (row, round) => (row.meanMs - round.direct.meanMs) / (round.floors!.sqlite.meanMs - round.direct.meanMs),
    floorRowsOf,
  ).filter(Number.isFinite);
  verdicts.push({
    aim: "PostgreSQL + Redis, hot key, 0 ms upstream, c=1: added latency ≤ 1.5× SQLite's",
    cpu: cpuOf("hot key", 0, 1),
    measured:
      floorAddedVersusSqlite.length === 0
        ? listed(addedVersusSqlite)
        : `${listed(addedVersusSqlite)}; the hand-written floor on PostgreSQL against on SQLite: ${listed(floorAddedVersusSqlite)}`,
    passed: median(addedVersusSqlite) <= 1.5,
  });
  // A pair's row against the one-instance hot key of the same kind (the gateways', or the floors') in its round.
  const versusOneInstance = (
    name: string,
    rowsOf: (round: MultiInstanceRound) => MultiInstanceRow[] = (round) => round.postgres,
  ) =>
    figuresPerRound(
      rounds,
      0,
      64,
      name,
      (row, round) => {
        const one = rowsOf(round).find((candidate) => candidate.name === "hot key");
        return one === undefined ? Number.NaN : row.requestsPerSecond / one.requestsPerSecond;
      },
      rowsOf,
    );
  const pairVersusOne = versusOneInstance("2 instances, hot key");
  // The same for two hand-written floors on one PostgreSQL database against one: on one key, and on a key and user
  // each (sharing the machine and the database but no row).
  const floorPairOnOneKey = versusOneInstance("2 instances, hot key", floorRowsOf).filter(Number.isFinite);
  const floorPairSharingNoRow = versusOneInstance("2 instances, a key and user each", floorRowsOf).filter(
    Number.isFinite,
  );
  // The ceiling two instances have on this machine, measured in the same rounds: two SQLite gateways sharing nothing.
  const unsharedPairVersusOne = rounds
    .filter((round) => round.latencyMs === 0 && round.connections === 64 && round.sqlitePair !== undefined)
    .map((round) => round.sqlitePair!.requestsPerSecond / round.sqlite.requestsPerSecond);
  verdicts.push({
    aim: "PostgreSQL + Redis, two instances on one database, hot key, 0 ms upstream, c=64: ≥ one instance's requests/s",
    cpu: cpuOf("2 instances, hot key", 0, 64),
    measured: [
      listed(pairVersusOne),
      ...(unsharedPairVersusOne.length === 0
        ? []
        : [`two SQLite gateways sharing nothing: ${listed(unsharedPairVersusOne)} one`]),
      ...(floorPairOnOneKey.length === 0
        ? []
        : [`two hand-written floors on one PostgreSQL key: ${listed(floorPairOnOneKey)} one`]),
      ...(floorPairSharingNoRow.length === 0 ? [] : [`on a key and user each: ${listed(floorPairSharingNoRow)} one`]),
    ].join("; "),
    passed: median(pairVersusOne) >= 1,
  });
  return verdicts;
}
