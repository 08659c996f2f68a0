import http from "node:http";
import { readProcessCpuMicroseconds } from "./read-process-cpu-microseconds.js";
import { postJsonToTarget } from "./post-json-to-target.js";
import type { BenchTarget } from "./start-bench-servers.js";
import { summariseLatencies, type LatencySummary } from "./summarise-latencies.js";

export interface StreamThroughputResult {
  target: string;
  connections: number;
  /** Complete 200 answers (read to their end). */
  answers: number;
  /** SSE events received per answer (the stream's chunks; `[DONE]` included), the mean over the answers. */
  chunksPerAnswer: number;
  chunksPerSecond: number;
  /** Request sent → first body byte, per answer. */
  firstByte: LatencySummary;
  /**
   * Time between one SSE event's arrival at the client and the next one's, over every answer (from its first event
   * to its last; events that arrive in the same read count a gap of 0).
   */
  gap: LatencySummary;
  /** CPU time (user + system) of the process the load hits, per SSE event delivered. */
  serverCpuMicrosecondsPerChunk: number;
  failures: number;
}

const newline = 0x0a;

/**
 * SSE events end with an empty line (every server here frames with \n): counts the "\n\n" in `chunk`, one that
 * straddles two reads included (`previousWasNewline`: the last read ended with \n).
 */
function countEventEnds(chunk: Buffer, previousWasNewline: boolean): { ends: number; lastWasNewline: boolean } {
  let ends = 0;
  for (let index = chunk.indexOf(newline); index !== -1; index = chunk.indexOf(newline, index + 1))
    if (index === 0 ? previousWasNewline : chunk[index - 1] === newline) ends += 1;
  return { ends, lastWasNewline: chunk.length > 0 ? chunk[chunk.length - 1] === newline : previousWasNewline };
}

interface OneStream {
  ok: boolean;
  firstByteMs: number;
  events: number;
}

function streamOnce(target: BenchTarget, body: string, agent: http.Agent, gaps: number[]): Promise<OneStream> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let firstByteMs = Number.NaN;
    let events = 0;
    let lastEventAt: number | undefined;
    let lastWasNewline = false;
    postJsonToTarget({
      target,
      path: "/v1/chat/completions",
      body,
      agent,
      accept: "text/event-stream",
      onResponse: (response) => {
        const ok = response.statusCode === 200;
        const answerGaps: number[] = [];
        response.on("data", (chunk: Buffer) => {
          const now = performance.now();
          if (Number.isNaN(firstByteMs)) firstByteMs = now - startedAt;
          const counted = countEventEnds(chunk, lastWasNewline);
          lastWasNewline = counted.lastWasNewline;
          if (counted.ends === 0) return;
          if (lastEventAt !== undefined) answerGaps.push(now - lastEventAt);
          for (let extra = 1; extra < counted.ends; extra += 1) answerGaps.push(0);
          lastEventAt = now;
          events += counted.ends;
        });
        response.on("end", () => {
          if (ok) for (const gap of answerGaps) gaps.push(gap);
          resolve({ ok, firstByteMs, events });
        });
        response.on("error", () => resolve({ ok: false, firstByteMs, events }));
      },
      onError: () => resolve({ ok: false, firstByteMs, events }),
    });
  });
}

/**
 * The streaming point: `connections` clients each sending streaming chat requests one after the other for
 * `durationSeconds`, every answer read to its end. Chunks per second counts SSE events; gaps are timed at the client.
 */
export async function measureStreamThroughput(options: {
  target: BenchTarget;
  connections: number;
  durationSeconds: number;
  body: string;
}): Promise<StreamThroughputResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const gaps: number[] = [];
  const firstBytes: number[] = [];
  let answers = 0;
  let events = 0;
  let failures = 0;
  const serverPid = options.target.server.process.pid;
  const cpuAtStart = readProcessCpuMicroseconds(serverPid);
  const startedAt = performance.now();
  const deadline = startedAt + options.durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        const stream = await streamOnce(options.target, options.body, agent, gaps);
        if (!stream.ok) {
          failures += 1;
          continue;
        }
        answers += 1;
        events += stream.events;
        firstBytes.push(stream.firstByteMs);
      }
    }),
  );
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const serverCpuMicroseconds = readProcessCpuMicroseconds(serverPid) - cpuAtStart;
  agent.destroy();
  return {
    target: options.target.name,
    connections: options.connections,
    answers,
    chunksPerAnswer: answers > 0 ? events / answers : Number.NaN,
    chunksPerSecond: events / elapsedSeconds,
    firstByte: summariseLatencies(firstBytes),
    gap: summariseLatencies(gaps),
    serverCpuMicrosecondsPerChunk: events > 0 ? serverCpuMicroseconds / events : Number.NaN,
    failures,
  };
}
