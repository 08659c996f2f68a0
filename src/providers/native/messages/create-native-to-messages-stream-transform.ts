import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import { ChatToMessagesStreamTransform } from "../../anthropic-wire/chat-to-messages-stream-transform.js";
import { createNativeEventToChatTransform } from "../chat/create-native-event-to-chat-transform.js";

export interface NativeToMessagesStreamOptions {
  /** The model name the client asked for. */
  clientModel: string;
  requestId: string;
  includeThoughts: boolean;
  /** The gateway's estimate of the prompt, for `message_start` (the native stream counts the prompt at its end). */
  promptTokenEstimate: number;
  /** Unix seconds. */
  created: number;
  /** The native usage, exactly once (as the chat door bills it): at the end, on failure, on cancel. */
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}

/**
 * Native stream events → Anthropic's stream events, as two translations the gateway already has, run by plain calls:
 * native → chat completion chunks (thoughts, text, whole function calls with their signatures in the ids, the finish
 * reason held to the end, then the usage chunk) → Anthropic's event sequence (message_start with the estimate, one
 * content block per thinking, text or tool use, message_delta with the exact counts, message_stop, or an `error`
 * event). The chunks between them are whole SSE frames of one line each, read back without a parser.
 */
export function createNativeToMessagesStreamTransform(options: NativeToMessagesStreamOptions): StreamEventTransformer {
  const messages = new ChatToMessagesStreamTransform({
    clientModel: options.clientModel,
    requestId: options.requestId,
    promptTokenEstimate: options.promptTokenEstimate,
    // Billing reads the native usage (media and thoughts included), not its chat restatement.
    onUsage: () => {},
    onText: () => {},
  });
  const chat = createNativeEventToChatTransform({
    model: options.clientModel,
    includeThoughts: options.includeThoughts,
    includeUsage: true,
    created: options.created,
    onUsage: options.onUsage,
    onText: options.onText,
  });
  let output: TransformStreamDefaultController<string> | undefined;
  const chunks = {
    enqueue(frame: string) {
      for (const block of frame.split("\n\n")) {
        if (!block.startsWith("data: ")) continue;
        const event: EventSourceMessage = { event: undefined, id: undefined, data: block.slice("data: ".length) };
        messages.transform(event, output!);
      }
    },
    error(reason: unknown) {
      output!.error(reason);
    },
    // The chat transform stops reading after an upstream error: so does the pipe.
    terminate() {
      output!.terminate();
    },
    desiredSize: 1,
  } as unknown as TransformStreamDefaultController<string>;
  return {
    transform(event, controller) {
      output = controller;
      chat.transform(event, chunks);
    },
    flush(controller) {
      output = controller;
      chat.flush?.(chunks);
      messages.flush(controller);
    },
    cancel(reason) {
      chat.cancel?.(reason);
    },
  };
}
