import type { MeteredUsage } from "../../billing/metered-usage.js";
import type { StreamEventTransformer } from "../../upstream/stream-event-transformer.js";
import { type AnthropicUsage, convertAnthropicUsage, mergeAnthropicUsage } from "../anthropic-wire/anthropic-usage.js";
import { formatAnthropicErrorEvent } from "../anthropic-wire/format-anthropic-error-event.js";

export interface AnthropicMessagesStreamOptions {
  /** The model name the client asked for; `message_start` carries the channel's. */
  clientModel: string;
  requestId: string;
  onUsage(usage: MeteredUsage): void;
  /** Called per delta with its text, so a stream cut short still has something to bill. */
  onText(text: string): void;
}

interface StreamEvent {
  type?: string;
  message?: { model?: string; usage?: AnthropicUsage };
  usage?: AnthropicUsage;
  delta?: { text?: string; thinking?: string; partial_json?: string };
}

/**
 * Claude's stream passed through event by event: each event goes out as it came (only `message_start` is written
 * again, with the client's model name), while usage is read from `message_start` and the cumulative
 * `message_delta`. An upstream `error` event ends the stream as it is; a stream that stops before `message_stop`
 * was cut short and ends with our `error` event, rather than passing for a complete answer.
 */
export function createAnthropicMessagesStreamTransform(
  options: AnthropicMessagesStreamOptions,
): StreamEventTransformer {
  let usage: AnthropicUsage = {};
  let ended = false;
  let finished = false;
  return {
    transform(event, controller) {
      if (ended) return;
      let parsed: StreamEvent;
      try {
        parsed = JSON.parse(event.data) as StreamEvent;
      } catch {
        ended = true;
        controller.enqueue(formatAnthropicErrorEvent("The upstream sent a malformed stream event.", options.requestId));
        return;
      }
      const name = event.event ?? parsed.type ?? "message";
      let data = event.data;
      switch (parsed.type) {
        case "message_start":
          if (parsed.message) {
            parsed.message.model = options.clientModel;
            if (parsed.message.usage) usage = mergeAnthropicUsage(usage, parsed.message.usage);
            options.onUsage(convertAnthropicUsage(usage));
            data = JSON.stringify(parsed);
          }
          break;
        case "message_delta":
          if (parsed.usage) {
            usage = mergeAnthropicUsage(usage, parsed.usage);
            options.onUsage(convertAnthropicUsage(usage));
          }
          break;
        case "content_block_delta": {
          const text = parsed.delta?.text ?? parsed.delta?.thinking ?? parsed.delta?.partial_json;
          if (text) options.onText(text);
          break;
        }
        case "message_stop":
          finished = true;
          break;
        case "error":
          ended = true;
          break;
      }
      controller.enqueue(`event: ${name}\ndata: ${data}\n\n`);
    },
    flush(controller) {
      if (!ended && !finished)
        controller.enqueue(
          formatAnthropicErrorEvent("The upstream stream ended before the answer was finished.", options.requestId),
        );
    },
  };
}
