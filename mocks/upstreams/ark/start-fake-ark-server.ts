import { createIdSequence } from "../shared/create-id-sequence.js";
import { createFakeResultFiles } from "../shared/fake-result-files.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { findFakeRoute } from "../shared/find-fake-route.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { ArkError } from "./ark-error.js";
import { arkRoutes } from "./ark-routes.js";
import type { FakeArkState } from "./fake-ark-state.js";
import { renderArkErrorBody } from "./render-ark-error-body.js";

export interface FakeArkServerOptions {
  port?: number;
  /** When set, API routes need `Authorization: Bearer <apiKey>`, else ARK's 401 AuthenticationError. */
  apiKey?: string;
  now?: () => number;
}

/**
 * A fake Volcengine ARK upstream on 127.0.0.1: Seedream image generation with ARK's validation and error
 * envelope, result files hosted on its own origin (GET /results/…, no key needed, like signed URLs), request
 * recording and the shared fault injection.
 */
export async function startFakeArkServer(options: FakeArkServerOptions = {}): Promise<FakeUpstream> {
  const now = options.now ?? Date.now;
  const state: FakeArkState = { ids: createIdSequence(), files: createFakeResultFiles(), now };
  return startFakeUpstreamServer({
    port: options.port,
    now,
    renderErrorBody: (status, message) => renderArkErrorBody(status, message),
    onReset() {
      state.ids.reset();
      state.files.clear();
    },
    async handle(exchange) {
      try {
        const found = findFakeRoute(arkRoutes, exchange);
        if (!found)
          throw new ArkError(
            404,
            "InvalidEndpoint.NotFound",
            `The requested endpoint ${exchange.url.pathname} does not exist.`,
          );
        const isResult = exchange.url.pathname.startsWith("/results/");
        if (
          !isResult &&
          options.apiKey !== undefined &&
          exchange.request.headers.authorization !== `Bearer ${options.apiKey}`
        )
          throw new ArkError(401, "AuthenticationError", "The API key or AK/SK in the request is missing or invalid.");
        await found.route.handle(exchange, state, found.match);
      } catch (error) {
        if (!(error instanceof ArkError) || exchange.response.headersSent) throw error;
        await sendJson(
          exchange,
          error.status,
          renderArkErrorBody(error.status, error.message, error.code, error.param),
        );
      }
    },
  });
}
