import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import { collectProducedMedia, type ProducedMedia } from "../shared/collect-produced-media.js";
import { convertNativePartsToMessage } from "../chat/convert-native-parts-to-message.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";
import { convertNativeUsageToResponses } from "./convert-native-usage-to-responses.js";
import { createResponsesIds } from "../../../http/create-responses-ids.js";
import { createSignatureReasoningItem } from "../../shared-translations/thought-signatures.js";
import { createToolCallId } from "../shared/create-tool-call-id.js";
import { describeBlockedPrompt } from "../shared/describe-blocked-prompt.js";
import type { ResponseSettings } from "../../../http/echo-response-settings.js";
import { mapNativeFinishToResponsesStatus } from "./map-native-finish-to-responses-status.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type UsageMetadata = NativeComponents["schemas"]["UsageMetadata"];
type NativeErrorResponse = NativeComponents["schemas"]["ErrorResponse"];
type ResponseObject = OpenaiComponents["schemas"]["ResponseObject"];
type ResponseOutputItem = OpenaiComponents["schemas"]["ResponseOutputItem"];
type ResponseOutputMessage = OpenaiComponents["schemas"]["ResponseOutputMessage"];
type ResponseOutputReasoning = OpenaiComponents["schemas"]["ResponseOutputReasoning"];
type ResponseStreamEvent = OpenaiComponents["schemas"]["ResponseStreamEvent"];
type NativePart = NativeComponents["schemas"]["Part"];

export interface NativeToResponsesStreamOptions {
  /** The model name the client asked for. */
  model: string;
  includeThoughts: boolean;
  /** Unix seconds. */
  created: number;
  /** The request's settings, restated in every response snapshot. */
  settings: ResponseSettings;
  /** Unix seconds now, for `completed_at`. */
  now(): number;
  /** Called exactly once with the last usage the upstream reported (zeros when none): at the end, on failure, on cancel. */
  onUsage(usage: MeteredUsage): void;
  /** Called with each piece of answer or thinking text, for the estimate of a stream cut short. */
  onText?(text: string): void;
}

/** The transformer, and the error event for a failure the pipe sees (its sequence number continues the stream's). */
export interface NativeToResponsesStream {
  transformer: StreamEventTransformer;
  errorFrame(message: string): string;
}

type OpenItem =
  | { kind: "message"; outputIndex: number; item: ResponseOutputMessage }
  | { kind: "reasoning"; outputIndex: number; item: ResponseOutputReasoning };

/**
 * Native stream events (each `data:` a GenerateContentResponse fragment of the first candidate) → the Responses
 * event sequence of the product document, every event `event: <type>` + `data: <json>` with a `sequence_number`
 * counting from 0: `response.created` and `response.in_progress` when the first fragment arrives (so a failure before
 * it can still go to another channel); per output item `response.output_item.added`, its content (for a message
 * `response.content_part.added`, `response.output_text.delta`…, `response.output_text.done`,
 * `response.content_part.done`; for a call `response.function_call_arguments.delta` and `.done`, the native API
 * sending each call whole; for thoughts `response.reasoning_summary_part.added`,
 * `response.reasoning_summary_text.delta`…, `response.reasoning_summary_text.done`,
 * `response.reasoning_summary_part.done`), `response.output_item.done`. A signature on answer text becomes a
 * reasoning item (empty summary, `encrypted_content`) sent whole right after the message it signs. Then
 * `response.completed` with the whole response and its usage (status `incomplete` when a limit or filter ended it).
 * An upstream error object, a malformed fragment, or an end without a finish reason ends the stream with one `error`
 * event instead.
 */
export function createNativeEventToResponsesTransform(
  options: NativeToResponsesStreamOptions,
): NativeToResponsesStream {
  const transform = new NativeEventToResponsesTransform(options);
  return { transformer: transform, errorFrame: (message) => transform.errorFrame(message) };
}

type Frames = TransformStreamDefaultController<string>;
type ResponsesIds = ReturnType<typeof createResponsesIds>;
type NativeFragment = GenerateContentResponse & Partial<NativeErrorResponse>;
type ConvertedCall = ReturnType<typeof convertNativePartsToMessage>["tool_calls"][number];

/**
 * The translator behind createNativeEventToResponsesTransform. Its state is set whole in the constructor, always in
 * the same order, so every stream's translator has one V8 shape and its fields stay plain data properties.
 */
