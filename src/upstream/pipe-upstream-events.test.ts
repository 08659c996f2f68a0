import { PassThrough, Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SseWriter } from "../http/sse-writer.js";
import { maximumUpstreamEventSize, UpstreamFailure } from "./upstream-failure.js";
import { pipeUpstreamEvents } from "./pipe-upstream-events.js";
import type { StreamEventTransformer } from "./stream-event-transformer.js";
import { rejectionOf } from "../../test/support/rejection-of.js";

interface RecordingWriter extends SseWriter {
  writes: string[];
  closed: boolean;
}

function createRecordingWriter(
  options: { onWrite?: (chunk: string, writer: RecordingWriter) => Promise<void> | void } = {},
): RecordingWriter {
  const writer: RecordingWriter = {
    writes: [],
    closed: false,
    async send() {
      throw new Error("pipeUpstreamEvents writes ready frames only");
    },
    async sendRaw(chunk) {
      writer.writes.push(String(chunk));
      await options.onWrite?.(String(chunk), writer);
    },
    sendFinal(chunk) {
      return writer.sendRaw(chunk);
    },
    close() {
      writer.closed = true;
    },
  };
  return writer;
}

/** Upper-cases each event's data; `[DONE]` at the end; records whether it was cancelled and why. */
function createUpperCaseTransformer(options: { terminateOn?: string; failOn?: string } = {}) {
  const record = { cancelled: [] as unknown[], flushed: 0 };
  const transformer: StreamEventTransformer = {
    transform(event, controller) {
      if (event.data === options.failOn) {
        controller.error(new Error(`cannot translate ${event.data}`));
        return;
      }
      controller.enqueue(`${event.event ? `event: ${event.event}\n` : ""}data: ${event.data.toUpperCase()}\n\n`);
      if (event.data === options.terminateOn) controller.terminate();
    },
    flush(controller) {
      record.flushed += 1;
      controller.enqueue("data: [DONE]\n\n");
    },
    cancel(reason) {
      record.cancelled.push(reason);
    },
  };
  return { transformer, record };
}

const errorFrame = (message: string) => `data: {"error":"${message}"}\n\n`;

