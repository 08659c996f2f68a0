import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type Express, type Request, type Response } from "express";
import { selectApiGeneration, type ApiGeneration } from "./http/api-generation.js";
import type { CorsOrigins } from "./config/parse-cors-origins.js";
import { createConsoleHandler } from "./http/create-console-handler.js";
import { createCorsHandler } from "./http/create-cors-handler.js";
import { createGenerationRouter, type GenerationRouterOptions } from "./http/create-generation-router.js";
import type { FastLane } from "./http/fast-lane/create-fast-lane.js";
import type { Logger } from "./logging/logger.js";
import { assignRequestId } from "./http/assign-request-id.js";
import { createOperatorRouter, type OperatorRouterOptions } from "./http/create-operator-router.js";
import type { GatewayMetrics } from "./metrics/gateway-metrics.js";
import { createRequestObserver } from "./metrics/create-request-observer.js";
import { activeTracing } from "./tracing/tracing-hooks.js";

export type GenerationWiring = Pick<
  GenerationRouterOptions,
  "handlers" | "authenticate" | "jsonBodyLimit" | "fastLaneOperations"
>;

export interface AppOptions {
  logger: Logger;
  /** /healthz, /readyz and /metrics. */
  operator: OperatorRouterOptions;
  metrics: Pick<GatewayMetrics, "requests" | "requestDuration">;
  validateResponses: boolean;
  uploadFileSizeLimit: number;
  generations: Record<ApiGeneration, GenerationWiring>;
  /** The built web console, served at `/` for every path outside the APIs. */
  consoleFolder?: string;
  /** Browser origins allowed to call the APIs (CORS_ORIGINS); no CORS headers when absent. */
  corsOrigins?: CorsOrigins;
}

/** Builds the Express app from its dependencies; tests build it without listening. */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "extended");

  const routings = (Object.keys(options.generations) as ApiGeneration[]).map((generation) => ({
    generation,
    routing: createGenerationRouter({
      generation,
      ...options.generations[generation],
      uploadFileSizeLimit: options.uploadFileSizeLimit,
      validateResponses: options.validateResponses,
      logger: options.logger,
    }),
  }));
  const routers = Object.fromEntries(routings.map(({ generation, routing }) => [generation, routing.router])) as Record<
    ApiGeneration,
    express.Router
  >;

  const operatorRouter = createOperatorRouter(options.operator);
  app.use((request, response, next) => {
    const generation = selectApiGeneration(request.path);
    if (generation) routers[generation](request, response, next);
    else operatorRouter(request, response, next);
  });
  if (options.consoleFolder) app.use(createConsoleHandler(options.consoleFolder));
  app.use((request, response) => {
    response.status(404).json({
      error: {
        message: `No route for ${request.method} ${request.path}. The APIs live under /api, /v1 and /v1beta.`,
        type: "invalid_request_error",
        code: "not_found",
        param: null,
      },
    });
  });

  // The hot JSON operations are tried on the fast lane before Express routes anything (create-fast-lane.ts).
  type Handle = (request: IncomingMessage, response: ServerResponse, callback?: unknown) => void;
  const expressApp = app as unknown as { handle: Handle };
  const routeThroughExpress = expressApp.handle.bind(app);
  const fastLanes: FastLane[] = routings.flatMap(
    ({ routing }) =>
      routing.createFastLane?.(app, routeThroughExpress as (request: Request, response: Response) => void) ?? [],
  );
  // Every answer carries X-Request-Id, and API answers are counted and timed, whichever lane serves them.
  const observeRequest = createRequestObserver(options.metrics);
  // Before the lanes, so a preflight needs no key and the fast lane's answers carry the headers too.
  const answerCors = options.corsOrigins ? createCorsHandler(options.corsOrigins) : undefined;
  expressApp.handle = (request, response, callback) => {
    assignRequestId(request, response);
    const generation = selectApiGeneration(request.url ?? "/");
    if (generation !== undefined) {
      observeRequest(request, response, generation);
      activeTracing()?.onRequest(request, response);
    }
    if (answerCors !== undefined && generation !== undefined && answerCors(request, response, generation)) return;
    for (const fastLane of fastLanes) if (fastLane(request, response)) return;
    routeThroughExpress(request, response, callback);
  };
  return app;
}