export class NativeEventToResponsesTransform implements StreamEventTransformer {
  private readonly options: NativeToResponsesStreamOptions;
  private sequenceNumber: number;
  /** Set by the first fragment, with `response.created`: until then a failure can still go to another channel. */
  private ids: ResponsesIds | undefined;
  private lastUsageMetadata: UsageMetadata | undefined;
  private usageReported: boolean;
  private ended: boolean;
  private finishReason: string | undefined;
  private blocked: boolean;
  private callCount: number;
  private open: OpenItem | undefined;
  /** A signature on the open message's text: its reasoning item follows the message when the message closes. */
  private pendingSignature: string | undefined;
  private readonly output: ResponseOutputItem[];
  private readonly producedMedia: Set<ProducedMedia>;

  constructor(options: NativeToResponsesStreamOptions) {
    this.options = options;
    this.sequenceNumber = 0;
    this.ids = undefined;
    this.lastUsageMetadata = undefined;
    this.usageReported = false;
    this.ended = false;
    this.finishReason = undefined;
    this.blocked = false;
    this.callCount = 0;
    this.open = undefined;
    this.pendingSignature = undefined;
    this.output = [];
    this.producedMedia = new Set();
  }

  transform(event: EventSourceMessage, controller: Frames): void {
    if (this.ended || event.data === "[DONE]") return;
    const fragment = parseJsonObject(event.data) as NativeFragment | undefined;
    if (!fragment) {
      this.fail(controller, "The upstream sent a malformed stream chunk (not a JSON object).", "bad_response");
      controller.terminate();
      return;
    }
    if (fragment.error) {
      const upstreamMessage =
        typeof fragment.error.message === "string" ? fragment.error.message.slice(0, 500) : "unknown error";
      const status = fragment.error.status ? ` (${fragment.error.status})` : "";
      this.fail(controller, `The upstream failed mid-stream${status}: ${upstreamMessage}`);
      controller.terminate();
      return;
    }
    if (this.ids === undefined) this.start(controller, fragment);
    if (fragment.usageMetadata) this.lastUsageMetadata = fragment.usageMetadata;

    const candidate = fragment.candidates?.find((entry, position) => (entry.index ?? position) === 0);
    if (candidate === undefined) {
      if (fragment.promptFeedback?.blockReason && !this.blocked) {
        this.blocked = true;
        this.appendText(controller, describeBlockedPrompt(fragment.promptFeedback));
      }
      return;
    }
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
    const parts = candidate.content?.parts ?? [];
    collectProducedMedia(parts, this.producedMedia);
    for (const part of parts) this.translatePart(controller, part);
  }

  flush(controller: Frames): void {
    if (this.ended) return;
    if (this.ids === undefined) {
      this.fail(controller, "The upstream stream ended without sending any answer.", "bad_response");
      return;
    }
    if (!this.blocked && this.callCount === 0 && this.finishReason === undefined) {
      // A clean end without a finish reason means the answer was cut short; passing it off as complete would hide that.
      this.fail(controller, "The upstream stream ended before the answer was finished.");
      return;
    }
    this.close(controller);
    this.reportUsage();
    const usage = convertNativeUsageToResponses(
      convertNativeUsage(this.lastUsageMetadata, { producedMedia: this.producedMedia }),
    );
    const ending = mapNativeFinishToResponsesStatus(this.finishReason, {
      hasToolCalls: this.callCount > 0,
      blocked: this.blocked,
    });
    controller.enqueue(
      frame({
        type: "response.completed",
        sequence_number: this.sequenceNumber++,
        response: this.responseObject({
          ...ending,
          completed_at: ending.status === "completed" ? this.options.now() : null,
          output: this.output,
          usage,
        }),
      }),
    );
    this.ended = true;
  }

  cancel(): void {
    this.reportUsage();
  }

  /** The `error` event for a failure, its sequence number continuing the stream's. */
  errorFrame(message: string, code = "upstream_error"): string {
    return frame({ type: "error", sequence_number: this.sequenceNumber++, code, message, param: null });
  }

