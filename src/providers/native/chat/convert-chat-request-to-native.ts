import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { buildGenerationConfig } from "./build-generation-config.js";
import { convertChatMessagesToContents } from "./convert-chat-messages-to-contents.js";
import { convertChatTools } from "./convert-chat-tools.js";
import { convertToolChoice } from "./convert-tool-choice.js";
import { deepMergeNativePatch } from "./deep-merge-native-patch.js";
import { describeThinkingModel } from "../shared/describe-thinking-model.js";
import { parseModelSuffix } from "../../../models/parse-model-suffix.js";
import { resolveThinkingConfig } from "../shared/resolve-thinking-config.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
type GenerateContentRequest = NativeComponents["schemas"]["GenerateContentRequest"];
type SafetySetting = NativeComponents["schemas"]["SafetySetting"];

export interface ChatToNativeInput {
  request: ChatRequest;
  /** The model to call upstream as the channel names it, thinking suffix included (the client's name after mapping). */
  model: string;
  /** Platform default safety settings (config native.safety_settings); extra_body.native.safetySettings replaces them whole. */
  safetySettings: readonly SafetySetting[] | undefined;
  /** Downloads image/audio/file URLs; production passes createSafeFetcher(...), tests a fake. */
  fetchMedia: FetchMedia;
}

export interface ChatToNativeResult {
  /** Model name for the upstream path, suffix stripped. Price with the unstripped `model`. */
  upstreamModel: string;
  body: GenerateContentRequest;
  /** Whether the answer will carry thought parts, i.e. whether the response side emits reasoning_content. */
  includeThoughts: boolean;
  /** Lossy conversions and ignored fields, for the request log; never sent to the client as errors. */
  warnings: string[];
}

/**
 * Fields of the documented "ignored without error" list, with the native way to get the same effect when there is
 * one.
 */
const ignoredFields: ReadonlyArray<readonly [keyof ChatRequest & string, string]> = [
  ["logit_bias", ""],
  ["prediction", ""],
  ["user", ""],
  ["parallel_tool_calls", ""],
  ["verbosity", ""],
  ["service_tier", ""],
  ["safety_identifier", ""],
  ["store", ""],
  ["prompt_cache_key", ""],
  ["prompt_cache_retention", ""],
  ["web_search_options", " (use a tool named nativeSearch)"],
  ["functions", " (use tools)"],
  ["function_call", " (use tool_choice)"],
  // Controls of other model families; the native family has its own (reasoning_effort, suffixes, extra_body.native).
  ["thinking", ""],
  ["enable_thinking", ""],
  ["svc_thinking_to_content", ""],
  ["parameters", ""],
];

/**
 * OpenAI chat completion request → native generateContent request, for `gmx-` models. Pure apart from the media
 * downloads done through the injected fetcher. Order of work, which is also the order of precedence:
 * 1. the model-name suffix is split off (upstreamModel) and the model's thinking generation looked up;
 * 2. messages, generationConfig, tools and toolConfig are built from the OpenAI fields; default safety settings added;
 * 3. thinkingConfig is resolved (extra_body.native.thinking_config > reasoning_effort > suffix, see resolveThinkingConfig);
 * 4. the rest of extra_body.native is deep-merged over the result, unvalidated (the upstream judges it).
 * Unsupported input throws InvalidRequestError; lossy input is listed in warnings.
 */
export async function convertChatRequestToNative(input: ChatToNativeInput): Promise<ChatToNativeResult> {
  const { request } = input;
  const warnings: string[] = [];
  const { upstreamModel, suffix } = parseModelSuffix(input.model);

  for (const [field, hint] of ignoredFields) {
    if (request[field] !== undefined && request[field] !== null)
      warnings.push(`${field} has no native equivalent and was ignored${hint}.`);
  }

  const { contents, systemInstruction } = await convertChatMessagesToContents(request.messages, {
    fetchMedia: input.fetchMedia,
    warnings,
  });
  const generationConfig = buildGenerationConfig(request, warnings);

  const native = request.extra_body?.native;
  const { thinking_config: thinkingConfig, ...nativePatch } = native ?? {};
  const resolvedThinking = resolveThinkingConfig({
    model: describeThinkingModel(upstreamModel),
    modelName: input.model,
    thinkingConfig,
    reasoningEffort: request.reasoning_effort,
    suffix,
    maxOutputTokens: generationConfig.maxOutputTokens ?? undefined,
    stream: request.stream === true,
    automaticAdaptation: native === undefined,
    warnings,
  });
  if (resolvedThinking !== undefined) generationConfig.thinkingConfig = resolvedThinking;

  const tools = convertChatTools(request.tools, warnings);
  const toolConfig = convertToolChoice(request.tool_choice);

  const built: GenerateContentRequest = { contents };
  if (systemInstruction !== undefined) built.systemInstruction = systemInstruction;
  if (Object.keys(generationConfig).length > 0) built.generationConfig = generationConfig;
  if (input.safetySettings !== undefined && input.safetySettings.length > 0)
    built.safetySettings = [...input.safetySettings];
  if (tools !== undefined) built.tools = tools;
  if (toolConfig !== undefined) built.toolConfig = toolConfig;

  // The patch is unvalidated by design, so the merged body is only as typed as the client made it.
  const body = (
    native === undefined ? built : deepMergeNativePatch(built as Record<string, unknown>, nativePatch)
  ) as GenerateContentRequest;
  return {
    upstreamModel,
    body,
    includeThoughts: body.generationConfig?.thinkingConfig?.includeThoughts === true,
    warnings,
  };
}