describe("pipeUpstreamEvents", () => {
  it("translates events split anywhere across reads, a UTF-8 character included, one client write per upstream read", async () => {
    const bytes = Buffer.from("event: delta\ndata: café\n\ndata: two\r\n\r\ndata: thr", "utf8");
    const splitInsideCharacter = bytes.indexOf(0xc3) + 1;
    const upstream = Readable.from([
      bytes.subarray(0, 5),
      bytes.subarray(5, splitInsideCharacter),
      bytes.subarray(splitInsideCharacter),
      Buffer.from("ee\n\n"),
    ]);
    const writer = createRecordingWriter();
    const { transformer, record } = createUpperCaseTransformer();
    await pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] });
    expect(writer.writes).toEqual(["event: delta\ndata: CAFÉ\n\ndata: TWO\n\n", "data: THREE\n\n", "data: [DONE]\n\n"]);
    expect(record).toEqual({ cancelled: [], flushed: 1 });
  });

  it("reads the next upstream chunk only after the client's write went through (backpressure)", async () => {
    const upstream = new PassThrough();
    const order: string[] = [];
    let releaseWrite: () => void = () => undefined;
    const writer = createRecordingWriter({
      onWrite: (chunk) => {
        order.push(`write ${chunk.trim()}`);
        if (chunk === "data: ONE\n\n") return new Promise<void>((resolve) => (releaseWrite = resolve));
      },
    });
    const { transformer } = createUpperCaseTransformer();
    const piping = pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] });
    upstream.write("data: one\n\n");
    await new Promise((resolve) => setTimeout(resolve, 10));
    upstream.end("data: two\n\n");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["write data: ONE"]);
    releaseWrite();
    await piping;
    expect(order).toEqual(["write data: ONE", "write data: TWO", "write data: [DONE]"]);
  });

  it("stops reading the upstream when the transformer terminates, without flushing", async () => {
    const upstream = Readable.from([
      Buffer.from("data: one\n\ndata: stop\n\ndata: never\n\n"),
      Buffer.from("data: later\n\n"),
    ]);
    const writer = createRecordingWriter();
    const { transformer, record } = createUpperCaseTransformer({ terminateOn: "stop" });
    await pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] });
    expect(writer.writes).toEqual(["data: ONE\n\ndata: STOP\n\n"]);
    expect(record.flushed).toBe(0);
    expect(upstream.destroyed).toBe(true);
  });

  /** Pipes an upstream that sends `firstRead`, then breaks with "socket hang up"; what the pipe wrote and threw. */
  async function pipeUntilUpstreamBreaks(firstRead: string) {
    const broken = new Error("socket hang up");
    const upstream = new PassThrough();
    const writer = createRecordingWriter();
    const { transformer, record } = createUpperCaseTransformer();
    const piping = pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] });
    upstream.write(firstRead);
    await new Promise((resolve) => setTimeout(resolve, 10));
    upstream.destroy(broken);
    const failure = await rejectionOf(piping, Error);
    return { broken, failure, writes: writer.writes, cancelled: record.cancelled };
  }

  it("sends what was translated, then an error frame, when the upstream breaks mid-stream, and rethrows", async () => {
    const { broken, failure, writes, cancelled } = await pipeUntilUpstreamBreaks("data: one\n\n");
    expect(failure).toBe(broken);
    expect(writes).toEqual(["data: ONE\n\n", 'data: {"error":"The upstream stream ended unexpectedly."}\n\n']);
    expect(cancelled).toEqual([broken]);
  });

  it("writes nothing when the upstream breaks before its first event, and hands the relay a retryable failure", async () => {
    const { broken, failure, writes, cancelled } = await pipeUntilUpstreamBreaks("data: not yet ended");
    expect(failure).toMatchObject({
      status: 502,
      code: "bad_response",
      retryable: true,
      message: "The upstream stream broke off before its first event.",
      cause: broken,
    });
    expect(writes).toEqual([]);
    expect(cancelled).toEqual([broken]);
  });

  it("fails the stream when the transformer reports an error, after the frames it translated before it", async () => {
    const upstream = Readable.from([Buffer.from("data: one\n\ndata: bad\n\ndata: three\n\n")]);
    const writer = createRecordingWriter();
    const { transformer } = createUpperCaseTransformer({ failOn: "bad" });
    await expect(
      pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] }),
    ).rejects.toThrow("cannot translate bad");
    expect(writer.writes).toEqual(["data: ONE\n\n", 'data: {"error":"The upstream stream ended unexpectedly."}\n\n']);
  });

  it("stops an event that grows past the limit before it ends: the events before it, then a bad_response error frame", async () => {
    const upstream = new PassThrough();
    const writer = createRecordingWriter();
    const { transformer, record } = createUpperCaseTransformer();
    const piping = pipeUpstreamEvents({
      upstreamBody: upstream,
      transformer,
      writer,
      errorFrame,
      channelKeys: [],
      maximumEventSize: 64,
    });
    upstream.write(`data: one\n\ndata: ${"x".repeat(40)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    upstream.write("x".repeat(40)); // 80 characters of one unfinished event: over the limit of 64
    const failure = await rejectionOf(piping, UpstreamFailure);
    expect(failure).toMatchObject({ status: 502, code: "bad_response", retryable: false });
    expect((failure as Error).message).toBe(
      "The upstream sent an event larger than 64 characters; the stream was stopped there.",
    );
    expect(writer.writes).toEqual(["data: ONE\n\n", `data: {"error":"${(failure as Error).message}"}\n\n`]);
    expect(record.cancelled).toEqual([failure]);
    expect(upstream.destroyed).toBe(true);
  });

  it("lets an event up to the limit through, and holds 64 Mi characters by default", async () => {
    const upstream = Readable.from([Buffer.from(`data: ${"y".repeat(50)}`), Buffer.from("\n\n")]);
    const writer = createRecordingWriter();
    const { transformer } = createUpperCaseTransformer();
    await pipeUpstreamEvents({
      upstreamBody: upstream,
      transformer,
      writer,
      errorFrame,
      channelKeys: [],
      maximumEventSize: 64,
    });
    expect(writer.writes).toEqual([`data: ${"Y".repeat(50)}\n\n`, "data: [DONE]\n\n"]);
    expect(maximumUpstreamEventSize).toBe(64 * 1024 * 1024);
  });

  it("stops and cancels the translation when the client left, leaving the upstream body destroyed", async () => {
    const upstream = new PassThrough();
    const writer = createRecordingWriter({
      onWrite: (_chunk, self) => {
        self.closed = true; // the client went away while this frame was being written
      },
    });
    const { transformer, record } = createUpperCaseTransformer();
    const piping = pipeUpstreamEvents({ upstreamBody: upstream, transformer, writer, errorFrame, channelKeys: [] });
    upstream.write("data: one\n\n");
    await piping;
    expect(writer.writes).toEqual(["data: ONE\n\n"]);
    expect(record.cancelled).toHaveLength(1);
    expect(record.flushed).toBe(0);
    expect(upstream.destroyed).toBe(true);
  });

  it("masks the channel's keys in every frame it writes, the error frame included", async () => {
    // Upper case: the test transformer upper-cases what it passes on.
    const channelKey = "UPSTREAM-CHANNEL-SECRET-0123";
    const upstream = new PassThrough();
    const writer = createRecordingWriter();
    const { transformer } = createUpperCaseTransformer();
    const piping = pipeUpstreamEvents({
      upstreamBody: upstream,
      transformer,
      writer,
      errorFrame: () => `data: {"error":"key ${channelKey}"}\n\n`,
      channelKeys: [channelKey],
    });
    upstream.write(`data: key given: ${channelKey}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    upstream.destroy(new Error("socket hang up"));
    await rejectionOf(piping, Error);
    expect(writer.writes.length).toBe(2);
    for (const write of writer.writes) {
      expect(write).not.toContain(channelKey);
      expect(write).toContain("UPST**********0123");
    }
  });
});

