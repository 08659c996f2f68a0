import type { Readable } from "node:stream";
import type { SseWriter } from "../http/sse-writer.js";
import { ClientGoneError } from "../errors/gateway-error.js";
import { maskChannelKeysInFrame } from "./mask-upstream-secrets.js";
import { streamFailureBeforeFirstEvent } from "./upstream-failure.js";

/** What a stream pipe does with the upstream's reads: translate or observe them, and hand back what is ready. */
export interface UpstreamStreamStage {
  /** One upstream read. Throws to fail the stream (a bad or oversized event). */
  read(chunk: Buffer): void;
  /** The upstream ended: flush what is held (final usage and finish chunks). Throws to fail the stream. */
  end(): void;
  /** What is ready for the client since the last call, as one write; undefined when nothing is. */
  take(): string | Uint8Array | undefined;
  /** Set when the stage wants no more upstream input (a transformer that terminated the stream). */
  readonly terminated: boolean;
  /** The stream stopped early (the client left, or a failure): report what was observed so far. */
  cancel(reason: unknown): void;
}

/** A frame sent while the upstream is silent, so the client and the proxies between know the stream is alive. */
export interface IdlePing {
  frame: string;
  /** Sent after this long without any write to the client, and again after each such interval. */
  intervalMs: number;
}

/**
 * The one loop of every upstream stream: each upstream read goes through the stage and out as one write before the
 * next read (backpressure: the next read waits for the client's socket to drain). Leaving the loop destroys the
 * upstream body, which aborts the upstream request.
 *
 * The rule on failures: a failure before anything reached the client (not even the headers, see sse-writer.ts)
 * goes back to the relay, which may try another channel or answer in JSON (streamFailureBeforeFirstEvent). After
 * the first byte nothing can be retried: the client gets what was ready, then `errorFrame(error)` so it learns the
 * stream is incomplete, and the error goes back to the relay for its log. The relay ends the response once the
 * request is settled.
 *
 * The final frames — what the stage hands over at the upstream's end, or after the read that terminated it — go
 * through `sendFinal`: the relay holds them until the settlement has committed.
 *
 * Every write passes the channel's keys through a mask on its way out: an upstream that quotes its key in a stream
 * error event (or a pass-through stream) must not hand it to the client.
 *
 * With `idlePing`, a silence of the upstream after the first byte reached the client (a model thinking before it
 * writes) is filled with that frame every interval until the upstream speaks or ends. None before the first byte:
 * until then a failure may still go to another channel.
 */
export async function pumpUpstreamStream(
  upstreamBody: Readable,
  writer: SseWriter,
  stage: UpstreamStreamStage,
  errorFrame: (error: unknown) => string,
  channelKeys: readonly string[],
  idlePing?: IdlePing,
): Promise<void> {
  let clientHasBytes = false;
  let pingTimer: NodeJS.Timeout | undefined;
  let pinging = idlePing !== undefined;
  const armPing = () => {
    if (!pinging || !clientHasBytes) return;
    clearTimeout(pingTimer);
    pingTimer = setTimeout(() => {
      if (!pinging || writer.closed) return;
      writer.sendRaw(idlePing!.frame).then(armPing, stopPinging);
    }, idlePing!.intervalMs);
  };
  const stopPinging = () => {
    pinging = false;
    clearTimeout(pingTimer);
  };
  const send = async (final = false) => {
    const ready = stage.take();
    if (ready === undefined || ready.length === 0 || writer.closed) return;
    clientHasBytes = true;
    const frame = maskChannelKeysInFrame(ready, channelKeys);
    if (final) stopPinging();
    await (final ? writer.sendFinal(frame) : writer.sendRaw(frame));
    armPing();
  };
  try {
    for await (const chunk of upstreamBody as AsyncIterable<Buffer>) {
      stage.read(chunk);
      await send(stage.terminated);
      if (stage.terminated || writer.closed) break;
    }
    stopPinging();
    if (!stage.terminated && !writer.closed) {
      stage.end();
      await send(true);
    }
    if (writer.closed) stage.cancel(new ClientGoneError());
  } catch (error) {
    stopPinging();
    stage.cancel(error);
    if (writer.closed) throw error;
    await send();
    if (!clientHasBytes) throw streamFailureBeforeFirstEvent(error);
    await writer.sendRaw(maskChannelKeysInFrame(errorFrame(error), channelKeys));
    throw error;
  }
}
