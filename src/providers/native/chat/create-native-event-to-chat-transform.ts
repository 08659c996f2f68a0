import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { collectProducedMedia, type ProducedMedia } from "../shared/collect-produced-media.js";
import { convertNativePartsToMessage } from "./convert-native-parts-to-message.js";
import { convertNativeLogprobs } from "./convert-native-logprobs.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";
import { createChatCompletionId } from "../../../http/create-chat-completion-id.js";
import { createThoughtSignatureExtraContent } from "../../shared-translations/thought-signatures.js";
import { createToolCallId } from "../shared/create-tool-call-id.js";
import { describeBlockedPrompt } from "../shared/describe-blocked-prompt.js";
import { mapNativeFinishReason } from "./map-native-finish-reason.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type UsageMetadata = NativeComponents["schemas"]["UsageMetadata"];
type NativeErrorResponse = NativeComponents["schemas"]["ErrorResponse"];
type ChatCompletionChunk = OpenaiComponents["schemas"]["ChatCompletionChunk"];
type ChatCompletionChunkChoice = OpenaiComponents["schemas"]["ChatCompletionChunkChoice"];
type ChatCompletionStreamDelta = OpenaiComponents["schemas"]["ChatCompletionStreamDelta"];
type ErrorResponse = OpenaiComponents["schemas"]["ErrorResponse"];

export interface NativeToChatStreamOptions {
  /** The model name the client asked for. */
  model: string;
  includeThoughts: boolean;
  /** stream_options.include_usage: send the usage chunk (choices []) before [DONE]. */
  includeUsage: boolean;
  /** Unix seconds, the same in every chunk. */
  created: number;
  /**
   * Called exactly once with the last usage the upstream reported (zeros when it reported none): when the stream
   * ends, fails, or is cancelled by either side. The relay bills from it whether or not the client asked for usage.
   */
  onUsage(usage: MeteredUsage): void;
  /** Called with each piece of answer or thinking text, so a stream cut short still has something to estimate from. */
  onText?(text: string): void;
}

interface ChoiceState {
  roleSent: boolean;
  callCount: number;
  finishReason: string | undefined;
  blocked: boolean;
}

/**
 * Native stream events (each `data:` a GenerateContentResponse fragment) → OpenAI chat.completion.chunk SSE frames.
 * Content, thinking and tool calls are sent as they arrive; the finish chunk waits for the end of the stream because
 * a function call anywhere turns the finish reason into tool_calls. Then the usage chunk when asked, then [DONE].
 * A fragment that is not JSON, or an upstream error object, ends the stream with one error frame and [DONE].
 */
