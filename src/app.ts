import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type Express, type Request, type Response } from "express";
import { selectApiGeneration, type ApiGeneration } from "./http/api-generation.js";
import { createConsoleHandler } from "./http/create-console-handler.js";
import { createGenerationRouter, type GenerationRouterOptions } from "./http/create-generation-router.js";
import type { FastLane } from "./http/fast-lane/create-fast-lane.js";
import type { Logger } from "./logging/logger.js";

export type GenerationWiring = Pick<
  GenerationRouterOptions,
  "handlers" | "authenticate" | "jsonBodyLimit" | "fastLaneOperations"
>;

export interface AppOptions {
  logger: Logger;
  validateResponses: boolean;
  uploadFileSizeLimit: number;
  generations: Record<ApiGeneration, GenerationWiring>;
  /** The built web console, served at `/` for every path outside the APIs. */
  consoleFolder?: string;
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

  app.use((request, response, next) => {
    const generation = selectApiGeneration(request.path);
    if (generation) routers[generation](request, response, next);
    else next();
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
  if (fastLanes.length > 0) {
    expressApp.handle = (request, response, callback) => {
      for (const fastLane of fastLanes) if (fastLane(request, response)) return;
      routeThroughExpress(request, response, callback);
    };
  }
  return app;
}
