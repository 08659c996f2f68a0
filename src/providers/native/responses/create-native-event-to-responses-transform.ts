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
  let sequenceNumber = 0;
  let ids: ReturnType<typeof createResponsesIds> | undefined;
  let lastUsageMetadata: UsageMetadata | undefined;
  let usageReported = false;
  let ended = false;
  let finishReason: string | undefined;
  let blocked = false;
  let callCount = 0;
  let open: OpenItem | undefined;
  /** A signature on the open message's text: its reasoning item follows the message when the message closes. */
  let pendingSignature: string | undefined;
  const output: ResponseOutputItem[] = [];
  const producedMedia = new Set<ProducedMedia>();

  const reportUsage = () => {
    if (usageReported) return;
    usageReported = true;
    options.onUsage(convertNativeUsage(lastUsageMetadata, { producedMedia }).meteredUsage);
  };
  const frame = (event: ResponseStreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  const errorFrame = (message: string, code = "upstream_error") =>
    frame({ type: "error", sequence_number: sequenceNumber++, code, message, param: null });
  /** A snapshot of the response: in progress (no output, no usage yet) until the last event. */
  const responseObject = (
    fields: Pick<ResponseObject, "status" | "incomplete_details" | "output" | "usage"> & {
      completed_at: number | null;
    },
  ): ResponseObject => ({
    id: ids!.responseId,
    object: "response",
    created_at: options.created,
    status: fields.status,
    completed_at: fields.completed_at,
    incomplete_details: fields.incomplete_details,
    model: options.model,
    output: fields.output,
    ...options.settings,
    usage: fields.usage,
  });
  const inProgress = () =>
    responseObject({ status: "in_progress", incomplete_details: null, completed_at: null, output: [], usage: null });
  const fail = (controller: TransformStreamDefaultController<string>, message: string, code?: string) => {
    ended = true;
    reportUsage();
    controller.enqueue(errorFrame(message, code));
  };

  const close = (controller: TransformStreamDefaultController<string>) => {
    if (open === undefined) return;
    const { outputIndex } = open;
    if (open.kind === "message") {
      const item = open.item;
      item.status = "completed";
      const part = item.content[0]!;
      const common = { item_id: item.id, output_index: outputIndex, content_index: 0 };
      controller.enqueue(
        frame({ type: "response.output_text.done", sequence_number: sequenceNumber++, ...common, text: part.text }),
      );
      controller.enqueue(
        frame({ type: "response.content_part.done", sequence_number: sequenceNumber++, ...common, part }),
      );
    } else {
      const item = open.item;
      item.status = "completed";
      const part = item.summary[0]!;
      const common = { item_id: item.id, output_index: outputIndex, summary_index: 0 };
      controller.enqueue(
        frame({
          type: "response.reasoning_summary_text.done",
          sequence_number: sequenceNumber++,
          ...common,
          text: part.text,
        }),
      );
      controller.enqueue(
        frame({ type: "response.reasoning_summary_part.done", sequence_number: sequenceNumber++, ...common, part }),
      );
    }
    const closed = open;
    open = undefined;
    controller.enqueue(
      frame({
        type: "response.output_item.done",
        sequence_number: sequenceNumber++,
        output_index: outputIndex,
        item: closed.item,
      }),
    );
    if (closed.kind === "message" && pendingSignature !== undefined) {
      const signature = pendingSignature;
      pendingSignature = undefined;
      emitSignatureItem(controller, signature);
    }
  };
  /** The reasoning item of a text signature, whole: added and done at once, as it has nothing to stream. */
  const emitSignatureItem = (controller: TransformStreamDefaultController<string>, signature: string) => {
    const outputIndex = output.length;
    const item = createSignatureReasoningItem(ids!.itemId("rs", outputIndex), signature);
    output.push(item);
    controller.enqueue(
      frame({
        type: "response.output_item.added",
        sequence_number: sequenceNumber++,
        output_index: outputIndex,
        item: { ...item, status: "in_progress" },
      }),
    );
    controller.enqueue(
      frame({ type: "response.output_item.done", sequence_number: sequenceNumber++, output_index: outputIndex, item }),
    );
  };
  const openItem = (controller: TransformStreamDefaultController<string>, kind: OpenItem["kind"]): OpenItem => {
    if (open?.kind === kind) return open;
    close(controller);
    const outputIndex = output.length;
    if (kind === "message") {
      const item: ResponseOutputMessage = {
        id: ids!.itemId("msg", outputIndex),
        type: "message",
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      output.push(item);
      controller.enqueue(
        frame({
          type: "response.output_item.added",
          sequence_number: sequenceNumber++,
          output_index: outputIndex,
          item: { ...item, content: [] },
        }),
      );
      const part = { type: "output_text" as const, text: "", annotations: [], logprobs: [] };
      item.content.push(part);
      controller.enqueue(
        frame({
          type: "response.content_part.added",
          sequence_number: sequenceNumber++,
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          part: { ...part },
        }),
      );
      open = { kind, outputIndex, item };
    } else {
      const item: ResponseOutputReasoning = {
        id: ids!.itemId("rs", outputIndex),
        type: "reasoning",
        summary: [],
        status: "in_progress",
      };
      output.push(item);
      controller.enqueue(
        frame({
          type: "response.output_item.added",
          sequence_number: sequenceNumber++,
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
          sequence_number: sequenceNumber++,
          item_id: item.id,
          output_index: outputIndex,
          summary_index: 0,
          part: { ...part },
        }),
      );
      open = { kind, outputIndex, item };
    }
    return open;
  };
  const appendReasoning = (controller: TransformStreamDefaultController<string>, text: string) => {
    const current = openItem(controller, "reasoning");
    if (current.kind !== "reasoning") return;
    current.item.summary[0]!.text += text;
    controller.enqueue(
      frame({
        type: "response.reasoning_summary_text.delta",
        sequence_number: sequenceNumber++,
        item_id: current.item.id,
        output_index: current.outputIndex,
        summary_index: 0,
        delta: text,
      }),
    );
  };
  const appendText = (controller: TransformStreamDefaultController<string>, text: string) => {
    const current = openItem(controller, "message");
    if (current.kind !== "message") return;
    current.item.content[0]!.text += text;
    controller.enqueue(
      frame({
        type: "response.output_text.delta",
        sequence_number: sequenceNumber++,
        item_id: current.item.id,
        output_index: current.outputIndex,
        content_index: 0,
        delta: text,
      }),
    );
  };

  const transformer: StreamEventTransformer = {
    transform(event, controller) {
      if (ended || event.data === "[DONE]") return;
      const fragment = parseJsonObject(event.data) as
        | (GenerateContentResponse & Partial<NativeErrorResponse>)
        | undefined;
      if (!fragment) {
        fail(controller, "The upstream sent a malformed stream chunk (not a JSON object).", "bad_response");
        controller.terminate();
        return;
      }
      if (fragment.error) {
        const upstreamMessage =
          typeof fragment.error.message === "string" ? fragment.error.message.slice(0, 500) : "unknown error";
        const status = fragment.error.status ? ` (${fragment.error.status})` : "";
        fail(controller, `The upstream failed mid-stream${status}: ${upstreamMessage}`);
        controller.terminate();
        return;
      }
      if (ids === undefined) {
        ids = createResponsesIds(fragment.responseId);
        controller.enqueue(
          frame({ type: "response.created", sequence_number: sequenceNumber++, response: inProgress() }),
        );
        controller.enqueue(
          frame({ type: "response.in_progress", sequence_number: sequenceNumber++, response: inProgress() }),
        );
      }
      if (fragment.usageMetadata) lastUsageMetadata = fragment.usageMetadata;

      const candidate = fragment.candidates?.find((entry, position) => (entry.index ?? position) === 0);
      if (candidate === undefined) {
        if (fragment.promptFeedback?.blockReason && !blocked) {
          blocked = true;
          appendText(controller, describeBlockedPrompt(fragment.promptFeedback));
        }
        return;
      }
      if (candidate.finishReason) finishReason = candidate.finishReason;
      const parts = candidate.content?.parts ?? [];
      collectProducedMedia(parts, producedMedia);
      for (const part of parts) {
        const converted = convertNativePartsToMessage([part], {
          includeThoughts: options.includeThoughts,
          createToolCallId: (callIndex) => createToolCallId(ids!.responseId, 0, callIndex),
          firstCallIndex: callCount,
        });
        if (converted.reasoning_content) {
          appendReasoning(controller, converted.reasoning_content);
          options.onText?.(converted.reasoning_content);
        }
        if (converted.content) {
          appendText(controller, converted.content);
          options.onText?.(converted.content);
        }
        if (converted.textThoughtSignature !== null) {
          // Kept until the message it signs is finished (often the signature comes on an empty last part); with
          // no message open it signs nothing still streaming, so its item goes out now.
          if (open?.kind === "message") pendingSignature = converted.textThoughtSignature;
          else emitSignatureItem(controller, converted.textThoughtSignature);
        }
        for (const call of converted.tool_calls) {
          close(controller);
          const outputIndex = output.length;
          const item = {
            id: ids.itemId("fc", outputIndex),
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
              sequence_number: sequenceNumber++,
              output_index: outputIndex,
              item: { ...item },
            }),
          );
          controller.enqueue(
            frame({
              type: "response.function_call_arguments.delta",
              sequence_number: sequenceNumber++,
              ...common,
              delta: call.function.arguments,
            }),
          );
          controller.enqueue(
            frame({
              type: "response.function_call_arguments.done",
              sequence_number: sequenceNumber++,
              ...common,
              arguments: call.function.arguments,
            }),
          );
          const done = { ...item, status: "completed" as const, arguments: call.function.arguments };
          output.push(done);
          controller.enqueue(
            frame({
              type: "response.output_item.done",
              sequence_number: sequenceNumber++,
              output_index: outputIndex,
              item: done,
            }),
          );
          callCount += 1;
        }
      }
    },

    flush(controller) {
      if (ended) return;
      if (ids === undefined) {
        fail(controller, "The upstream stream ended without sending any answer.", "bad_response");
        return;
      }
      if (!blocked && callCount === 0 && finishReason === undefined) {
        // A clean end without a finish reason means the answer was cut short; passing it off as complete would hide that.
        fail(controller, "The upstream stream ended before the answer was finished.");
        return;
      }
      close(controller);
      reportUsage();
      const usage = convertNativeUsageToResponses(convertNativeUsage(lastUsageMetadata, { producedMedia }));
      const ending = mapNativeFinishToResponsesStatus(finishReason, { hasToolCalls: callCount > 0, blocked });
      controller.enqueue(
        frame({
          type: "response.completed",
          sequence_number: sequenceNumber++,
          response: responseObject({
            ...ending,
            completed_at: ending.status === "completed" ? options.now() : null,
            output,
            usage,
          }),
        }),
      );
      ended = true;
    },

    cancel() {
      reportUsage();
    },
  };
  return { transformer, errorFrame: (message) => errorFrame(message) };
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
