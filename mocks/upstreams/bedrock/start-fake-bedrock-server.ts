import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { createIdSequence } from "../shared/create-id-sequence.js";
import { renderBedrockStatusError } from "./bedrock-errors.js";
import { BedrockRequestError, handleInvokeModel } from "./handle-invoke-model.js";
import { planConverseReply } from "./plan-converse-reply.js";
import { type AwsCredential, verifySigV4 } from "./verify-sigv4.js";
import { type ConverseStreamFault, writeConverseStream } from "./write-converse-stream.js";

export interface FakeBedrockServerOptions {
  /** The AWS credential whose signatures it accepts (with its session token, when given). */
  credential: AwsCredential;
  /** A Bedrock API key it accepts as `Authorization: Bearer`. */
  apiKey?: string;
  region: string;
  now?: () => number;
}

const modelPath = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

/**
 * A fake AWS Bedrock Runtime (Converse API) on 127.0.0.1. Every request's Signature Version 4 is recomputed from
 * its canonical request and refused (403) when wrong, stale or for another region; a Bedrock API key works as
 * Bearer. Converse replies follow planConverseReply; streams are binary AWS event streams (write-converse-stream.ts).
 * InvokeModel (and its stream) serves Claude, Titan and Cohere embedding bodies (handle-invoke-model.ts).
 * Markers in the prompt inject faults: `[throttle]` (429 ThrottlingException), `[bad-crc]`, `[broken-frame]`,
 * `[stream-exception]`; programmatic faults as every fake.
 */
export async function startFakeBedrockServer(options: FakeBedrockServerOptions): Promise<FakeUpstream> {
  const now = options.now ?? Date.now;
  const invokeState = { ids: createIdSequence(), cachedPrefixes: new Set<string>() };
  return startFakeUpstreamServer({
    now,
    renderErrorBody: renderBedrockStatusError,
    onReset() {
      invokeState.ids.reset();
      invokeState.cachedPrefixes.clear();
    },
    async handle(exchange) {
      const authorization = String(exchange.request.headers.authorization ?? "");
      if (authorization.startsWith("Bearer ")) {
        if (options.apiKey === undefined || authorization !== `Bearer ${options.apiKey}`)
          return sendError(exchange, 403, "AccessDeniedException", "Authentication failed: invalid API key.");
      } else {
        const problem = await verifySigV4({
          method: exchange.request.method ?? "POST",
          path: exchange.request.url ?? "/",
          headers: exchange.request.headers,
          body: exchange.body.raw,
          credential: options.credential,
          region: options.region,
          now: now(),
        });
        if (problem) return sendError(exchange, 403, problem.type, problem.message);
      }
      const match = modelPath.exec(exchange.url.pathname);
      if (!match || exchange.request.method !== "POST")
        return sendError(exchange, 404, "UnknownOperationException", "Unknown operation.");
      const modelId = decodeURIComponent(match[1]!);
      if (modelId.startsWith("missing-"))
        return sendError(exchange, 400, "ValidationException", "The provided model identifier is invalid.");
      const text = exchange.body.raw.toString("utf8");
      if (text.includes("[throttle]"))
        return sendError(exchange, 429, "ThrottlingException", "Too many requests, please wait before trying again.");
      if (match[2] === "invoke" || match[2] === "invoke-with-response-stream") {
        try {
          return await handleInvokeModel(exchange, modelId, match[2] !== "invoke", invokeState);
        } catch (error) {
          if (!(error instanceof BedrockRequestError)) throw error;
          return sendError(exchange, error.status, error.type, error.message);
        }
      }
      const reply = planConverseReply(JSON.parse(text));
      if (match[2] === "converse")
        return sendJson(exchange, 200, {
          output: { message: { role: "assistant", content: reply.blocks } },
          stopReason: reply.stopReason,
          usage: reply.usage,
          metrics: { latencyMs: 42 },
        });
      const fault: ConverseStreamFault = text.includes("[bad-crc]")
        ? "bad-crc"
        : text.includes("[broken-frame]")
          ? "broken-frame"
          : text.includes("[stream-exception]")
            ? "stream-exception"
            : undefined;
      writeConverseStream(exchange, reply, fault);
    },
  });
}

function sendError(exchange: FakeExchange, status: number, type: string, message: string): Promise<void> {
  return sendJson(
    exchange,
    status,
    { message },
    { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
  );
}
