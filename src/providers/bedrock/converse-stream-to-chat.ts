import type { TransformStreamDefaultController } from "node:stream/web";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { formatChatStreamErrorFrame } from "../../http/format-chat-stream-error-frame.js";
import { convertConverseUsage, mapConverseStopReason } from "./convert-converse-usage.js";
import type { ConverseUsage } from "./converse-types.js";
import type { BedrockStreamEvent, BedrockStreamTransformer } from "./pipe-bedrock-event-stream.js";

export interface ConverseStreamOptions {
  id: string;
  model: string;
  created: number;
  clientWantsUsage: boolean;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}

/**
 * Converse stream events (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata) → chat completion
 * chunks, as JSON texts for the SSE writer. Tool uses become tool calls numbered in the order they start; the finish
 * chunk comes with messageStop, the usage chunk (when the client asked) with metadata. `finished` says whether the
 * stream reached messageStop: one that did not was cut short, and ends with an error frame instead of `[DONE]`.
 */
export class ConverseStreamToChat implements BedrockStreamTransformer {
  finished = false;
  private readonly toolIndexes = new Map<number, number>();
  private readonly options: ConverseStreamOptions;

  constructor(options: ConverseStreamOptions) {
    this.options = options;
  }

  transform(event: BedrockStreamEvent, controller: TransformStreamDefaultController<string>): void {
    for (const chunk of this.accept(event.type, event.payload)) controller.enqueue(`data: ${chunk}\n\n`);
  }

  flush(controller: TransformStreamDefaultController<string>): void {
    controller.enqueue(
      this.finished
        ? "data: [DONE]\n\n"
        : formatChatStreamErrorFrame("The upstream stream ended before the answer was finished."),
    );
  }

  accept(eventType: string, payload: Record<string, unknown>): string[] {
    switch (eventType) {
      case "messageStart":
        return [this.chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
      case "contentBlockStart":
        return this.startBlock(payload);
      case "contentBlockDelta":
        return this.delta(payload);
      case "messageStop":
        this.finished = true;
        return [
          this.chunk([{ index: 0, delta: {}, finish_reason: mapConverseStopReason(payload.stopReason as string) }]),
        ];
      case "metadata": {
        const { metered, chat } = convertConverseUsage(payload.usage as ConverseUsage | undefined);
        this.options.onUsage(metered);
        return this.options.clientWantsUsage ? [this.chunk([], { usage: chat })] : [];
      }
      default:
        return [];
    }
  }

  private startBlock(payload: Record<string, unknown>): string[] {
    const toolUse = (payload.start as { toolUse?: { toolUseId?: string; name?: string } } | undefined)?.toolUse;
    if (!toolUse?.name) return [];
    const index = this.toolIndexes.size;
    this.toolIndexes.set(Number(payload.contentBlockIndex ?? 0), index);
    return [
      this.chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              { index, id: toolUse.toolUseId, type: "function", function: { name: toolUse.name, arguments: "" } },
            ],
          },
          finish_reason: null,
        },
      ]),
    ];
  }

  private delta(payload: Record<string, unknown>): string[] {
    const delta = payload.delta as
      | { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } }
      | undefined;
    if (typeof delta?.text === "string") {
      this.options.onText(delta.text);
      return [this.chunk([{ index: 0, delta: { content: delta.text }, finish_reason: null }])];
    }
    if (typeof delta?.reasoningContent?.text === "string") {
      this.options.onText(delta.reasoningContent.text);
      return [
        this.chunk([{ index: 0, delta: { reasoning_content: delta.reasoningContent.text }, finish_reason: null }]),
      ];
    }
    if (typeof delta?.toolUse?.input === "string") {
      const index = this.toolIndexes.get(Number(payload.contentBlockIndex ?? 0)) ?? 0;
      this.options.onText(delta.toolUse.input);
      return [
        this.chunk([
          {
            index: 0,
            delta: { tool_calls: [{ index, function: { arguments: delta.toolUse.input } }] },
            finish_reason: null,
          },
        ]),
      ];
    }
    return [];
  }

  private chunk(choices: unknown[], extra: Record<string, unknown> = {}): string {
    const { id, model, created } = this.options;
    return JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra });
  }
}
