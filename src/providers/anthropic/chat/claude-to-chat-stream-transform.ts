import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import {
  type AnthropicUsage,
  convertAnthropicUsage,
  mergeAnthropicUsage,
} from "../../anthropic-wire/anthropic-usage.js";
import { claudeUsageToChat, stopReasonToFinishReason } from "./convert-message-to-chat-completion.js";

export interface ClaudeToChatStreamOptions {
  clientModel: string;
  clientWantsUsage: boolean;
  created: number;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}

interface ClaudeEvent {
  type?: string;
  message?: { id?: string; usage?: AnthropicUsage };
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

type Frames = TransformStreamDefaultController<string>;

const errorFrame = (message: string) =>
  `data: ${JSON.stringify({ error: { message, type: "upstream_error", code: "bad_response" } })}\n\n`;

/**
 * Claude's stream events → chat completion chunks: a role chunk at `message_start`, text deltas as `content`,
 * thinking deltas as `reasoning_content`, each `tool_use` block as the next tool call (its id and name first, then
 * its `input_json_delta` fragments as arguments), the stop reason as the finish chunk, then the usage chunk for a
 * client that asked, and `[DONE]`. An `error` event, a malformed event or a stream without `message_stop` ends with
 * an error frame.
 */
export class ClaudeToChatStreamTransform implements StreamEventTransformer {
  private id = "chatcmpl-claude";
  private usage: AnthropicUsage = {};
  private toolCallIndexByBlock = new Map<number, number>();
  private finished = false;
  private ended = false;

  constructor(private readonly options: ClaudeToChatStreamOptions) {}

  transform(event: EventSourceMessage, controller: Frames): void {
    if (this.ended) return;
    let parsed: ClaudeEvent;
    try {
      parsed = JSON.parse(event.data) as ClaudeEvent;
    } catch {
      this.fail(controller, "The upstream sent a malformed stream event.");
      return;
    }
    switch (parsed.type) {
      case "message_start":
        if (parsed.message?.id) this.id = `chatcmpl-${parsed.message.id}`;
        this.recordUsage(parsed.message?.usage);
        this.chunk(controller, { role: "assistant", content: "" }, null);
        break;
      case "content_block_start":
        if (parsed.content_block?.type === "tool_use") {
          const toolIndex = this.toolCallIndexByBlock.size;
          this.toolCallIndexByBlock.set(parsed.index ?? 0, toolIndex);
          this.chunk(
            controller,
            {
              tool_calls: [
                {
                  index: toolIndex,
                  id: parsed.content_block.id,
                  type: "function",
                  function: { name: parsed.content_block.name, arguments: "" },
                },
              ],
            },
            null,
          );
        }
        break;
      case "content_block_delta": {
        const delta = parsed.delta;
        if (delta?.type === "text_delta" && delta.text) {
          this.options.onText(delta.text);
          this.chunk(controller, { content: delta.text }, null);
        } else if (delta?.type === "thinking_delta" && delta.thinking) {
          this.options.onText(delta.thinking);
          this.chunk(controller, { reasoning_content: delta.thinking }, null);
        } else if (delta?.type === "input_json_delta" && delta.partial_json) {
          this.options.onText(delta.partial_json);
          const index = this.toolCallIndexByBlock.get(parsed.index ?? 0) ?? 0;
          this.chunk(controller, { tool_calls: [{ index, function: { arguments: delta.partial_json } }] }, null);
        }
        break;
      }
      case "message_delta":
        this.recordUsage(parsed.usage);
        this.chunk(controller, {}, stopReasonToFinishReason(parsed.delta?.stop_reason));
        break;
      case "message_stop":
        this.finished = true;
        break;
      case "error":
        this.fail(
          controller,
          `The upstream failed mid-stream: ${parsed.error?.message ?? parsed.error?.type ?? "error"}`,
        );
        break;
    }
  }

  flush(controller: Frames): void {
    if (!this.ended && !this.finished)
      this.fail(controller, "The upstream stream ended before the answer was finished.");
    if (!this.ended && this.options.clientWantsUsage)
      controller.enqueue(
        `data: ${JSON.stringify({ ...this.head(), choices: [], usage: claudeUsageToChat(this.usage) })}\n\n`,
      );
    controller.enqueue("data: [DONE]\n\n");
  }

  private head() {
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.options.created,
      model: this.options.clientModel,
    };
  }

  private chunk(controller: Frames, delta: Record<string, unknown>, finishReason: string | null): void {
    const chunk = { ...this.head(), choices: [{ index: 0, delta, finish_reason: finishReason }] };
    controller.enqueue(
      `data: ${JSON.stringify(this.options.clientWantsUsage ? { ...chunk, usage: null } : chunk)}\n\n`,
    );
  }

  private recordUsage(usage: AnthropicUsage | undefined): void {
    if (!usage) return;
    this.usage = mergeAnthropicUsage(this.usage, usage);
    this.options.onUsage(convertAnthropicUsage(this.usage));
  }

  private fail(controller: Frames, message: string): void {
    this.ended = true;
    controller.enqueue(errorFrame(message));
  }
}
