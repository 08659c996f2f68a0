import { Readable } from "node:stream";
import bytes from "bytes";
import express, { type Express, type Request, type RequestHandler, type Response, type Router } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import multer from "multer";
import { GatewayError } from "../errors/gateway-error.js";
import type { Logger } from "../logging/logger.js";
import type { ApiGeneration } from "./api-generation.js";
import { noteClientBodyFields } from "./client-body-fields.js";
import { assertJsonBodyBounds } from "./assert-json-body-bounds.js";
import { createErrorHandler } from "./create-error-handler.js";
import { refuseUnstorableText } from "./refuse-unstorable-text.js";
import { reportBrokenMultipart } from "./report-broken-multipart.js";
import { loadBundledSpec } from "./load-bundled-spec.js";
import { memoizeValidatorRouteMatching } from "./memoize-validator-route-matching.js";
import { compileJsonBodyValidators } from "./fast-lane/compile-json-body-validators.js";
import { createFastLane, type FastLane } from "./fast-lane/create-fast-lane.js";
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
  /** POST operations with JSON bodies served by the fast lane (create-fast-lane.ts) when the request allows. */
  fastLaneOperations?: readonly string[];
}

export interface GenerationRouting {
  router: Router;
  /** For the hot operations; `routeThroughExpress` is the app's own handle, where declined requests go. */
  createFastLane?(app: Express, routeThroughExpress: (request: Request, response: Response) => void): FastLane;
}

interface OpenApiRequestMetadata {
  schema?: { operationId?: string };
}

/** One generation's stack: JSON parsing, the spec's validator, authentication, the operationId dispatch, errors. */
export function createGenerationRouter(options: GenerationRouterOptions): GenerationRouting {
  memoizeValidatorRouteMatching();
  const router = express.Router();
  // The nesting bound runs on the raw bytes before parsing (body-parser keeps the thrown error's 400).
  const parseJson = express.json({
    limit: options.jsonBodyLimit,
    verify: (_request, _response, body) => assertJsonBodyBounds(body),
  });

  const validatorOptions = {
    // coerceTypes stays off for bodies: with it, `null` also passes as "" and `oneOf [null, string]` matches twice.
    // Path and query parameters are always coerced by the validator regardless.
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    fileUploader: { storage: multer.memoryStorage(), limits: { fileSize: options.uploadFileSizeLimit, files: 16 } },
  };
  const spec = loadBundledSpec(options.generation);
  const validatorMiddlewares = OpenApiValidator.middleware({
    apiSpec: spec as never,
    ...validatorOptions,
  }) as unknown as RequestHandler[];
  const responseChecks = validatorMiddlewares.filter((middleware) =>
    ["metadataMiddleware", "responseMiddleware"].includes(middleware.name),
  );
  // Authenticate right after the operation is identified (the validator's metadata step), from the headers, and only
  // then read a body: a request without a good key costs no body read, no parse and no validation.
  const metadataIndex = validatorMiddlewares.findIndex((middleware) => middleware.name === "metadataMiddleware");
  validatorMiddlewares.splice(metadataIndex + 1, 0, options.authenticate, parseJson, noteClientBodyFields);
  const multipartIndex = validatorMiddlewares.findIndex((middleware) => middleware.name === "multipartMiddleware");
  if (multipartIndex >= 0)
    validatorMiddlewares[multipartIndex] = reportBrokenMultipart(validatorMiddlewares[multipartIndex]!);
  router.use(validatorMiddlewares);
  if (options.generation === "management") router.use(refuseUnstorableText);

  router.use((request, response, next) => {
    const operationId = (request as { openapi?: OpenApiRequestMetadata }).openapi?.schema?.operationId;
    const handler = operationId ? options.handlers[operationId] : undefined;
    if (!handler) {
      next(new GatewayError(`No route for ${request.method} ${request.path}.`, { status: 404, code: "not_found" }));
      return;
    }
    Promise.resolve(handler(request, response, next)).catch(next);
  });
  const errorHandler = createErrorHandler(options.generation, options.logger);
  router.use(errorHandler);

  const fastLaneOperations = options.fastLaneOperations ?? [];
  if (fastLaneOperations.length === 0) return { router };
  // The validator keeps its own deep copy of `spec`, so the same parsed document serves here.
  const routes = compileJsonBodyValidators(spec, fastLaneOperations, validatorOptions);
  return {
    router,
    createFastLane: (app, routeThroughExpress) =>
      createFastLane({
        app,
        routes,
        handlers: options.handlers,
        authenticate: options.authenticate,
        errorHandler,
        jsonBodyLimitBytes: bytes.parse(options.jsonBodyLimit) ?? 0,
        notePresentedBody: noteClientBodyFields,
        beforeHandler: options.validateResponses ? responseChecks : [],
        explainUnparsableBody: (body, headers) =>
          new Promise((resolve) => {
            // The body parser itself, over the same bytes, so the 400 is word for word the Express stack's.
            const replay = Object.assign(Readable.from([body]), { headers });
            parseJson(replay as unknown as Request, {} as Response, (error?: unknown) => resolve(error));
          }),
        routeThroughExpress,
      }),
  };
}
