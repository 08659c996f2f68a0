import { createFakeResultFiles } from "../shared/fake-result-files.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { findFakeRoute } from "../shared/find-fake-route.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { DashscopeError } from "./dashscope-error.js";
import { dashscopeRoutes } from "./dashscope-routes.js";
import type { FakeDashscopeState } from "./fake-dashscope-state.js";
import { renderDashscopeErrorBody } from "./render-dashscope-error-body.js";

export interface FakeDashscopeServerOptions {
  port?: number;
  /** When set, API routes need `Authorization: Bearer <apiKey>`, else DashScope's 401 InvalidApiKey. */
  apiKey?: string;
  now?: () => number;
}

/**
 * A fake Alibaba DashScope upstream on 127.0.0.1: synchronous multimodal image generation with DashScope's
 * validation and error envelope, result files hosted on its own origin (GET /results/…, no key needed, like signed
 * URLs), request recording and the shared fault injection.
 */
export async function startFakeDashscopeServer(options: FakeDashscopeServerOptions = {}): Promise<FakeUpstream> {
  const now = options.now ?? Date.now;
  const state: FakeDashscopeState = { files: createFakeResultFiles(), now };
  return startFakeUpstreamServer({
    port: options.port,
    now,
    renderErrorBody: (status, message) => renderDashscopeErrorBody(status, message),
    onReset() {
      state.files.clear();
    },
    async handle(exchange) {
      try {
        const found = findFakeRoute(dashscopeRoutes, exchange);
        if (!found) throw new DashscopeError(404, "NotFound", `Path ${exchange.url.pathname} not found.`);
        const isResult = exchange.url.pathname.startsWith("/results/");
        if (
          !isResult &&
          options.apiKey !== undefined &&
          exchange.request.headers.authorization !== `Bearer ${options.apiKey}`
        )
          throw new DashscopeError(401, "InvalidApiKey", "Invalid API-key provided.");
        await found.route.handle(exchange, state, found.match);
      } catch (error) {
        if (!(error instanceof DashscopeError) || exchange.response.headersSent) throw error;
        await sendJson(exchange, error.status, renderDashscopeErrorBody(error.status, error.message, error.code));
      }
    },
  });
}
