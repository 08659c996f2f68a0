import type { UsageLogsAtScale } from "./measure-usage-logs-at-scale.js";
import type { MultiInstanceRound } from "./measure-multi-instance.js";
import type { LoadPointResult } from "./run-load-point.js";
import type { MeasuredStream } from "./measure-stream-ttfb.js";
import type { StreamThroughputResult } from "./measure-stream-throughput.js";
import type { OpenStreamsResult } from "./measure-open-streams.js";
import type { LargeImageResult } from "./measure-large-image.js";
import type { TaskDrainResult } from "./measure-task-drain.js";
import type { IdleGapTiming } from "./measure-idle-cache-penalty.js";
import type { CpuProfileSummary } from "./summarise-cpu-profile.js";
import type { SettlementCommitPoint } from "./measure-settlement-commits.js";

export interface MachineDescription {
  cpus: number;
  cpuModel: string;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and ended: other work on the machine skews every number. */
  loadAverage: { start: number; end: number };
  /** The same memory walk back to back and after idle gaps, measured before any server started. */
  idleGaps: IdleGapTiming[];
}

export interface MemoryReading {
  target: string;
  /** RSS after start-up and provisioning, before any load, MiB. */
  beforeMiB: number;
  afterMiB: number;
  peakMiB: number;
}

export interface RoundFigures {
  requestsPerSecond: number;
  meanMs: number;
  stealShare: number;
  serverCpuMicrosecondsPerRequest: number;
}

/** One round of a streaming point, for the aims' per-round ratios. */
export interface StreamRoundFigures {
  chunksPerSecond: number;
  gapP99Ms: number;
  firstByteMeanMs: number;
  serverCpuMicrosecondsPerChunk: number;
}

/** A streaming point's row: its median round by chunks per second, with every round's figures in run order. */
export type StreamPoint = StreamThroughputResult & { latencyMs: number; rounds: StreamRoundFigures[] };

export interface BenchResults {
  date: string;
  machine: MachineDescription;
  gatewayLaunch: string;
  secondsPerPoint: Record<number, number>;
  rounds: number;
  /** One per target and point: the round with the median requests/s, and every round's figures in run order. */
  points: Array<LoadPointResult & { latencyMs: number; rounds: RoundFigures[] }>;
  streams: MeasuredStream[];
  /** Streaming chat with a 200-chunk answer: chunks per second, first byte and inter-chunk gaps under load. */
  streamPoints: StreamPoint[];
  /** RSS with many streams open at once. */
  openStreams: OpenStreamsResult[];
  /** A ~20 MB base64 image answer: latency and peak RSS. */
  largeImages: LargeImageResult[];
  /** The task poller draining video tasks of every protocol; absent when the point did not run. */
  taskDrain?: TaskDrainResult;
  memory: MemoryReading[];
  /**
   * The SQLite money floor: requests answered per ledger commit in the gateway's 0 ms, 64-connection rounds of the
   * limited token (from `gateway_sqlite_commits_total`), and the ledger's own CPU per request by requests per commit.
   */
  settlementFloor?: { requestsPerCommitRounds: number[]; commitCosts: SettlementCommitPoint[] };
  /** The multi-instance mode (PostgreSQL + Redis) beside SQLite, every round; absent when it did not run. */
  multiInstance?: MultiInstanceRound[];
  /** The usage log at scale: GET /api/log/stat over millions of rows, and retention under load; absent when not run. */
  usageLogs?: UsageLogsAtScale;
  profile: { summary: CpuProfileSummary; load: LoadPointResult; seconds: number };
}
