import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";
import { compileJsonBodyValidators } from "../../src/http/fast-lane/compile-json-body-validators.js";
import { loadBundledSpec } from "../../src/http/load-bundled-spec.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createSqliteQuotaLedger } from "../../src/store/quota/create-sqlite-quota-ledger.js";
import { createSqliteUsageLogInserter } from "../../src/store/usage-logs/create-sqlite-usage-log-inserter.js";

// The floor of the CPU aim, measured instead of estimated: the least work a gateway that validates, authenticates
// and bills before answering must do per request, written by hand straight on node:http and an undici Pool, with no
// framework, router, adapter layer, channel choice, metrics or logging. It does, in order: read the body, JSON.parse
// it, check it with the spec's own compiled schema (the gateway's fast-lane validator), look the API key up (a
// memoised HMAC of the key, then a token read from SQLite cached for 2 s, as the gateway does), estimate the prompt,
// reserve the worst case on the gateway's own SQLite ledger, call the upstream with the channel's key, parse the
// answer and read its usage, settle and write the usage row in the ledger's commit window, wait for that commit,
// put the client's model name back and send the answer. Anything that fails answers 500: the bench sends valid requests.
const upstreamKey = process.env.BENCH_UPSTREAM_KEY ?? "";
const floorApiKey = process.env.BENCH_FLOOR_KEY ?? "";
const pool = new Pool(process.env.BENCH_PROXY_TARGET ?? "", { keepAliveTimeout: 30_000 });
const keySecret = "bench-floor-secret";
const hashKey = (key: string) => createHmac("sha256", keySecret).update(key).digest("hex");

const dataFolder = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "floor-bench-"));
const database = await openDatabase(`sqlite:${path.join(dataFolder, "gateway.db")}`);
const connection = database.sqliteConnection!;
const commitWindow = database.sqliteCommitWindow!;
connection
  .prepare("insert into users (username, password_hash, created_time) values ('floor', 'x', ?)")
  .run(Math.floor(Date.now() / 1000));
connection
  .prepare(
    "insert into tokens (user_id, name, key_hash, key_encrypted, remain_quota, created_time) values (1, 'floor', ?, 'x', ?, ?)",
  )
  .run(hashKey(floorApiKey.slice(3)), 1e15, Math.floor(Date.now() / 1000));
const ledger = createSqliteQuotaLedger(connection, commitWindow);
const insertUsage = createSqliteUsageLogInserter(connection);
const findToken = connection.prepare(
  "select id, user_id, name, status, expired_time, remain_quota, unlimited_quota from tokens where key_hash = ?",
);
type TokenRow = { id: number; user_id: number; name: string; status: number; expired_time: number };
const keyHashes = new Map<string, string>();
const tokens = new Map<string, { row: TokenRow | undefined; readAt: number }>();
const [route] = compileJsonBodyValidators(loadBundledSpec("openai"), ["createChatCompletion"], {
  validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
  validateFormats: true,
});

function authenticate(header: string | undefined): TokenRow | undefined {
  if (header === undefined || !header.startsWith("Bearer sk-")) return undefined;
  const keyBody = header.slice("Bearer sk-".length);
  let keyHash = keyHashes.get(keyBody);
  if (keyHash === undefined) {
    keyHash = hashKey(keyBody);
    keyHashes.set(keyBody, keyHash);
  }
  const now = Date.now();
  let cached = tokens.get(keyHash);
  if (cached === undefined || now - cached.readAt > 2_000) {
    commitWindow.applyDeferred();
    cached = { row: findToken.get(keyHash) as TokenRow | undefined, readAt: now };
    tokens.set(keyHash, cached);
  }
  const token = cached.row;
  if (token === undefined || token.status !== 1) return undefined;
  if (token.expired_time !== -1 && token.expired_time * 1000 < now) return undefined;
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
  const token = authenticate(request.headers.authorization);
  if (token === undefined) throw new Error("unauthorised");
  const requestId = randomUUID();
  const startedAt = Date.now();
  let promptCharacters = 0;
  for (const message of body.messages)
    if (typeof message.content === "string") promptCharacters += message.content.length;
  const worstCase = Math.ceil(promptCharacters / 4) + (body.max_tokens ?? 4096);
  const createdTime = Math.floor(startedAt / 1000);
  const outcome = await ledger.reserve({
    requestId,
    tokenId: token.id,
    userId: token.user_id,
    amount: worstCase,
    createdTime,
  });
  if (outcome !== "held") throw new Error("quota");
  const answer = JSON.parse(
    await postUpstream(JSON.stringify(body), {
      authorization: `Bearer ${upstreamKey}`,
      "content-type": "application/json",
      accept: "application/json",
    }),
  ) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
  const actual = answer.usage.prompt_tokens + answer.usage.completion_tokens;
  const settled = ledger.settle({ requestId, actual, settledTime: createdTime });
  commitWindow.defer(() =>
    insertUsage({
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
    }),
  );
  await settled;
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
    commitWindow.commitNow();
    connection.close();
    fs.rmSync(dataFolder, { recursive: true, force: true });
    void pool.destroy().then(() => process.exit(0));
  });
});
