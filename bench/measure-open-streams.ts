import http from "node:http";
import { readProcessMemory } from "./read-process-memory.js";
import { setUpstreamFaults, type BenchTarget } from "./start-bench-servers.js";
import type { ChildServer } from "./start-child-server.js";

export interface OpenStreamsResult {
  target: string;
  streams: number;
  /** Streams that got their first bytes and were held open (the rest failed to open). */
  opened: number;
  idleMiB: number;
  openMiB: number;
  aboveIdleMiB: number;
  /** RSS 2 s after every stream was closed. */
  afterCloseMiB: number;
}

const settleMs = 1_500;

async function settledRss(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return readProcessMemory(pid).rssMiB;
}

/** Starts one streaming chat; resolves with the response once its first bytes arrived, or undefined on failure. */
function openStream(target: BenchTarget, body: string, agent: http.Agent): Promise<http.IncomingMessage | undefined> {
  return new Promise((resolve) => {
    const finish = (response: http.IncomingMessage | undefined) => {
      clearTimeout(timer);
      resolve(response);
    };
    const request = http.request(`${target.url}/v1/chat/completions`, {
      method: "POST",
      agent,
      headers: { ...target.headers, "content-type": "application/json", accept: "text/event-stream" },
    });
    // A stream that never opens (a proxy queueing past its limit) counts as not opened instead of hanging the run.
    const timer = setTimeout(() => {
      request.destroy();
      finish(undefined);
    }, 30_000);
    request.on("response", (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        finish(undefined);
        return;
      }
      response.once("data", () => finish(response));
      response.once("error", () => finish(undefined));
    });
    request.on("error", () => finish(undefined));
    request.end(body);
  });
}

/**
 * The open-streams point (issue 17's, now in the main run): RSS of the target's process settled and idle, then with
 * `streams` streaming chats open at once (the fake stalls every stream after its first two events, so each stays
 * open), opened 100 at a time. Changes the shared fake's fault plan and clears it afterwards.
 */
export async function measureOpenStreams(options: {
  target: BenchTarget;
  upstream: ChildServer;
  streams: number;
  body: string;
}): Promise<OpenStreamsResult> {
  const pid = options.target.server.process.pid!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const idleMiB = await settledRss(pid);
  await setUpstreamFaults(options.upstream, { stallAfterChunks: 2 });
  const open: http.IncomingMessage[] = [];
  try {
    for (let started = 0; started < options.streams; started += 100) {
      const batch = Math.min(100, options.streams - started);
      const opened = await Promise.all(
        Array.from({ length: batch }, () => openStream(options.target, options.body, agent)),
      );
      for (const response of opened) if (response) open.push(response);
    }
    const openMiB = await settledRss(pid);
    for (const response of open) response.destroy();
    await setUpstreamFaults(options.upstream, {});
    await new Promise((resolve) => setTimeout(resolve, 2_000 - settleMs));
    const afterCloseMiB = await settledRss(pid);
    return {
      target: options.target.name,
      streams: options.streams,
      opened: open.length,
      idleMiB,
      openMiB,
      aboveIdleMiB: openMiB - idleMiB,
      afterCloseMiB,
    };
  } finally {
    for (const response of open) response.destroy();
    agent.destroy();
    await setUpstreamFaults(options.upstream, {});
  }
}
