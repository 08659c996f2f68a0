import { createIdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { AnthropicRequestError } from "./anthropic-request-error.js";
import { countPromptTokens } from "./count-prompt-tokens.js";
import { planMessageReply } from "./plan-message-reply.js";
import { renderAnthropicErrorBody } from "./render-anthropic-error-body.js";
import { validateMessageRequest } from "./validate-message-request.js";
import { sendMessage, streamMessage } from "./write-message-answer.js";

export type { FakeUpstream } from "../shared/fake-upstream.js";

export interface FakeAnthropicServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** When set, every request needs `x-api-key: <apiKey>` (or it as a Bearer token), else Anthropic's 401 `authentication_error`. */
  apiKey?: string;
  now?: () => number;
}

/**
 * A fake of Anthropic's Messages API on 127.0.0.1 (README.md in this folder): messages (JSON and streamed), tool
 * use, thinking with signatures checked when they come back, prompt caching usage, count_tokens, the models list,
 * Anthropic's error envelope, and the shared fault plan (429 with retry-after, 529, a stream reset mid-way).
 */
export async function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<FakeUpstream> {
  const ids = createIdSequence();
  const cachedPrefixes = new Set<string>();
  return startFakeUpstreamServer({
    port: options.port,
    now: options.now,
    renderErrorBody: (status, message) => renderAnthropicErrorBody(status, message),
    onReset() {
      ids.reset();
      cachedPrefixes.clear();
    },
    async handle(exchange) {
      try {
        checkHeaders(exchange, options.apiKey);
        await route(exchange);
      } catch (error) {
        if (!(error instanceof AnthropicRequestError) || exchange.response.headersSent) throw error;
        await sendJson(exchange, error.status, {
          type: "error",
          error: { type: error.type, message: error.message },
          request_id: ids.next("req_fake"),
        });
      }
    },
  });

  async function route(exchange: FakeExchange): Promise<void> {
    const method = exchange.request.method ?? "GET";
    const path = exchange.url.pathname;
    if (method === "GET" && path === "/v1/models") {
      await sendJson(exchange, 200, {
        data: [
          {
            type: "model",
            id: "claude-sonnet-4-5",
            display_name: "Claude Sonnet 4.5",
            created_at: "2025-09-29T00:00:00Z",
          },
        ],
        has_more: false,
        first_id: "claude-sonnet-4-5",
        last_id: "claude-sonnet-4-5",
      });
      return;
    }
    if (method !== "POST" || (path !== "/v1/messages" && path !== "/v1/messages/count_tokens"))
      throw new AnthropicRequestError(404, `Not found: ${method} ${path}`);
    if (exchange.body.invalidJson)
      throw new AnthropicRequestError(400, "There was an issue with your request body: invalid JSON");
    const countOnly = path === "/v1/messages/count_tokens";
    const request = validateMessageRequest(exchange.body.value, { countOnly });
    if (request.model.startsWith("missing-")) throw new AnthropicRequestError(404, `model: ${request.model}`);
    const prompt = countPromptTokens(request);
    if (countOnly) {
      await sendJson(exchange, 200, { input_tokens: prompt.total });
      return;
    }
    const cacheRead = prompt.prefixKey !== undefined && cachedPrefixes.has(prompt.prefixKey);
    if (prompt.prefixKey !== undefined) cachedPrefixes.add(prompt.prefixKey);
    const plan = planMessageReply(request, prompt, cacheRead, ids);
    if (request.stream === true) await streamMessage(exchange, plan, request.model);
    else await sendMessage(exchange, plan, request.model);
  }
}

function checkHeaders(exchange: FakeExchange, apiKey: string | undefined): void {
  const headers = exchange.request.headers;
  if (apiKey !== undefined) {
    // Anthropic takes the key as x-api-key; recent official SDKs send it as a Bearer token instead.
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1];
    if ((headers["x-api-key"] ?? bearer) !== apiKey) throw new AnthropicRequestError(401, "invalid x-api-key");
  }
  if (typeof headers["anthropic-version"] !== "string")
    throw new AnthropicRequestError(400, "anthropic-version: header is required");
}