  /** The first fragment: the response's ids, then `response.created` and `response.in_progress`. */
  private start(controller: Frames, fragment: NativeFragment): void {
    this.ids = createResponsesIds(fragment.responseId);
    controller.enqueue(
      frame({ type: "response.created", sequence_number: this.sequenceNumber++, response: this.inProgress() }),
    );
    controller.enqueue(
      frame({ type: "response.in_progress", sequence_number: this.sequenceNumber++, response: this.inProgress() }),
    );
  }

  /** One part of the first candidate: thoughts, text, a text signature or whole function calls. */
  private translatePart(controller: Frames, part: NativePart): void {
    const responseId = this.ids!.responseId;
    const converted = convertNativePartsToMessage([part], {
      includeThoughts: this.options.includeThoughts,
      createToolCallId: (callIndex) => createToolCallId(responseId, 0, callIndex),
      firstCallIndex: this.callCount,
    });
    if (converted.reasoning_content) {
      this.appendReasoning(controller, converted.reasoning_content);
      this.options.onText?.(converted.reasoning_content);
    }
    if (converted.content) {
      this.appendText(controller, converted.content);
      this.options.onText?.(converted.content);
    }
    if (converted.textThoughtSignature !== null) {
      // Kept until the message it signs is finished (often the signature comes on an empty last part); with
      // no message open it signs nothing still streaming, so its item goes out now.
      if (this.open?.kind === "message") this.pendingSignature = converted.textThoughtSignature;
      else this.emitSignatureItem(controller, converted.textThoughtSignature);
    }
    for (const call of converted.tool_calls) this.emitFunctionCall(controller, call);
  }

  private appendReasoning(controller: Frames, text: string): void {
    const current = this.openItem(controller, "reasoning");
    if (current.kind !== "reasoning") return;
    current.item.summary[0]!.text += text;
    controller.enqueue(
      frame({
        type: "response.reasoning_summary_text.delta",
        sequence_number: this.sequenceNumber++,
        item_id: current.item.id,
        output_index: current.outputIndex,
        summary_index: 0,
        delta: text,
      }),
    );
  }

  private appendText(controller: Frames, text: string): void {
    const current = this.openItem(controller, "message");
    if (current.kind !== "message") return;
    current.item.content[0]!.text += text;
    controller.enqueue(
      frame({
        type: "response.output_text.delta",
        sequence_number: this.sequenceNumber++,
        item_id: current.item.id,
        output_index: current.outputIndex,
        content_index: 0,
        delta: text,
      }),
    );
  }

  /** A function call, whole: the native API sends each call complete, so it is added, streamed and done at once. */
  private emitFunctionCall(controller: Frames, call: ConvertedCall): void {
    this.close(controller);
    const outputIndex = this.output.length;
    const item = {
      id: this.ids!.itemId("fc", outputIndex),
      type: "function_call" as const,
      status: "in_progress" as const,
      call_id: call.id,
      name: call.function.name,
      arguments: "",
    };
    const common = { item_id: item.id, output_index: outputIndex };
    controller.enqueue(
      frame({
        type: "response.output_item.added",
        sequence_number: this.sequenceNumber++,
        output_index: outputIndex,
        item: { ...item },
      }),
    );
    controller.enqueue(
      frame({
        type: "response.function_call_arguments.delta",
        sequence_number: this.sequenceNumber++,
        ...common,
        delta: call.function.arguments,
      }),
    );
    controller.enqueue(
      frame({
        type: "response.function_call_arguments.done",
        sequence_number: this.sequenceNumber++,
        ...common,
        arguments: call.function.arguments,
      }),
    );
    const done = { ...item, status: "completed" as const, arguments: call.function.arguments };
    this.output.push(done);
    controller.enqueue(
      frame({
        type: "response.output_item.done",
        sequence_number: this.sequenceNumber++,
        output_index: outputIndex,
        item: done,
      }),
    );
    this.callCount += 1;
  }

