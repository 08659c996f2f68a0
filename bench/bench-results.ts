import type { LoadPointResult } from "./run-load-point.js";
import type { MeasuredStream } from "./measure-stream-ttfb.js";
import type { IdleGapTiming } from "./measure-idle-cache-penalty.js";
import type { CpuProfileSummary } from "./summarise-cpu-profile.js";

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
}

export interface BenchResults {
  date: string;
  machine: MachineDescription;
  gatewayLaunch: string;
  secondsPerPoint: Record<number, number>;
  rounds: number;
  /** One per target and point: the round with the median requests/s, and every round's figures in run order. */
  points: Array<LoadPointResult & { latencyMs: number; rounds: RoundFigures[] }>;
  streams: MeasuredStream[];
  memory: MemoryReading[];
  profile: { summary: CpuProfileSummary; load: LoadPointResult; seconds: number };
}
