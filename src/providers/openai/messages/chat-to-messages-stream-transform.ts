import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import { convertOpenaiChatUsage } from "../convert-openai-usage.js";
import { chatUsageToAnthropic, finishReasonToStopReason } from "./convert-chat-completion-to-message.js";

export interface ChatToMessagesStreamOptions {
  clientModel: string;
  requestId: string;
  /** The gateway's estimate of the prompt: `message_start` must name input tokens before the upstream counts them. */
  promptTokenEstimate: number;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}

interface ChatChunk {
  id?: string;
  choices?: Array<{
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: Parameters<typeof convertOpenaiChatUsage>[0] & Parameters<typeof chatUsageToAnthropic>[0];
  error?: { message?: string } | null;
}

type Frames = TransformStreamDefaultController<string>;
type OpenBlock = { kind: "thinking" } | { kind: "text" } | { kind: "tool"; toolIndex: number };

const frame = (data: Record<string, unknown>) => `event: ${data.type as string}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Chat completion chunks → Anthropic's stream events. The upstream reports usage only at its end, so
 * `message_start` carries the gateway's prompt estimate and `message_delta` the exact counts. Reasoning, text and
 * each tool call become one content block each, opened and closed in order (Anthropic's clients hold one open
 * block at a time); tool arguments stream as `input_json_delta`. An upstream error, a malformed chunk or a stream
 * that ends without a finish reason ends with an `error` event.
 */
export class ChatToMessagesStreamTransform implements StreamEventTransformer {
  private started = false;
  private blockCount = 0;
  private openBlock: OpenBlock | undefined = undefined;
  private stopReason = "end_turn";
  private usage: ChatChunk["usage"] = undefined;
  private finished = false;
  private ended = false;

  constructor(private readonly options: ChatToMessagesStreamOptions) {}

  transform(event: EventSourceMessage, controller: Frames): void {
    if (this.ended) return;
    if (event.data === "[DONE]") {
      this.finished = true;
      return;
    }
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(event.data) as ChatChunk;
    } catch {
      this.fail(controller, "The upstream sent a malformed stream chunk.");
      return;
    }
    if (chunk.error) {
      const detail = typeof chunk.error.message === "string" ? `: ${chunk.error.message}` : ".";
      this.fail(controller, `The upstream failed mid-stream${detail}`);
      return;
    }
    this.start(controller, chunk.id);
    if (chunk.usage) {
      this.usage = chunk.usage;
      this.options.onUsage(convertOpenaiChatUsage(chunk.usage));
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta?.reasoning_content) {
      this.open(controller, { kind: "thinking" });
      this.options.onText(delta.reasoning_content);
      this.delta(controller, { type: "thinking_delta", thinking: delta.reasoning_content });
    }
    if (delta?.content) {
      this.open(controller, { kind: "text" });
      this.options.onText(delta.content);
      this.delta(controller, { type: "text_delta", text: delta.content });
    }
    for (const call of delta?.tool_calls ?? []) {
      const toolIndex = call.index ?? 0;
      const open = this.openBlock;
      if (open?.kind !== "tool" || open.toolIndex !== toolIndex)
        this.open(controller, { kind: "tool", toolIndex }, { id: call.id ?? "", name: call.function?.name ?? "" });
      const fragment = call.function?.arguments;
      if (fragment) {
        this.options.onText(fragment);
        this.delta(controller, { type: "input_json_delta", partial_json: fragment });
      }
    }
    if (choice.finish_reason) {
      this.finished = true;
      this.stopReason = finishReasonToStopReason(choice.finish_reason);
    }
  }

  flush(controller: Frames): void {
    if (this.ended) return;
    if (!this.finished) {
      this.fail(controller, "The upstream stream ended before the answer was finished.");
      return;
    }
    this.start(controller, undefined);
    this.close(controller);
    const usage = this.usage
      ? chatUsageToAnthropic(this.usage)
      : { input_tokens: this.options.promptTokenEstimate, output_tokens: 0 };
    controller.enqueue(
      frame({ type: "message_delta", delta: { stop_reason: this.stopReason, stop_sequence: null }, usage }),
    );
    controller.enqueue(frame({ type: "message_stop" }));
  }

  private start(controller: Frames, upstreamId: string | undefined): void {
    if (this.started) return;
    this.started = true;
    controller.enqueue(
      frame({
        type: "message_start",
        message: {
          id: `msg_${upstreamId ?? this.options.requestId}`,
          type: "message",
          role: "assistant",
          model: this.options.clientModel,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: this.options.promptTokenEstimate, output_tokens: 0 },
        },
      }),
    );
    controller.enqueue(frame({ type: "ping" }));
  }

  private open(controller: Frames, block: OpenBlock, tool?: { id: string; name: string }): void {
    const open = this.openBlock;
    if (open && open.kind === block.kind && block.kind !== "tool") return;
    this.close(controller);
    this.openBlock = block;
    const contentBlock =
      block.kind === "thinking"
        ? { type: "thinking", thinking: "", signature: "" }
        : block.kind === "text"
          ? { type: "text", text: "" }
          : { type: "tool_use", id: tool?.id ?? "", name: tool?.name ?? "", input: {} };
    controller.enqueue(frame({ type: "content_block_start", index: this.blockCount, content_block: contentBlock }));
  }

  private delta(controller: Frames, delta: Record<string, unknown>): void {
    controller.enqueue(frame({ type: "content_block_delta", index: this.blockCount, delta }));
  }

  private close(controller: Frames): void {
    if (!this.openBlock) return;
    controller.enqueue(frame({ type: "content_block_stop", index: this.blockCount }));
    this.openBlock = undefined;
    this.blockCount += 1;
  }

  private fail(controller: Frames, message: string): void {
    this.ended = true;
    controller.enqueue(formatAnthropicErrorEvent(message, this.options.requestId));
  }
}
