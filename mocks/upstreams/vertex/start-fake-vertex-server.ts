import { randomBytes } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { request } from "undici";
import { startFakeNativeServer } from "../native/start-fake-native-server.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { createIdSequence } from "../shared/create-id-sequence.js";
import { createGoogleErrorBody, renderGoogleStatusError } from "./google-error-body.js";
import { handleClaudeRawPredict } from "./handle-claude-raw-predict.js";
import { handlePredictEmbeddings } from "./handle-predict-embeddings.js";
import { verifyTokenRequest } from "./verify-token-request.js";

export interface FakeVertexServerOptions {
  /** The service account whose JWTs the token endpoint accepts (its public key checks their signatures). */
  clientEmail: string;
  publicKey: KeyObject;
  /** The project and region the API answers for; others are refused. */
  projectId: string;
  region: string;
  /** Lifetime of the access tokens it issues (default 3600 s). */
  tokenLifetimeSeconds?: number;
  now?: () => number;
}

export type FakeVertexUpstream = FakeUpstream & {
  /** The token endpoint to put in the service account JSON (`token_uri`). */
  tokenUri: string;
  /** Access tokens issued so far. */
  tokensIssued(): number;
  /** Makes every issued token expired, as if their hour had passed. */
  expireTokens(): void;
};

const publisherPath =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/;

/**
 * A fake Vertex AI on 127.0.0.1: a token endpoint that takes the JWT bearer grant (RS256 signature verified against
 * the service account's public key, expiring tokens), and Google's publisher models under one project and region,
 * which refuse a missing, unknown or expired token with 401 and otherwise answer through an inner fake native
 * upstream (the same generateContent protocol and replies; see ../native); Anthropic's Claude models answer
 * `:rawPredict` and `:streamRawPredict` (handle-claude-raw-predict.ts), and the text embedding models `:predict`
 * (handle-predict-embeddings.ts). Faults as every fake.
 */
export async function startFakeVertexServer(options: FakeVertexServerOptions): Promise<FakeVertexUpstream> {
  const now = options.now ?? Date.now;
  const innerKey = randomBytes(12).toString("hex");
  const inner = await startFakeNativeServer({ apiKey: innerKey });
  const tokens = new Map<string, number>();
  const claude = { ids: createIdSequence(), cachedPrefixes: new Set<string>() };
  let issued = 0;
  let tokenUri = "";
  const outer = await startFakeUpstreamServer({
    now,
    renderErrorBody: renderGoogleStatusError,
    onReset: () => {
      inner.reset();
      claude.ids.reset();
      claude.cachedPrefixes.clear();
    },
    async handle(exchange) {
      const path = exchange.url.pathname;
      if (exchange.request.method === "POST" && path === "/token") return issueToken(exchange);
      const match = publisherPath.exec(path);
      if (!match || exchange.request.method !== "POST") return sendJson(exchange, 404, renderGoogleStatusError(404));
      const bearer = /^Bearer (.+)$/.exec(exchange.request.headers.authorization ?? "")?.[1];
      const expiresAt = bearer === undefined ? undefined : tokens.get(bearer);
      if (expiresAt === undefined || expiresAt <= now()) return sendJson(exchange, 401, renderGoogleStatusError(401));
      const [, project, region, publisher, model, method] = match;
      if (decodeURIComponent(project!) !== options.projectId)
        return sendJson(
          exchange,
          403,
          createGoogleErrorBody(
            403,
            `Permission denied on resource project ${decodeURIComponent(project!)}.`,
            "PERMISSION_DENIED",
          ),
        );
      if (decodeURIComponent(region!) !== options.region) return sendJson(exchange, 404, renderGoogleStatusError(404));
      if (publisher === "anthropic")
        return handleClaudeRawPredict(exchange, decodeURIComponent(model!), method!, claude);
      if (method === "predict") return handlePredictEmbeddings(exchange, decodeURIComponent(model!));
      await forward(exchange, `${inner.url}/v1beta/models/${model}:${method}${exchange.url.search}`, innerKey);
    },
  });
  tokenUri = `${outer.url}/token`;

  async function issueToken(exchange: FakeExchange): Promise<void> {
    const form = new URLSearchParams(exchange.body.raw.toString("utf8"));
    const problem = await verifyTokenRequest(form, {
      publicKey: options.publicKey,
      clientEmail: options.clientEmail,
      audience: tokenUri,
      now: now(),
    });
    if (problem) return sendJson(exchange, 400, { error: "invalid_grant", error_description: problem });
    issued += 1;
    const lifetime = options.tokenLifetimeSeconds ?? 3600;
    const token = `ya29.fake-${issued}-${randomBytes(16).toString("base64url")}`;
    tokens.set(token, now() + lifetime * 1000);
    return sendJson(exchange, 200, { access_token: token, expires_in: lifetime, token_type: "Bearer" });
  }

  return {
    url: outer.url,
    port: outer.port,
    get requests() {
      return outer.requests;
    },
    setFaults: (faults) => outer.setFaults(faults),
    reset: () => outer.reset(),
    tokenUri,
    tokensIssued: () => issued,
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    async close() {
      await outer.close();
      await inner.close();
    },
  };
}

/** Sends the request on to the inner native fake and its answer back as it comes (streams included). */
async function forward(exchange: FakeExchange, url: string, innerKey: string): Promise<void> {
  const { resetMidStreamAfterChunks, stallAfterChunks, chunkDelayMs } = exchange.faults;
  const answer = await request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-goog-api-key": innerKey,
      "x-fake-fault": JSON.stringify({ resetMidStreamAfterChunks, stallAfterChunks, chunkDelayMs }),
    },
    body: exchange.body.raw,
  });
  exchange.response.writeHead(answer.statusCode, { "content-type": String(answer.headers["content-type"] ?? "") });
  try {
    for await (const piece of answer.body) exchange.response.write(piece);
  } catch {
    exchange.resetConnection();
    return;
  }
  exchange.response.end();
}