  /** The open item of this kind, or a new one after closing the open item of the other kind. */
  private openItem(controller: Frames, kind: OpenItem["kind"]): OpenItem {
    if (this.open?.kind === kind) return this.open;
    this.close(controller);
    const outputIndex = this.output.length;
    if (kind === "message") {
      const item: ResponseOutputMessage = {
        id: this.ids!.itemId("msg", outputIndex),
        type: "message",
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      this.output.push(item);
      controller.enqueue(
        frame({
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { ...item, content: [] },
        }),
      );
      const part = { type: "output_text" as const, text: "", annotations: [], logprobs: [] };
      item.content.push(part);
      controller.enqueue(
        frame({
          type: "response.content_part.added",
          sequence_number: this.sequenceNumber++,
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          part: { ...part },
        }),
      );
      this.open = { kind, outputIndex, item };
    } else {
      const item: ResponseOutputReasoning = {
        id: this.ids!.itemId("rs", outputIndex),
        type: "reasoning",
        summary: [],
        status: "in_progress",
      };
      this.output.push(item);
      controller.enqueue(
        frame({
          type: "response.output_item.added",
          sequence_number: this.sequenceNumber++,
          output_index: outputIndex,
          item: { ...item, summary: [] },
        }),
      );
      // One summary part per reasoning item: the thoughts of one stretch of thinking, streamed as they come.
      const part = { type: "summary_text" as const, text: "" };
      item.summary.push(part);
      controller.enqueue(
        frame({
          type: "response.reasoning_summary_part.added",
          sequence_number: this.sequenceNumber++,
          item_id: item.id,
          output_index: outputIndex,
          summary_index: 0,
          part: { ...part },
        }),
      );
      this.open = { kind, outputIndex, item };
    }
    return this.open;
  }

  /** Finishes the open item, then sends the reasoning item of a signature its message was holding. */
  private close(controller: Frames): void {
    const open = this.open;
    if (open === undefined) return;
    const { outputIndex } = open;
    if (open.kind === "message") {
      const item = open.item;
      item.status = "completed";
      const part = item.content[0]!;
      const common = { item_id: item.id, output_index: outputIndex, content_index: 0 };
      controller.enqueue(
        frame({
          type: "response.output_text.done",
          sequence_number: this.sequenceNumber++,
          ...common,
          text: part.text,
        }),
      );
      controller.enqueue(
        frame({ type: "response.content_part.done", sequence_number: this.sequenceNumber++, ...common, part }),
      );
    } else {
      const item = open.item;
      item.status = "completed";
      const part = item.summary[0]!;
      const common = { item_id: item.id, output_index: outputIndex, summary_index: 0 };
      controller.enqueue(
        frame({
          type: "response.reasoning_summary_text.done",
          sequence_number: this.sequenceNumber++,
          ...common,
          text: part.text,
        }),
      );
      controller.enqueue(
        frame({
          type: "response.reasoning_summary_part.done",
          sequence_number: this.sequenceNumber++,
          ...common,
          part,
        }),
      );
    }
    this.open = undefined;
    controller.enqueue(
      frame({
        type: "response.output_item.done",
        sequence_number: this.sequenceNumber++,
        output_index: outputIndex,
        item: open.item,
      }),
    );
    if (open.kind === "message" && this.pendingSignature !== undefined) {
      const signature = this.pendingSignature;
      this.pendingSignature = undefined;
      this.emitSignatureItem(controller, signature);
    }
  }

  /** The reasoning item of a text signature, whole: added and done at once, as it has nothing to stream. */
  private emitSignatureItem(controller: Frames, signature: string): void {
    const outputIndex = this.output.length;
    const item = createSignatureReasoningItem(this.ids!.itemId("rs", outputIndex), signature);
    this.output.push(item);
    controller.enqueue(
      frame({
        type: "response.output_item.added",
        sequence_number: this.sequenceNumber++,
        output_index: outputIndex,
        item: { ...item, status: "in_progress" },
      }),
    );
    controller.enqueue(
      frame({
        type: "response.output_item.done",
        sequence_number: this.sequenceNumber++,
        output_index: outputIndex,
        item,
      }),
    );
  }

  private fail(controller: Frames, message: string, code?: string): void {
    this.ended = true;
    this.reportUsage();
    controller.enqueue(this.errorFrame(message, code));
  }

  private reportUsage(): void {
    if (this.usageReported) return;
    this.usageReported = true;
    this.options.onUsage(
      convertNativeUsage(this.lastUsageMetadata, { producedMedia: this.producedMedia }).meteredUsage,
    );
  }

  private inProgress(): ResponseObject {
    return this.responseObject({
      status: "in_progress",
      incomplete_details: null,
      completed_at: null,
      output: [],
      usage: null,
    });
  }

  /** A snapshot of the response: in progress (no output, no usage yet) until the last event. */
  private responseObject(
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
}

function frame(event: ResponseStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
