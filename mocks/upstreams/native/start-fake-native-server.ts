import { randomBytes } from "node:crypto";
import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FaultPlan } from "../shared/fault-plan.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { describeFaultStatus } from "./describe-fault-status.js";
import type {
  FakeNativeServerOptions,
  FakeNativeUpstream,
  NativeAnswerContext,
  NativeRecordedRequest,
} from "./fake-native-types.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";
import { INVALID_JSON, routeNativeRequest } from "./route-native-request.js";
import { type NativeVideoState, routeNativeVideoRequest } from "./route-native-video-request.js";
import { createFakeTaskBook } from "../shared/create-fake-task-book.js";
import { startFakeVideoStorage } from "./start-fake-video-storage.js";
import { writeNativeAnswer } from "./write-native-answer.js";

/**
 * A fake native-generation (gmx- family) upstream on 127.0.0.1 that answers like the real API: same paths,
 * error envelope, CRLF SSE framing and usage fields, deterministic content keyed by the request. Listening,
 * recording and fault injection (setFaults, or a per-request `x-fake-fault: <json>` header) come from ../shared.
 */
export async function startFakeNativeServer(options: FakeNativeServerOptions = {}): Promise<FakeNativeUpstream> {
  const context: NativeAnswerContext = {
    now: options.now ?? Date.now,
    createResponseId: options.createResponseId ?? (() => randomBytes(16).toString("base64url").slice(0, 22)),
  };
  let videoIds = 0;
  const storage = await startFakeVideoStorage(context.now);
  const videos: NativeVideoState = {
    storage,
    operations: createFakeTaskBook(context.now),
    nextId: () => {
      videoIds += 1;
      return videoIds;
    },
  };
  const upstream = await startFakeUpstreamServer({
    port: options.port,
    now: context.now,
    onReset() {
      videos.operations.clear();
      storage.reset();
      videoIds = 0;
    },
    renderErrorBody: (status, message) =>
      new NativeUpstreamError(status, message ?? describeFaultStatus(status)).toEnvelope(),
    handle: (exchange) => handleExchange(exchange, options.apiKey, context, videos),
  });
  return {
    url: upstream.url,
    port: upstream.port,
    // Requests answered by a fault never reach handleExchange; give them their query here.
    get requests() {
      for (const record of upstream.requests as NativeRecordedRequest[]) {
        record.query ??= collectQuery(new URL(record.path, "http://127.0.0.1").searchParams);
      }
      return upstream.requests as NativeRecordedRequest[];
    },
    setFaults(plan: FaultPlan) {
      upstream.setFaults(withRetryInfo(plan));
    },
    reset: () => upstream.reset(),
    close: async () => {
      await upstream.close();
      await storage.close();
    },
    videos: videos.operations,
    storage: { url: storage.url, requests: storage.requests },
  };
}

async function handleExchange(
  exchange: FakeExchange,
  apiKey: string | undefined,
  context: NativeAnswerContext,
  videos: NativeVideoState,
): Promise<void> {
  const { url, body } = exchange;
  (exchange.record as NativeRecordedRequest).query = collectQuery(url.searchParams);
  let answer: NativeAnswer;
  try {
    checkApiKey(apiKey, exchange);
    if (await routeNativeVideoRequest(exchange, videos)) return;
    answer = routeNativeRequest(
      {
        method: exchange.record.method,
        pathname: url.pathname,
        query: url.searchParams,
        body: body.invalidJson ? INVALID_JSON : Buffer.isBuffer(body.value) ? parseUntypedJson(body.value) : body.value,
      },
      context,
    );
  } catch (error) {
    if (!(error instanceof NativeUpstreamError)) throw error;
    answer = { kind: "json", status: error.httpStatus, body: error.toEnvelope() };
  }
  if (answer.textSignatures !== undefined)
    (exchange.record as NativeRecordedRequest).textSignatures = answer.textSignatures;
  await writeNativeAnswer(exchange, answer);
}

/** The real API answers rate limits with a RetryInfo detail next to Retry-After; add it to the default envelope. */
function withRetryInfo(plan: FaultPlan): FaultPlan {
  if (plan.status === undefined || plan.body !== undefined || plan.retryAfterSeconds === undefined) return plan;
  const retryInfo = { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${plan.retryAfterSeconds}s` };
  return {
    ...plan,
    body: new NativeUpstreamError(plan.status, describeFaultStatus(plan.status), [retryInfo]).toEnvelope(),
  };
}

/** Missing key: 403 PERMISSION_DENIED as the real API; wrong key: 401 UNAUTHENTICATED (the real API says 400 API_KEY_INVALID). */
function checkApiKey(apiKey: string | undefined, exchange: FakeExchange): void {
  if (apiKey === undefined) return;
  const header = exchange.request.headers["x-goog-api-key"];
  const presented = (Array.isArray(header) ? header[0] : header) || exchange.url.searchParams.get("key") || undefined;
  if (presented === undefined) {
    throw new NativeUpstreamError(
      403,
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
  }
  if (presented !== apiKey) {
    throw new NativeUpstreamError(401, "API key not valid. Please pass a valid API key.", [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "native.example.com" },
    ]);
  }
}

/** The real API parses the body as JSON whatever the content type says. */
function parseUntypedJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return INVALID_JSON;
  }
}

function collectQuery(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}
