import type { Readable } from "node:stream";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { SseWriter } from "../../http/sse-writer.js";
import { createCollectingController } from "../../upstream/create-collecting-controller.js";
import { pumpUpstreamStream } from "../../upstream/pump-upstream-stream.js";
import type { SynchronousTransformer } from "../../upstream/stream-event-transformer.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import { EventStreamFrameSplitter } from "./split-event-stream-frames.js";

/** One decoded event of a Bedrock stream: its `:event-type` and JSON payload. */
export interface BedrockStreamEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** Bedrock stream events in, ready client SSE frames out. */
export type BedrockStreamTransformer = SynchronousTransformer<BedrockStreamEvent, string>;

export interface PipeBedrockEventStreamOptions {
  upstreamBody: Readable;
  transformer: BedrockStreamTransformer;
  writer: SseWriter;
  /** The frame that ends the client's stream when the upstream fails after the first byte, in its protocol. */
  errorFrame: (message: string) => string;
  channelKeys: readonly string[];
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => utf8Decoder.decode(bytes),
  (text) => utf8Encoder.encode(text),
);

/** A Bedrock stream that went wrong: a frame that does not decode (length, CRC, JSON) or an exception frame. */
function bedrockStreamFailure(message: string, cause?: unknown): UpstreamFailure {
  return new UpstreamFailure(message, true, { status: 502, code: "bad_response", cause });
}

/**
 * An AWS event stream (Converse and InvokeModelWithResponseStream alike) through the relay's one stream loop: bytes
 * cut into frames, each checked and decoded by AWS's codec (prelude and message CRCs), its JSON payload handed to
 * the transformer. A frame that does not decode or an exception frame fails the stream: before the first byte the
 * relay may try another channel; after it the client gets `errorFrame` and the usage seen so far is billed. What the
 * transformer hands over at the end goes out as the final frames, after the settlement.
 */
export async function pipeBedrockEventStream(options: PipeBedrockEventStreamOptions): Promise<void> {
  const { transformer } = options;
  const splitter = new EventStreamFrameSplitter();
  const frames = createCollectingController<string>();
  const transformFrame = (frame: Buffer) => {
    let message: ReturnType<typeof codec.decode>;
    let payload: Record<string, unknown>;
    try {
      message = codec.decode(frame);
      payload = JSON.parse(utf8Decoder.decode(message.body) || "{}") as Record<string, unknown>;
    } catch (error) {
      throw bedrockStreamFailure("The upstream sent a broken event stream frame.", error);
    }
    if (String(message.headers[":message-type"]?.value ?? "event") !== "event") {
      const kind = String(message.headers[":exception-type"]?.value ?? message.headers[":error-code"]?.value);
      const said = typeof payload.message === "string" ? `: ${payload.message}` : ".";
      throw bedrockStreamFailure(`The upstream failed mid-stream (${kind})${said}`);
    }
    transformer.transform({ type: String(message.headers[":event-type"]?.value), payload }, frames.controller);
    frames.throwIfFailed();
  };
  const stage = {
    read: (piece: Buffer) => {
      let pieceFrames: Buffer[];
      try {
        pieceFrames = splitter.push(piece);
      } catch (error) {
        throw bedrockStreamFailure("The upstream sent a broken event stream frame.", error);
      }
      // Frame by frame: the frames before a broken one are translated and reach the client ahead of the error.
      for (const frame of pieceFrames) {
        transformFrame(frame);
        if (frames.terminated) break;
      }
      stage.terminated = frames.terminated;
    },
    end: () => {
      try {
        splitter.end();
      } catch (error) {
        throw bedrockStreamFailure("The upstream sent a broken event stream frame.", error);
      }
      transformer.flush?.(frames.controller);
      frames.throwIfFailed();
      stage.terminated = frames.terminated;
    },
    take: () => frames.take().join(""),
    terminated: false,
    cancel: (reason: unknown) => transformer.cancel?.(reason),
  };
  await pumpUpstreamStream(
    options.upstreamBody,
    options.writer,
    stage,
    (error) =>
      options.errorFrame(error instanceof UpstreamFailure ? error.message : "The upstream stream ended unexpectedly."),
    options.channelKeys,
  );
}
