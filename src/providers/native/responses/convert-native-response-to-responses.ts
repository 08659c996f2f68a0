import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
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
type ResponseObject = OpenaiComponents["schemas"]["ResponseObject"];
type ResponseOutputItem = OpenaiComponents["schemas"]["ResponseOutputItem"];
type ResponseOutputMessage = OpenaiComponents["schemas"]["ResponseOutputMessage"];
type ResponseOutputReasoning = OpenaiComponents["schemas"]["ResponseOutputReasoning"];

export interface NativeToResponsesOptions {
  /** The model name the client asked for. */
  model: string;
  includeThoughts: boolean;
  /** Unix seconds. */
  created: number;
  /** The request's settings, restated in the response. */
  settings: ResponseSettings;
}

/**
 * A non-streaming native answer as a Responses object, plus the usage billing meters. The first candidate's parts
 * become output items in their order: thoughts (when included) a `reasoning` item, answer text (code and media as
 * chat renders them) a `message` item with one `output_text` part, each functionCall a `function_call` item whose
 * call_id carries the part's thought signature; a signature on answer text becomes a reasoning item with an empty
 * summary and the signature in `encrypted_content`, right after the message. A blocked prompt is an `incomplete`
 * response whose message says why.
 */
export function convertNativeResponseToResponses(
  response: GenerateContentResponse,
  options: NativeToResponsesOptions,
): { response: ResponseObject; usage: MeteredUsage } {
  const ids = createResponsesIds(response.responseId);
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts;
  const output: ResponseOutputItem[] = [];
  let reasoning: ResponseOutputReasoning | undefined;
  let message: ResponseOutputMessage | undefined;
  let callCount = 0;
  // A text signature waits for the end of the text it signs (a function call or the end of the answer), then its
  // reasoning item follows the message, where the stream puts it too.
  let messageOpen = false;
  let pendingSignature: string | undefined;
  const pushSignature = (signature: string) => {
    output.push(createSignatureReasoningItem(ids.itemId("rs", output.length), signature));
  };

  for (const part of parts ?? []) {
    const converted = convertNativePartsToMessage([part], {
      includeThoughts: options.includeThoughts,
      createToolCallId: (callIndex) => createToolCallId(ids.responseId, 0, callIndex),
      firstCallIndex: callCount,
    });
    if (converted.reasoning_content) {
      if (reasoning === undefined) {
        reasoning = {
          id: ids.itemId("rs", output.length),
          type: "reasoning",
          summary: [{ type: "summary_text", text: "" }],
          status: "completed",
        };
        output.push(reasoning);
      }
      reasoning.summary[0]!.text += converted.reasoning_content;
    }
    // Generation-3 answers may end with an empty text part that only carries a signature: no item for it.
    if (converted.content) {
      if (message === undefined) {
        message = {
          id: ids.itemId("msg", output.length),
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "", annotations: [], logprobs: [] }],
        };
        output.push(message);
      }
      message.content[0]!.text += converted.content;
      messageOpen = true;
    }
    if (converted.textThoughtSignature !== null) {
      if (messageOpen) pendingSignature = converted.textThoughtSignature;
      else pushSignature(converted.textThoughtSignature);
    }
    for (const call of converted.tool_calls) {
      if (pendingSignature !== undefined) pushSignature(pendingSignature);
      pendingSignature = undefined;
      messageOpen = false;
      output.push({
        id: ids.itemId("fc", output.length),
        type: "function_call",
        status: "completed",
        call_id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      });
      callCount += 1;
    }
  }

  if (pendingSignature !== undefined) pushSignature(pendingSignature);
  const blocked = candidate === undefined;
  if (blocked) {
    output.push({
      id: ids.itemId("msg", 0),
      type: "message",
      status: "completed",
      role: "assistant",
      content: [
        { type: "output_text", text: describeBlockedPrompt(response.promptFeedback), annotations: [], logprobs: [] },
      ],
    });
  }
  const producedMedia = collectProducedMedia(parts, new Set<ProducedMedia>());
  const converted = convertNativeUsage(response.usageMetadata, { producedMedia });
  const ending = mapNativeFinishToResponsesStatus(candidate?.finishReason, { hasToolCalls: callCount > 0, blocked });
  return {
    response: {
      id: ids.responseId,
      object: "response",
      created_at: options.created,
      ...ending,
      completed_at: ending.status === "completed" ? options.created : null,
      model: options.model,
      output,
      ...options.settings,
      usage: convertNativeUsageToResponses(converted),
    },
    usage: converted.meteredUsage,
  };
}
