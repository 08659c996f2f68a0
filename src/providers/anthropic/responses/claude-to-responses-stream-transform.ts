import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import {
  type AnthropicUsage,
  convertAnthropicUsage,
  mergeAnthropicUsage,
} from "../../anthropic-wire/anthropic-usage.js";
import { createResponsesIds } from "../../../http/create-responses-ids.js";
import type { ResponseSettings } from "../../../http/echo-response-settings.js";
import {
  claudeUsageToResponses,
  createClaudeReasoningItem,
  stopReasonToResponsesStatus,
} from "./convert-message-to-response.js";

type ResponseObject = components["schemas"]["ResponseObject"];
type ResponseOutputItem = components["schemas"]["ResponseOutputItem"];
type ResponseOutputMessage = components["schemas"]["ResponseOutputMessage"];
type ResponseOutputFunctionCall = components["schemas"]["ResponseOutputFunctionCall"];
type ResponseStreamEvent = components["schemas"]["ResponseStreamEvent"];
type Frames = TransformStreamDefaultController<string>;

export interface ClaudeToResponsesStreamOptions {
  /** The model name the client asked for. */
  model: string;
  /** Unix seconds. */
  created: number;
  settings: ResponseSettings;
  /** The tool a JSON `text.format` became: its call streams as the answer's text, a message item. */
  formatToolName?: string | undefined;
  /** Unix seconds now, for `completed_at`. */
  now(): number;
  /** Called with the usage so far each time Claude reports it (message_start, then the cumulative message_delta). */
  onUsage(usage: MeteredUsage): void;
  /** Called per delta with its text, so a stream cut short still has something to bill. */
  onText(text: string): void;
}

