import { EventSourceParserStream } from "eventsource-parser/stream";
import { maximumUpstreamEventSize } from "../../relay/oversized-upstream-event.js";
import {
  createNativeEventToChatTransform,
  type NativeToChatStreamOptions,
} from "./create-native-event-to-chat-transform.js";

/**
 * Raw native SSE bytes → ready chat.completion.chunk frames, in layers: bytes → text (a UTF-8 character split
 * between reads is held until complete) → events (eventsource-parser; the upstream frames with CRLF CRLF) → chunks.
 * The result is a readable/writable pair usable wherever a TransformStream is (pipeThrough).
 */
export function createNativeToChatStreamTransform(
  options: NativeToChatStreamOptions,
): TransformStream<Uint8Array, string> {
  const decoder = new TextDecoderStream();
  const readable = decoder.readable
    .pipeThrough(new EventSourceParserStream({ maxBufferSize: maximumUpstreamEventSize }))
    .pipeThrough(new TransformStream(createNativeEventToChatTransform(options)));
  return { writable: decoder.writable as WritableStream<Uint8Array>, readable } as TransformStream<Uint8Array, string>;
}
