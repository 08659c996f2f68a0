import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { convertOpenaiChatUsage } from "../../../http/convert-openai-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";

export interface OpenaiChatStreamOptions {
  /** The model name the client asked for; upstream chunks carry the mapped name. */
  clientModel: string;
  clientWantsUsage: boolean;
  thinkingToContent: boolean;
  /** The dialect's cleaning of a chunk (OpenaiDialect.cleanAnswer); false drops the chunk. */
  cleanChunk?(chunk: Record<string, unknown>): boolean;
  onUsage(usage: MeteredUsage): void;
  /** Called per content/reasoning delta with its text, so a stream cut short still has something to bill. */
  onText(text: string): void;
}

interface ChatChunk {
  model?: string;
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null };
    finish_reason?: string | null;
  }>;
  usage?: Parameters<typeof convertOpenaiChatUsage>[0] | null;
  /** OpenAI reports a failure after the stream started as a chunk holding only an error object. */
  error?: { message?: string } | null;
}

const errorFrame = (message: string, code: string) =>
  `data: ${JSON.stringify({ error: { message, type: "upstream_error", code } })}\n\n`;

/**
 * Upstream chat SSE events → client SSE frames. Each chunk is parsed once: to read usage, to put the client's
 * model name back, to hide the usage chunk from a client that did not ask for it, and (svc_thinking_to_content)
 * to move reasoning text into content. A chunk that is not JSON becomes an error frame, not an exception. An upstream
 * error object ends the stream with our error frame; a stream that stops with neither a finish reason nor `[DONE]`
 * was cut short and says so, rather than passing for a complete answer.
 */
export function createOpenaiChatStreamTransform(options: OpenaiChatStreamOptions): StreamEventTransformer {
  let thinkingOpen = false;
  let ended = false;
  let finished = false;
  return {
    transform(event, controller) {
      if (ended) return;
      if (event.data === "[DONE]") {
        finished = true;
        return;
      }
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(event.data) as ChatChunk;
      } catch {
        controller.enqueue(errorFrame("The upstream sent a malformed stream chunk.", "bad_response"));
        return;
      }
      if (chunk.error) {
        ended = true;
        const detail = typeof chunk.error.message === "string" ? `: ${chunk.error.message}` : ".";
        controller.enqueue(errorFrame(`The upstream failed mid-stream${detail}`, "upstream_error"));
        return;
      }
      if (options.cleanChunk && !options.cleanChunk(chunk as Record<string, unknown>)) return;
      if (chunk.usage) options.onUsage(convertOpenaiChatUsage(chunk.usage));
      const isUsageOnly = (chunk.choices?.length ?? 0) === 0 && chunk.usage;
      if (isUsageOnly && !options.clientWantsUsage) return;
      if (!options.clientWantsUsage && "usage" in chunk) delete chunk.usage;
      if (chunk.model !== undefined) chunk.model = options.clientModel;
      for (const choice of chunk.choices ?? []) {
        if (choice.finish_reason) finished = true;
        const delta = choice.delta;
        if (!delta) continue;
        if (delta.content) options.onText(delta.content);
        if (delta.reasoning_content) options.onText(delta.reasoning_content);
        if (options.thinkingToContent) {
          let content = "";
          if (delta.reasoning_content) {
            content += thinkingOpen ? delta.reasoning_content : `<think>\n${delta.reasoning_content}`;
            thinkingOpen = true;
          }
          // Empty or null reasoning fields leave too: under this option the client sees content only.
          delete delta.reasoning_content;
          if (delta.content) {
            content += thinkingOpen ? `\n</think>\n\n${delta.content}` : delta.content;
            thinkingOpen = false;
          }
          if (content) delta.content = content;
        }
      }
      controller.enqueue(`data: ${JSON.stringify(chunk)}\n\n`);
    },
    flush(controller) {
      if (!ended && !finished)
        controller.enqueue(errorFrame("The upstream stream ended before the answer was finished.", "upstream_error"));
      controller.enqueue("data: [DONE]\n\n");
    },
  };
}
