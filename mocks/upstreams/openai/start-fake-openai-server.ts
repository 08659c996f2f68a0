import { createIdSequence } from "../shared/create-id-sequence.js";
import { createFakeVideoStore, type FakeVideoController } from "./create-fake-video-store.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { checkOpenaiAuthorization } from "./check-openai-authorization.js";
import { createOpenaiErrorBody } from "./create-openai-error-body.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import type { ResponsesUsage } from "./plan-response-reply.js";
import type { ResponsesInputMessage } from "./responses-request.js";
import { renderOpenaiStatusError } from "./render-openai-status-error.js";
import { routeOpenaiRequest } from "./route-openai-request.js";

export type { FakeUpstream } from "../shared/fake-upstream.js";
export type { FakeVideoController, FakeVideoTimeline, FakeVideo } from "./create-fake-video-store.js";

/** The fake with its video task controls. */
export type FakeOpenaiUpstream = FakeUpstream & {
  videos: FakeVideoController;
  /**
   * Replaces the keys the account accepts (undefined: any key), as an account owner revoking or restoring keys
   * would; `apiKey` is the starting set.
   */
  setAcceptedKeys(keys: readonly string[] | undefined): void;
};
export type { FaultPlan } from "../shared/fault-plan.js";
export type { RecordedRequest } from "../shared/recorded-request.js";

export interface FakeOpenaiServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** When set, every request needs `Authorization: Bearer <apiKey>`, else OpenAI's 401. */
  apiKey?: string;
  /** Clock in epoch milliseconds; fixed in fixture recording so transcripts are byte-stable. */
  now?: () => number;
  /**
   * Put after the prefix of every object id (`resp_fake_b000001`), so two fakes standing for two upstream accounts
   * never make the same id: a stored response or item then exists on one of them only, as on OpenAI.
   */
  idInfix?: string;
}

/**
 * A fake OpenAI-compatible upstream on 127.0.0.1 with deterministic replies (see README.md in this folder),
 * request recording and fault injection.
 */
export async function startFakeOpenaiServer(options: FakeOpenaiServerOptions = {}): Promise<FakeOpenaiUpstream> {
  const state = {
    ids: createIdSequence(options.idInfix),
    storedResponses: new Map<string, ResponsesUsage>(),
    storedItems: new Map<string, ResponsesInputMessage>(),
    videos: createFakeVideoStore(),
    acceptedKeys:
      options.apiKey === undefined ? undefined : (new Set([options.apiKey]) as ReadonlySet<string> | undefined),
  };
  // A separate counter, so object ids do not depend on how many requests came before.
  const requestIds = createIdSequence();
  const upstream = await startFakeUpstreamServer({
    port: options.port,
    now: options.now,
    renderErrorBody: renderOpenaiStatusError,
    onReset() {
      state.ids.reset();
      requestIds.reset();
      state.storedResponses.clear();
      state.storedItems.clear();
      state.videos.reset();
    },
    async handle(exchange) {
      exchange.response.setHeader("x-request-id", requestIds.next("req_fake"));
      try {
        checkOpenaiAuthorization(exchange.request.headers, state.acceptedKeys);
        await routeOpenaiRequest(exchange, state);
      } catch (error) {
        if (!(error instanceof OpenaiRequestError) || exchange.response.headersSent) throw error;
        await sendJson(
          exchange,
          error.status,
          createOpenaiErrorBody(error.message, error.type, error.param, error.code),
        );
      }
    },
  });
  return Object.assign(upstream, {
    videos: state.videos,
    setAcceptedKeys(keys: readonly string[] | undefined) {
      state.acceptedKeys = keys === undefined ? undefined : new Set(keys);
    },
  });
}