describe("pipeUpstreamEvents with an idle ping", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const ping = { frame: "event: ping\ndata: {}\n\n", intervalMs: 10_000 };
  /** Lets the pump take what the upstream wrote (stream reads and writes settle on the microtask queue). */
  const settle = async () => {
    for (let turn = 0; turn < 20; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  it("fills each silence of the upstream after the first byte with a ping per interval, and none after its end", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const upstream = new PassThrough();
    const writer = createRecordingWriter();
    const piped = pipeUpstreamEvents({
      upstreamBody: upstream,
      transformer: createUpperCaseTransformer().transformer,
      writer,
      errorFrame,
      channelKeys: [],
      idlePing: ping,
    });
    // Silent before the first event: nothing reached the client, so no ping (a failover is still possible).
    await vi.advanceTimersByTimeAsync(25_000);
    expect(writer.writes).toEqual([]);
    upstream.write("data: one\n\n");
    await settle();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(writer.writes).toEqual(["data: ONE\n\n"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writer.writes).toEqual(["data: ONE\n\n", ping.frame]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(writer.writes).toEqual(["data: ONE\n\n", ping.frame, ping.frame, ping.frame]);
    // An event starts the count again.
    upstream.write("data: two\n\n");
    await settle();
    await vi.advanceTimersByTimeAsync(9_000);
    upstream.end();
    await piped;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(writer.writes).toEqual([
      "data: ONE\n\n",
      ping.frame,
      ping.frame,
      ping.frame,
      "data: TWO\n\n",
      "data: [DONE]\n\n",
    ]);
  });

  it("sends no ping without the option", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const upstream = new PassThrough();
    const writer = createRecordingWriter();
    const piped = pipeUpstreamEvents({
      upstreamBody: upstream,
      transformer: createUpperCaseTransformer().transformer,
      writer,
      errorFrame,
      channelKeys: [],
    });
    upstream.write("data: one\n\n");
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    upstream.end();
    await piped;
    expect(writer.writes).toEqual(["data: ONE\n\n", "data: [DONE]\n\n"]);
  });
});
