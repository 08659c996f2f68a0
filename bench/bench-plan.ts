/** What `npm run bench` measures and for how long; BENCH_QUICK=1 shortens every point to check the harness. */
export interface BenchPlan {
  upstreamLatenciesMs: number[];
  concurrencies: number[];
  /**
   * Every point runs its targets this many times, one after the other in turn, so a slow spell of the shared machine
   * hits every target alike; a point's row is its median round and the aims take the median of per-round ratios.
   */
  rounds: number;
  /** Seconds of one round of one target at one point. */
  secondsPerPoint: (latencyMs: number) => number;
  warmupSeconds: number;
  streamRequests: (latencyMs: number) => number;
  profileSeconds: number;
  /** Seconds of one round of one target at a streaming point (200-chunk answers, 0 ms upstream). */
  streamPointSeconds: number;
  streamPointConnections: number[];
  /** Streams held open at once for the memory point. */
  openStreams: number;
  /** Sequential requests per target at the large-image point, and the image's size in base64 characters. */
  largeImageRequests: number;
  largeImageB64Characters: number;
  /** Video tasks the task point drains, all protocols at once; then this many per protocol, one protocol at a time. */
  tasks: number;
  aloneTasks: number;
}

export function createBenchPlan(quick: boolean): BenchPlan {
  return {
    upstreamLatenciesMs: [0, 20],
    concurrencies: [1, 16, 64],
    rounds: quick ? 1 : 5,
    // Five short rounds rather than three long ones: a slow spell of the shared machine then spoils fewer of the
    // rounds an aim's median is taken over.
    secondsPerPoint: () => (quick ? 1 : 3),
    warmupSeconds: quick ? 1 : 3,
    streamRequests: (latencyMs) => (quick ? 10 : latencyMs === 0 ? 300 : 150),
    profileSeconds: quick ? 2 : 10,
    streamPointSeconds: quick ? 1 : 2,
    streamPointConnections: [1, 16],
    openStreams: 1000,
    largeImageRequests: quick ? 2 : 6,
    largeImageB64Characters: 20_000_000,
    tasks: quick ? 500 : 10_000,
    aloneTasks: quick ? 100 : 500,
  };
}

export const chatBody = JSON.stringify({
  model: "bench-model",
  messages: [{ role: "user", content: "Say hello to the benchmark" }],
});
export const streamingChatBody = JSON.stringify({
  model: "bench-model",
  stream: true,
  messages: [{ role: "user", content: "Say hello to the benchmark" }],
});

/** Words in the long streaming prompt: the fake echoes them, so its answer is 200 chunks (role, "Echo:", 197 words, finish). */
const longStreamWords = 197;
export const longStreamingChatBody = JSON.stringify({
  model: "bench-model",
  stream: true,
  messages: [
    { role: "user", content: Array.from({ length: longStreamWords }, (_, index) => `word${index + 1}`).join(" ") },
  ],
});
