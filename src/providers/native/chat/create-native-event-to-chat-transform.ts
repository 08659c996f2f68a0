import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
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
  return new NativeEventToChatTransform(options);
}

type Frames = TransformStreamDefaultController<string>;
type NativeFragment = GenerateContentResponse & Partial<NativeErrorResponse>;
type NativeCandidate = NonNullable<GenerateContentResponse["candidates"]>[number];

/**
 * The translator behind createNativeEventToChatTransform. Its state is set whole in the constructor, always in the
 * same order, so every stream's translator has one V8 shape and its fields stay plain data properties.
 */
export class NativeEventToChatTransform implements StreamEventTransformer {
  private readonly options: NativeToChatStreamOptions;
  /** The completion id: the upstream's response id from the first fragment, or one of ours. */
  private id: string | undefined;
  private lastUsageMetadata: UsageMetadata | undefined;
  private usageReported: boolean;
  private ended: boolean;
  private readonly producedMedia: Set<ProducedMedia>;
  private readonly choices: Map<number, ChoiceState>;

  constructor(options: NativeToChatStreamOptions) {
    this.options = options;
    this.id = undefined;
    this.lastUsageMetadata = undefined;
    this.usageReported = false;
    this.ended = false;
    this.producedMedia = new Set();
    this.choices = new Map();
  }

  transform(event: EventSourceMessage, controller: Frames): void {
    if (this.ended || event.data === "[DONE]") return;
    const fragment = parseJsonObject(event.data) as NativeFragment | undefined;
    if (!fragment) {
      this.fail(controller, {
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
      this.fail(controller, {
        message: `The upstream failed mid-stream${status}: ${upstreamMessage}`,
        type: "upstream_error",
        code: "upstream_error",
      });
      controller.terminate();
      return;
    }

    this.id ??= fragment.responseId || createChatCompletionId();
    if (fragment.usageMetadata) this.lastUsageMetadata = fragment.usageMetadata;

    const candidates = fragment.candidates ?? [];
    if (candidates.length === 0 && fragment.promptFeedback?.blockReason) {
      const state = this.stateOf(0);
      state.blocked = true;
      controller.enqueue(
        this.chunk([
          {
            index: 0,
            delta: withRole(state, { content: describeBlockedPrompt(fragment.promptFeedback) }),
            finish_reason: null,
          },
        ]),
      );
      return;
    }
    for (const [position, candidate] of candidates.entries()) this.translateCandidate(controller, candidate, position);
  }

  flush(controller: Frames): void {
    if (this.ended) return;
    if (this.id === undefined || this.choices.size === 0) {
      this.fail(controller, {
        message: "The upstream stream ended without sending any answer.",
        type: "upstream_error",
        code: "bad_response",
      });
      return;
    }
    const finished = [...this.choices.entries()].sort(([left], [right]) => left - right);
    if (finished.some(([, state]) => !state.blocked && state.callCount === 0 && state.finishReason === undefined)) {
      // A clean end without a finish reason means the answer was cut short; passing it off as complete would hide that.
      this.fail(controller, {
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
      controller.enqueue(this.chunk([{ index, delta: withRole(state, {}), finish_reason: finishReason }]));
    }
    this.reportUsage();
    if (this.options.includeUsage) {
      const { usage } = convertNativeUsage(this.lastUsageMetadata, { producedMedia: this.producedMedia });
      controller.enqueue(
        frame({
          id: this.id,
          object: "chat.completion.chunk",
          created: this.options.created,
          model: this.options.model,
          choices: [],
          usage,
        } satisfies ChatCompletionChunk),
      );
    }
    controller.enqueue("data: [DONE]\n\n");
  }

  cancel(): void {
    this.reportUsage();
  }

  /** One candidate of a fragment: its thinking, text, text signature and tool calls as one chunk of its choice. */
  private translateCandidate(controller: Frames, candidate: NativeCandidate, position: number): void {
    const index = candidate.index ?? position;
    const state = this.stateOf(index);
    const completionId = this.id!;
    const parts = candidate.content?.parts;
    collectProducedMedia(parts, this.producedMedia);
    const converted = convertNativePartsToMessage(parts, {
      includeThoughts: this.options.includeThoughts,
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
    if (Object.keys(delta).length === 0) return;
    if (converted.reasoning_content) this.options.onText?.(converted.reasoning_content);
    if (converted.content) this.options.onText?.(converted.content);
    const chunkChoice: ChatCompletionChunkChoice = { index, delta: withRole(state, delta), finish_reason: null };
    // Each fragment's logprobsResult covers the tokens of that fragment, so it rides on the same chunk.
    const logprobs = convertNativeLogprobs(candidate.logprobsResult);
    if (logprobs !== undefined) chunkChoice.logprobs = logprobs;
    controller.enqueue(this.chunk([chunkChoice]));
  }

  private stateOf(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) {
      state = { roleSent: false, callCount: 0, finishReason: undefined, blocked: false };
      this.choices.set(index, state);
    }
    return state;
  }

  private chunk(chunkChoices: ChatCompletionChunkChoice[]): string {
    const body: ChatCompletionChunk = {
      id: this.id!,
      object: "chat.completion.chunk",
      created: this.options.created,
      model: this.options.model,
      choices: chunkChoices,
    };
    if (this.options.includeUsage) body.usage = null;
    return frame(body);
  }

  private fail(controller: Frames, error: ErrorResponse["error"]): void {
    this.ended = true;
    this.reportUsage();
    controller.enqueue(frame({ error } satisfies ErrorResponse));
    controller.enqueue("data: [DONE]\n\n");
  }

  private reportUsage(): void {
    if (this.usageReported) return;
    this.usageReported = true;
    this.options.onUsage(
      convertNativeUsage(this.lastUsageMetadata, { producedMedia: this.producedMedia }).meteredUsage,
    );
  }
}

function frame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** The choice's first delta carries the assistant role. */
function withRole(state: ChoiceState, delta: ChatCompletionStreamDelta): ChatCompletionStreamDelta {
  if (state.roleSent) return delta;
  state.roleSent = true;
  return { role: "assistant", ...delta };
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
