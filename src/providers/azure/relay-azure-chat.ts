import type { Response } from "express";
import type { components } from "../../../generated/types/openai.js";
import { createSseWriter } from "../../http/sse-writer.js";
import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { createChatCompletionId } from "../../http/create-chat-completion-id.js";
import { relayOpenaiChat } from "../openai/chat/relay-openai-chat.js";
import { azureDialect } from "./azure-dialect.js";
import { isAzurePromptFilterRefusal } from "./read-azure-content-filter-refusal.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type ChatCompletion = components["schemas"]["ChatCompletion"];

/** What the client reads when Azure's content filter refused its prompt (content, so chat clients show why). */
export const azurePromptFilteredText =
  "The upstream model refused to process the prompt: it was blocked by the provider's content filter. Rephrase the request and try again.";

/**
 * One chat attempt on an Azure OpenAI channel: the openai relay with Azure's paths and without its filter
 * annotations. A prompt the content filter refused (400 `content_filter`) is answered as a completion finished by
 * `content_filter` (JSON or a one-chunk stream), as the other providers' blocked prompts are; nothing is billed,
 * Azure bills no tokens for it either.
 */
export async function relayAzureChat(
  request: ChatRequest,
  response: Response,
  input: RelayAttemptInput,
): Promise<void> {
  try {
    await relayOpenaiChat(request, response, input, azureDialect);
  } catch (error) {
    if (!isAzurePromptFilterRefusal(error) || response.headersSent) throw error;
    input.observed.usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
    const id = createChatCompletionId();
    const created = Math.floor(Date.now() / 1000);
    if (!request.stream) {
      const completion: ChatCompletion = {
        id,
        object: "chat.completion",
        created,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: azurePromptFilteredText },
            finish_reason: "content_filter",
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
      input.deliver(completion);
      return;
    }
    const writer = createSseWriter(response);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      JSON.stringify({ id, object: "chat.completion.chunk", created, model: request.model, choices, ...extra });
    await writer.send(
      chunk([
        {
          index: 0,
          delta: { role: "assistant", content: azurePromptFilteredText },
          finish_reason: "content_filter",
        },
      ]),
    );
    if (request.stream_options?.include_usage === true)
      await writer.send(chunk([], { usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }));
    // The relay ends the response once the request is settled.
    await writer.send("[DONE]");
  }
}
