import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LeakyUpstream {
  url: string;
  /** The keys presented to it, one per request, in arrival order. */
  presentedKeys: string[];
  close(): Promise<void>;
}

/** The statuses the leaky upstream answers with, chosen by a model name ending `-<status>`. */
export const leakyStatuses = [400, 401, 403, 429, 500] as const;

const nativeStatusNames = new Map<number, string>([
  [400, "INVALID_ARGUMENT"],
  [401, "UNAUTHENTICATED"],
  [403, "PERMISSION_DENIED"],
  [429, "RESOURCE_EXHAUSTED"],
  [500, "INTERNAL"],
]);

/** Whatever credential the request carried, in every place a channel key goes upstream. */
function readPresentedKey(request: http.IncomingMessage): string {
  const authorization = request.headers.authorization;
  if (typeof authorization === "string") return authorization.replace(/^Bearer\s+/i, "");
  for (const header of ["x-api-key", "x-goog-api-key", "x-native-api-key"]) {
    const value = request.headers[header];
    if (typeof value === "string") return value;
  }
  return new URL(request.url ?? "/", "http://upstream").searchParams.get("key") ?? "";
}

/** Every way upstreams are known to quote a key back, in one error text. */
function echoKey(key: string): string {
  return `Incorrect API key provided: ${key}. API key not valid. Key given: ${key}. Authorization: Bearer ${key}; x-api-key: ${key}; url: /v1beta/models?key=${key}`;
}

function openaiErrorBody(key: string): string {
  return JSON.stringify({
    error: {
      message: echoKey(key),
      type: "invalid_request_error",
      code: "invalid_api_key",
      param: null,
      details: { api_key: key, headers: { authorization: `Bearer ${key}`, "x-api-key": key } },
    },
  });
}

function nativeErrorBody(status: number, key: string): string {
  return JSON.stringify({
    error: {
      code: status,
      message: echoKey(key),
      status: nativeStatusNames.get(status) ?? "UNKNOWN",
      details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", metadata: { key } }],
    },
  });
}

const anthropicErrorTypes = new Map<number, string>([
  [400, "invalid_request_error"],
  [401, "authentication_error"],
  [403, "permission_error"],
  [429, "rate_limit_error"],
  [500, "api_error"],
]);

/** Anthropic's envelope, the key quoted in its message and in fields of its own. */
function anthropicErrorBody(status: number, key: string): string {
  return JSON.stringify({
    type: "error",
    error: { type: anthropicErrorTypes.get(status) ?? "api_error", message: echoKey(key), api_key: key },
    request_id: `req_leaky_${key}`,
  });
}

/** A stream that starts well and then reports an error echoing the key, in the protocol the path speaks. */
function streamWithErrorEvent(path: string, key: string): string {
  if (path.startsWith("/v1/messages")) {
    const message = {
      id: "msg_leaky",
      type: "message",
      role: "assistant",
      model: "leaky",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const frame = (data: Record<string, unknown>) => `event: ${data.type as string}\ndata: ${JSON.stringify(data)}`;
    return [
      frame({ type: "message_start", message }),
      frame({ type: "ping" }),
      frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: `Hel ${key}` } }),
      `event: error\ndata: ${anthropicErrorBody(401, key)}`,
      "",
      "",
    ].join("\n\n");
  }
  if (path.includes(":streamGenerateContent")) {
    return [
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] }, index: 0 }] })}`,
      `data: ${nativeErrorBody(500, key)}`,
      "",
      "",
    ].join("\n\n");
  }
  if (path.endsWith("/responses")) {
    const created = { id: "resp_leaky", object: "response", status: "in_progress", model: "leaky", output: [] };
    return [
      `event: response.created\ndata: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: created })}`,
      `event: error\ndata: ${JSON.stringify({ type: "error", sequence_number: 1, code: "invalid_api_key", message: echoKey(key), param: null })}`,
      "",
      "",
    ].join("\n\n");
  }
  const chunk = {
    id: "chatcmpl-leaky",
    object: "chat.completion.chunk",
    created: 1,
    model: "leaky",
    choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }],
  };
  return [`data: ${JSON.stringify(chunk)}`, `data: ${openaiErrorBody(key)}`, "", ""].join("\n\n");
}

/**
 * An upstream that quotes the presented key back on every error, as some real ones do: a model name ending in
 * `-400`, `-401`, `-403`, `-429` or `-500` (in the path, the JSON body or a multipart field) gets that status with
 * the key in the body in every known shape (OpenAI's, the native API's and Anthropic's envelopes); a model ending
 * `-stream` gets a stream that starts and then carries an error event with the key (Anthropic's stream quotes it in
 * a text delta too, as a model repeating its prompt would). Nothing ever succeeds.
 */
export async function startLeakyUpstream(): Promise<LeakyUpstream> {
  const presentedKeys: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const key = readPresentedKey(request);
      presentedKeys.push(key);
      const path = new URL(request.url ?? "/", "http://upstream").pathname;
      const wanted = `${path} ${Buffer.concat(chunks).toString("latin1")}`;
      const isNative = path.startsWith("/v1beta/");
      const isAnthropic = path.startsWith("/v1/messages");
      if (/-stream\b/.test(wanted)) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(streamWithErrorEvent(path, key));
        return;
      }
      const status = Number(/-(400|401|403|429|500)\b/.exec(wanted)?.[1] ?? 500);
      response.writeHead(status, {
        "content-type": "application/json",
        ...(status === 429 ? { "retry-after": "1" } : {}),
      });
      response.end(
        isNative ? nativeErrorBody(status, key) : isAnthropic ? anthropicErrorBody(status, key) : openaiErrorBody(key),
      );
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    presentedKeys,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