interface ClaudeEvent {
  type?: string;
  message?: { id?: string; usage?: AnthropicUsage };
  index?: number;
  content_block?: { type?: string; id?: string; name?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/** The output item a Claude content block streams into, by block index. */
type OpenBlock =
  | { kind: "reasoning"; outputIndex: number; id: string; thinking: string; signature: string }
  | { kind: "message"; outputIndex: number; item: ResponseOutputMessage; fromFormatTool: boolean }
  | { kind: "call"; outputIndex: number; item: ResponseOutputFunctionCall };

/**
 * Claude's stream events → the Responses event sequence the gateway sends for every channel, each event
 * `event: <type>` + `data: <json>` with a `sequence_number` from 0: `response.created` and `response.in_progress`
 * at `message_start`; per content block one output item, `response.output_item.added`, then for thinking
 * `response.reasoning_summary_part.added` and `response.reasoning_summary_text.delta`… (the signature kept for the
 * item's `encrypted_content`), for text `response.content_part.added` and `response.output_text.delta`…, for a tool
 * use `response.function_call_arguments.delta`… as Claude streams the input, then at the block's end the `.done`
 * events and `response.output_item.done`; a redacted thinking block is one whole item. The call of a JSON format's
 * tool streams as a message item whose text deltas are the tool input's pieces. At the end
 * `response.completed` with the whole response and usage (status `incomplete` when a limit or a refusal ended it).
 * An `error` event, a malformed event or a stream without `message_stop` ends with one `error` event instead.
 */
export class ClaudeToResponsesStreamTransform implements StreamEventTransformer {
  private sequenceNumber = 0;
  private ids: ReturnType<typeof createResponsesIds> | undefined = undefined;
  private usage: AnthropicUsage = {};
  private stopReason: string | null | undefined = undefined;
  private finished = false;
  private ended = false;
  private readonly output: ResponseOutputItem[] = [];
  private readonly open = new Map<number, OpenBlock>();

  constructor(private readonly options: ClaudeToResponsesStreamOptions) {}

  transform(event: EventSourceMessage, controller: Frames): void {
    if (this.ended) return;
    let parsed: ClaudeEvent;
    try {
      parsed = JSON.parse(event.data) as ClaudeEvent;
    } catch {
      this.fail(controller, "The upstream sent a malformed stream event.", "bad_response");
      return;
    }
    switch (parsed.type) {
      case "message_start":
        this.start(controller, parsed.message?.id);
        this.recordUsage(parsed.message?.usage);
        break;
      case "content_block_start":
        this.start(controller, undefined);
        this.openBlock(controller, parsed.index ?? 0, parsed.content_block ?? {});
        break;
      case "content_block_delta":
        this.appendDelta(controller, parsed.index ?? 0, parsed.delta ?? {});
        break;
      case "content_block_stop":
        this.closeBlock(controller, parsed.index ?? 0);
        break;
      case "message_delta":
        this.recordUsage(parsed.usage);
        if (parsed.delta?.stop_reason !== undefined) this.stopReason = parsed.delta.stop_reason;
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
    if (this.ended) return;
    if (this.ids === undefined) {
      this.fail(controller, "The upstream stream ended without sending any answer.", "bad_response");
      return;
    }
    if (!this.finished) {
      this.fail(controller, "The upstream stream ended before the answer was finished.");
      return;
    }
    for (const index of [...this.open.keys()]) this.closeBlock(controller, index);
    const ending = stopReasonToResponsesStatus(this.stopReason);
    this.ended = true;
    this.send(controller, {
      type: "response.completed",
      sequence_number: this.sequenceNumber++,
      response: this.snapshot({
        ...ending,
        completed_at: ending.status === "completed" ? this.options.now() : null,
        output: this.output,
        usage: claudeUsageToResponses(this.usage),
      }),
    });
  }

  /** The error event for a failure the pipe sees itself: its sequence number continues the stream's. */
  errorFrame(message: string): string {
    return this.frame({
      type: "error",
      sequence_number: this.sequenceNumber++,
      code: "upstream_error",
      message,
      param: null,
    });
  }

  private start(controller: Frames, messageId: string | undefined): void {
    if (this.ids !== undefined) return;
    this.ids = createResponsesIds(messageId);
    const inProgress = () =>
      this.snapshot({ status: "in_progress", incomplete_details: null, completed_at: null, output: [], usage: null });
    this.send(controller, { type: "response.created", sequence_number: this.sequenceNumber++, response: inProgress() });
    this.send(controller, {
      type: "response.in_progress",
      sequence_number: this.sequenceNumber++,
      response: inProgress(),
    });
  }

  private openBlock(controller: Frames, index: number, block: NonNullable<ClaudeEvent["content_block"]>): void {
    const outputIndex = this.output.length;
    const ids = this.ids!;
    const isFormatTool =
      block.type === "tool_use" &&
      this.options.formatToolName !== undefined &&
      block.name === this.options.formatToolName;
    switch (isFormatTool ? "text" : block.type) {
      case "thinking": {
        const id = ids.itemId("rs", outputIndex);
        this.output.push({ id, type: "reasoning", summary: [], status: "in_progress" });
        this.open.set(index, { kind: "reasoning", outputIndex, id, thinking: "", signature: "" });
        this.send(controller, {
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { id, type: "reasoning", summary: [], status: "in_progress" },
        });
        this.send(controller, {
          type: "response.reasoning_summary_part.added",
          sequence_number: this.sequenceNumber++,
          item_id: id,
          output_index: outputIndex,
          summary_index: 0,
          part: { type: "summary_text", text: "" },
        });
        break;
      }
      case "redacted_thinking": {
        const item = createClaudeReasoningItem(ids.itemId("rs", outputIndex), {
          type: "redacted_thinking",
          data: block.data ?? "",
        });
        this.output.push(item);
        this.send(controller, {
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { ...item, status: "in_progress" },
        });
        this.send(controller, {
          type: "response.output_item.done",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item,
        });
        break;
      }
      case "text": {
        const item: ResponseOutputMessage = {
          id: ids.itemId("msg", outputIndex),
          type: "message",
          status: "in_progress",
          role: "assistant",
          content: [{ type: "output_text", text: "", annotations: [], logprobs: [] }],
        };
        this.output.push(item);
        this.open.set(index, { kind: "message", outputIndex, item, fromFormatTool: isFormatTool });
        this.send(controller, {
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { ...item, content: [] },
        });
        this.send(controller, {
          type: "response.content_part.added",
          sequence_number: this.sequenceNumber++,
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [], logprobs: [] },
        });
        break;
      }
      case "tool_use": {
        const item: ResponseOutputFunctionCall = {
          id: ids.itemId("fc", outputIndex),
          type: "function_call",
          status: "in_progress",
          call_id: block.id ?? "",
          name: block.name ?? "",
          arguments: "",
        };
        this.output.push(item);
        this.open.set(index, { kind: "call", outputIndex, item });
        this.send(controller, {
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { ...item },
        });
        break;
      }
      // Server tool blocks (web search and the like) have no Responses item of this door: left out.
    }
  }

  private appendDelta(controller: Frames, index: number, delta: NonNullable<ClaudeEvent["delta"]>): void {
    const block = this.open.get(index);
    if (block === undefined) return;
    if (block.kind === "reasoning" && delta.type === "thinking_delta" && delta.thinking) {
      block.thinking += delta.thinking;
      this.options.onText(delta.thinking);
      this.send(controller, {
        type: "response.reasoning_summary_text.delta",
        sequence_number: this.sequenceNumber++,
        item_id: block.id,
        output_index: block.outputIndex,
        summary_index: 0,
        delta: delta.thinking,
      });
    } else if (block.kind === "reasoning" && delta.type === "signature_delta" && delta.signature) {
      block.signature += delta.signature;
    } else if (block.kind === "message" && (block.fromFormatTool ? delta.partial_json : delta.text)) {
      if (delta.type !== (block.fromFormatTool ? "input_json_delta" : "text_delta")) return;
      const text = (block.fromFormatTool ? delta.partial_json : delta.text)!;
      block.item.content[0]!.text += text;
      this.options.onText(text);
      this.send(controller, {
        type: "response.output_text.delta",
        sequence_number: this.sequenceNumber++,
        item_id: block.item.id,
        output_index: block.outputIndex,
        content_index: 0,
        delta: text,
      });
    } else if (block.kind === "call" && delta.type === "input_json_delta" && delta.partial_json) {
      block.item.arguments += delta.partial_json;
      this.options.onText(delta.partial_json);
      this.send(controller, {
        type: "response.function_call_arguments.delta",
        sequence_number: this.sequenceNumber++,
        item_id: block.item.id,
        output_index: block.outputIndex,
        delta: delta.partial_json,
      });
    }
  }

  private closeBlock(controller: Frames, index: number): void {
    const block = this.open.get(index);
    if (block === undefined) return;
    this.open.delete(index);
    if (block.kind === "reasoning") {
      const common = { item_id: block.id, output_index: block.outputIndex, summary_index: 0 };
      this.send(controller, {
        type: "response.reasoning_summary_text.done",
        sequence_number: this.sequenceNumber++,
        ...common,
        text: block.thinking,
      });
      this.send(controller, {
        type: "response.reasoning_summary_part.done",
        sequence_number: this.sequenceNumber++,
        ...common,
        part: { type: "summary_text", text: block.thinking },
      });
      const item = createClaudeReasoningItem(block.id, {
        type: "thinking",
        thinking: block.thinking,
        signature: block.signature,
      });
      // The summary part was announced while streaming, so the item keeps it even for an empty thought.
      item.summary = [{ type: "summary_text", text: block.thinking }];
      this.output[block.outputIndex] = item;
      this.itemDone(controller, block.outputIndex, item);
    } else if (block.kind === "message") {
      const item = block.item;
      item.status = "completed";
      const part = item.content[0]!;
      const common = { item_id: item.id, output_index: block.outputIndex, content_index: 0 };
      this.send(controller, {
        type: "response.output_text.done",
        sequence_number: this.sequenceNumber++,
        ...common,
        text: part.text,
      });
      this.send(controller, {
        type: "response.content_part.done",
        sequence_number: this.sequenceNumber++,
        ...common,
        part,
      });
      this.itemDone(controller, block.outputIndex, item);
    } else {
      const item = block.item;
      item.status = "completed";
      // Claude streams an empty input as no delta at all: its arguments are then an empty object.
      if (item.arguments === "") item.arguments = "{}";
      this.send(controller, {
        type: "response.function_call_arguments.done",
        sequence_number: this.sequenceNumber++,
        item_id: item.id,
        output_index: block.outputIndex,
        arguments: item.arguments,
      });
      this.itemDone(controller, block.outputIndex, item);
    }
  }

  private itemDone(controller: Frames, outputIndex: number, item: ResponseOutputItem): void {
    this.send(controller, {
      type: "response.output_item.done",
      sequence_number: this.sequenceNumber++,
      output_index: outputIndex,
      item,
    });
  }

  private snapshot(
    fields: Pick<ResponseObject, "status" | "incomplete_details" | "output" | "usage"> & {
      completed_at: number | null;
    },
  ): ResponseObject {
    return {
      id: this.ids!.responseId,
      object: "response",
      created_at: this.options.created,
      status: fields.status,
      completed_at: fields.completed_at,
      incomplete_details: fields.incomplete_details,
      model: this.options.model,
      output: fields.output,
      ...this.options.settings,
      usage: fields.usage,
    };
  }

  private recordUsage(usage: AnthropicUsage | undefined): void {
    if (!usage) return;
    this.usage = mergeAnthropicUsage(this.usage, usage);
    this.options.onUsage(convertAnthropicUsage(this.usage));
  }

  private fail(controller: Frames, message: string, code = "upstream_error"): void {
    this.ended = true;
    controller.enqueue(
      this.frame({ type: "error", sequence_number: this.sequenceNumber++, code, message, param: null }),
    );
  }

  private send(controller: Frames, event: ResponseStreamEvent): void {
    controller.enqueue(this.frame(event));
  }

  private frame(event: ResponseStreamEvent): string {
    return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  }
}
