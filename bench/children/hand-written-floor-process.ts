import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { compileJsonBodyValidators } from "../../src/http/fast-lane/compile-json-body-validators.js";
import { loadBundledSpec } from "../../src/http/load-bundled-spec.js";
import { type FloorToken, openFloorStore } from "./floor-stores.js";

// The floor of the CPU aim, measured instead of estimated: the least work a gateway that validates, authenticates
// and bills before answering must do per request, written by hand straight on node:http and an undici Pool, with no
// framework, router, adapter layer, channel choice, metrics or logging. It does, in order: read the body, JSON.parse
// it, check it with the spec's own compiled schema (the gateway's fast-lane validator), look the API key up (a
// memoised HMAC of the key, then a token read from the database cached for 2 s, as the gateway does), estimate the
// prompt, hold the worst case on the gateway's own ledger, call the upstream with the channel's key, parse the answer
// and read its usage, settle with the usage row and wait for that commit, put the client's model name back and send
// the answer. The ledger is SQLite's, or PostgreSQL's when BENCH_FLOOR_DATABASE_URL is set (floor-stores.ts): the
// floor of the multi-instance mode's aims. Anything that fails answers 500: the bench sends valid requests.
const upstreamKey = process.env.BENCH_UPSTREAM_KEY ?? "";
const floorApiKey = process.env.BENCH_FLOOR_KEY ?? "";
const pool = new Pool(process.env.BENCH_PROXY_TARGET ?? "", { keepAliveTimeout: 30_000 });
const keySecret = "bench-floor-secret";
const hashKey = (key: string) => createHmac("sha256", keySecret).update(key).digest("hex");

const store = await openFloorStore(hashKey(floorApiKey.slice(3)), process.env.BENCH_FLOOR_DATABASE_URL);
const keyHashes = new Map<string, string>();
const [route] = compileJsonBodyValidators(loadBundledSpec("openai"), ["createChatCompletion"], {
  validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
  validateFormats: true,
});

async function authenticate(header: string | undefined): Promise<FloorToken | undefined> {
  if (header === undefined || !header.startsWith("Bearer sk-")) return undefined;
  const keyBody = header.slice("Bearer sk-".length);
  let keyHash = keyHashes.get(keyBody);
  if (keyHash === undefined) {
    keyHash = hashKey(keyBody);
    keyHashes.set(keyBody, keyHash);
  }
  const token = await store.findToken(keyHash);
  if (token === undefined || token.status !== 1) return undefined;
  if (token.expired_time !== -1 && token.expired_time * 1000 < Date.now()) return undefined;
  return token;
}

/** One upstream POST whose answer is read whole: undici's dispatch with a buffering handler (no Readable per answer). */
function postUpstream(body: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    pool.dispatch(
      { path: "/v1/chat/completions", method: "POST", headers, body },
      {
        onConnect() {},
        onError: reject,
        onHeaders(statusCode) {
          status = statusCode;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          if (status !== 200) reject(new Error(`upstream answered ${status}`));
          else resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"));
        },
      },
    );
  });
}

async function serve(request: http.IncomingMessage, response: http.ServerResponse, rawBody: Buffer): Promise<void> {
  const body = JSON.parse(rawBody.toString("utf8")) as {
    model: string;
    messages: Array<{ content?: unknown }>;
    max_tokens?: number;
  };
  if (!route!.validateBody({ query: {}, headers: {}, params: {}, cookies: {}, body })) throw new Error("invalid");
  const token = await authenticate(request.headers.authorization);
  if (token === undefined) throw new Error("unauthorised");
  const requestId = randomUUID();
  const startedAt = Date.now();
  let promptCharacters = 0;
  for (const message of body.messages)
    if (typeof message.content === "string") promptCharacters += message.content.length;
  const worstCase = Math.ceil(promptCharacters / 4) + (body.max_tokens ?? 4096);
  const createdTime = Math.floor(startedAt / 1000);
  const settle = await store.hold(token, requestId, worstCase, createdTime);
  const answer = JSON.parse(
    await postUpstream(JSON.stringify(body), {
      authorization: `Bearer ${upstreamKey}`,
      "content-type": "application/json",
      accept: "application/json",
    }),
  ) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
  const actual = answer.usage.prompt_tokens + answer.usage.completion_tokens;
  await settle(actual, {
    userId: token.user_id,
    tokenId: token.id,
    tokenName: token.name,
    model: body.model,
    channelId: 1,
    requestId,
    isStream: false,
    promptTokens: answer.usage.prompt_tokens,
    completionTokens: answer.usage.completion_tokens,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota: actual,
    latencyMs: Date.now() - startedAt,
    status: "success",
    errorMessage: null,
    group: "default",
    createdTime,
  });
  answer.model = body.model;
  const text = JSON.stringify(answer);
  response.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "x-request-id": requestId,
  });
  response.end(text);
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () =>
    serve(request, response, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }),
  );
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => {
    void Promise.all([store.close(), pool.destroy()]).then(() => process.exit(0));
  });
});
