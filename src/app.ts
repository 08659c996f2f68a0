import express, { type Express } from "express";
import { selectApiGeneration, type ApiGeneration } from "./http/api-generation.js";
import { createGenerationRouter, type GenerationRouterOptions } from "./http/create-generation-router.js";
import type { Logger } from "./logging/logger.js";

export type GenerationWiring = Pick<GenerationRouterOptions, "handlers" | "authenticate" | "jsonBodyLimit">;

export interface AppOptions {
  logger: Logger;
  validateResponses: boolean;
  uploadFileSizeLimit: number;
  generations: Record<ApiGeneration, GenerationWiring>;
}

/** Builds the Express app from its dependencies; tests build it without listening. */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "extended");

  const routers = Object.fromEntries(
    (Object.keys(options.generations) as ApiGeneration[]).map((generation) => [
      generation,
      createGenerationRouter({
        generation,
        ...options.generations[generation],
        uploadFileSizeLimit: options.uploadFileSizeLimit,
        validateResponses: options.validateResponses,
        logger: options.logger,
      }),
    ]),
  ) as Record<ApiGeneration, express.Router>;

  app.use((request, response, next) => {
    const generation = selectApiGeneration(request.path);
    if (generation) routers[generation](request, response, next);
    else next();
  });
  app.use((request, response) => {
    response.status(404).json({
      error: { message: `No route for ${request.method} ${request.path}. The APIs live under /api, /v1 and /v1beta.`, type: "invalid_request_error", code: "not_found", param: null },
    });
  });
  return app;
}
