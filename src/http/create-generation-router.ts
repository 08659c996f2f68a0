import express, { type RequestHandler, type Router } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import multer from "multer";
import { GatewayError } from "../errors/gateway-error.js";
import type { Logger } from "../logging/logger.js";
import type { ApiGeneration } from "./api-generation.js";
import { noteClientBodyFields } from "./client-body-fields.js";
import { createErrorHandler } from "./create-error-handler.js";
import { loadBundledSpec } from "./load-bundled-spec.js";
import { memoizeValidatorRouteMatching } from "./memoize-validator-route-matching.js";
import type { OperationHandler } from "./operation-handler.js";

export interface GenerationRouterOptions {
  generation: ApiGeneration;
  handlers: Record<string, OperationHandler>;
  /** Runs after the operation is known and before the body is validated, so it can read the operation's security. */
  authenticate: RequestHandler;
  jsonBodyLimit: string;
  uploadFileSizeLimit: number;
  validateResponses: boolean;
  logger: Logger;
}

interface OpenApiRequestMetadata {
  schema?: { operationId?: string };
}

/** One generation's stack: JSON parsing, the spec's validator, authentication, the operationId dispatch, errors. */
export function createGenerationRouter(options: GenerationRouterOptions): Router {
  memoizeValidatorRouteMatching();
  const router = express.Router();
  router.use(express.json({ limit: options.jsonBodyLimit }));
  router.use(noteClientBodyFields);

  const validatorMiddlewares = OpenApiValidator.middleware({
    apiSpec: loadBundledSpec(options.generation) as never,
    // coerceTypes stays off for bodies: with it, `null` also passes as "" and `oneOf [null, string]` matches twice.
    // Path and query parameters are always coerced by the validator regardless.
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    fileUploader: { storage: multer.memoryStorage(), limits: { fileSize: options.uploadFileSizeLimit, files: 16 } },
  }) as unknown as RequestHandler[];
  // Authenticate right after the operation is identified (the validator's security slot), before bodies are checked.
  const securityIndex = validatorMiddlewares.findIndex((middleware) => middleware.name === "securityMiddleware");
  validatorMiddlewares.splice(securityIndex + 1, 0, options.authenticate);
  router.use(validatorMiddlewares);

  router.use((request, response, next) => {
    const operationId = (request as { openapi?: OpenApiRequestMetadata }).openapi?.schema?.operationId;
    const handler = operationId ? options.handlers[operationId] : undefined;
    if (!handler) {
      next(new GatewayError(`No route for ${request.method} ${request.path}.`, { status: 404, code: "not_found" }));
      return;
    }
    Promise.resolve(handler(request, response, next)).catch(next);
  });
  router.use(createErrorHandler(options.generation, options.logger));
  return router;
}