export function createNativeEventToChatTransform(options: NativeToChatStreamOptions): StreamEventTransformer {
  let id: string | undefined;
  let lastUsageMetadata: UsageMetadata | undefined;
  let usageReported = false;
  let ended = false;
  const producedMedia = new Set<ProducedMedia>();
  const choices = new Map<number, ChoiceState>();

  const reportUsage = () => {
    if (usageReported) return;
    usageReported = true;
    options.onUsage(convertNativeUsage(lastUsageMetadata, { producedMedia }).meteredUsage);
  };
  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const chunk = (chunkChoices: ChatCompletionChunkChoice[]): string => {
    const body: ChatCompletionChunk = {
      id: id!,
      object: "chat.completion.chunk",
      created: options.created,
      model: options.model,
      choices: chunkChoices,
    };
    if (options.includeUsage) body.usage = null;
    return frame(body);
  };
  const stateOf = (index: number): ChoiceState => {
    let state = choices.get(index);
    if (!state) {
      state = { roleSent: false, callCount: 0, finishReason: undefined, blocked: false };
      choices.set(index, state);
    }
    return state;
  };
  const withRole = (state: ChoiceState, delta: ChatCompletionStreamDelta): ChatCompletionStreamDelta => {
    if (state.roleSent) return delta;
    state.roleSent = true;
    return { role: "assistant", ...delta };
  };
  const fail = (controller: TransformStreamDefaultController<string>, error: ErrorResponse["error"]) => {
    ended = true;
    reportUsage();
    controller.enqueue(frame({ error } satisfies ErrorResponse));
    controller.enqueue("data: [DONE]\n\n");
  };

  const transformer: StreamEventTransformer = {
    transform(event, controller) {
      if (ended || event.data === "[DONE]") return;
      const fragment = parseJsonObject(event.data) as
        | (GenerateContentResponse & Partial<NativeErrorResponse>)
        | undefined;
      if (!fragment) {
        fail(controller, {
          message: "The upstream sent a malformed stream chunk (not a JSON object).",
          type: "upstream_error",
          code: "bad_response",
        });
        // Stop reading the upstream: nothing after a broken fragment can be trusted.
        controller.terminate();
        return;
      }
      if (fragment.error) {
        const upstreamMessage =
          typeof fragment.error.message === "string" ? fragment.error.message.slice(0, 500) : "unknown error";
        const status = fragment.error.status ? ` (${fragment.error.status})` : "";
        fail(controller, {
          message: `The upstream failed mid-stream${status}: ${upstreamMessage}`,
          type: "upstream_error",
          code: "upstream_error",
        });
        controller.terminate();
        return;
      }

      id ??= fragment.responseId || createChatCompletionId();
      if (fragment.usageMetadata) lastUsageMetadata = fragment.usageMetadata;

      const candidates = fragment.candidates ?? [];
      if (candidates.length === 0 && fragment.promptFeedback?.blockReason) {
        const state = stateOf(0);
        state.blocked = true;
        controller.enqueue(
          chunk([
            {
              index: 0,
              delta: withRole(state, { content: describeBlockedPrompt(fragment.promptFeedback) }),
              finish_reason: null,
            },
          ]),
        );
        return;
      }
      for (const [position, candidate] of candidates.entries()) {
        const index = candidate.index ?? position;
        const state = stateOf(index);
        const completionId = id;
        const parts = candidate.content?.parts;
        collectProducedMedia(parts, producedMedia);
        const converted = convertNativePartsToMessage(parts, {
          includeThoughts: options.includeThoughts,
          createToolCallId: (callIndex) => createToolCallId(completionId, index, callIndex),
          firstCallIndex: state.callCount,
        });
        if (candidate.finishReason) state.finishReason = candidate.finishReason;

        const delta: ChatCompletionStreamDelta = {};
        if (converted.reasoning_content !== null) delta.reasoning_content = converted.reasoning_content;
        if (converted.content !== null) delta.content = converted.content;
        // Sent on the delta where it arrived (often an empty text part of the last fragment), as Google's
        // compatibility layer does; SDK stream helpers copy it onto the accumulated message.
        if (converted.textThoughtSignature !== null)
          delta.extra_content = createThoughtSignatureExtraContent(converted.textThoughtSignature);
        if (converted.tool_calls.length > 0) {
          // The native API sends each call whole, so its first (and only) delta carries the complete arguments.
          delta.tool_calls = converted.tool_calls.map((call, offset) => ({ index: state.callCount + offset, ...call }));
          state.callCount += converted.tool_calls.length;
        }
        if (Object.keys(delta).length === 0) continue;
        if (converted.reasoning_content) options.onText?.(converted.reasoning_content);
        if (converted.content) options.onText?.(converted.content);
        const chunkChoice: ChatCompletionChunkChoice = { index, delta: withRole(state, delta), finish_reason: null };
        // Each fragment's logprobsResult covers the tokens of that fragment, so it rides on the same chunk.
        const logprobs = convertNativeLogprobs(candidate.logprobsResult);
        if (logprobs !== undefined) chunkChoice.logprobs = logprobs;
        controller.enqueue(chunk([chunkChoice]));
      }
    },

    flush(controller) {
      if (ended) return;
      if (id === undefined || choices.size === 0) {
        fail(controller, {
          message: "The upstream stream ended without sending any answer.",
          type: "upstream_error",
          code: "bad_response",
        });
        return;
      }
      const finished = [...choices.entries()].sort(([left], [right]) => left - right);
      if (finished.some(([, state]) => !state.blocked && state.callCount === 0 && state.finishReason === undefined)) {
        // A clean end without a finish reason means the answer was cut short; passing it off as complete would hide that.
        fail(controller, {
          message: "The upstream stream ended before the answer was finished.",
          type: "upstream_error",
          code: "upstream_error",
        });
        return;
      }
      for (const [index, state] of finished) {
        const finishReason = state.blocked
          ? "content_filter"
          : mapNativeFinishReason(state.finishReason, { hasToolCalls: state.callCount > 0 });
        controller.enqueue(chunk([{ index, delta: withRole(state, {}), finish_reason: finishReason }]));
      }
      reportUsage();
      if (options.includeUsage) {
        const { usage } = convertNativeUsage(lastUsageMetadata, { producedMedia });
        controller.enqueue(
          frame({
            id,
            object: "chat.completion.chunk",
            created: options.created,
            model: options.model,
            choices: [],
            usage,
          } satisfies ChatCompletionChunk),
        );
      }
      controller.enqueue("data: [DONE]\n\n");
    },

    cancel() {
      reportUsage();
    },
  };
  return transformer;
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
