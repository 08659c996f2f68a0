import type { ErrorRequestHandler } from "express";
import { GatewayError } from "../errors/gateway-error.js";
import type { Logger } from "../logging/logger.js";
import type { ApiGeneration } from "./api-generation.js";
import { isImageParameterError } from "./is-image-parameter-error.js";
import { normalizeError } from "./normalize-error.js";
import { readRequestIds } from "./read-request-ids.js";
import { renderErrorBody } from "./render-error-body.js";

/** One error middleware per generation: every failure leaves in that generation's envelope. */
export function createErrorHandler(generation: ApiGeneration, logger: Logger): ErrorRequestHandler {
  return (rawError, request, response, next) => {
    let error = normalizeError(rawError);
    // The first seed document names these "parameter error" on the management API; say so in its words.
    if (
      generation === "management" &&
      error.status === 400 &&
      Array.isArray((rawError as { errors?: unknown }).errors)
    ) {
      error = new GatewayError(`Parameter error: ${error.message}`, error.options);
    }
    if (
      error.status === 400 &&
      error.code === "invalid_request" &&
      isImageParameterError(request.originalUrl.split("?")[0] ?? "", rawError)
    )
      error = new GatewayError(error.message, { ...error.options, code: "invalid_parameter" });
    const { requestId } = readRequestIds(request);
    if (response.headersSent) {
      // A stream already started: the stream writer reports the failure in-band; here we can only end it.
      logger.warn({ err: error, path: request.path, requestId }, "error after response started");
      response.end();
      return;
    }
    if (error.status >= 500) {
      logger.error({ err: error.options.cause ?? error, path: request.path, requestId }, error.message);
      // What a user quotes in a support request to find this line.
      error = new GatewayError(`${error.message} (request id ${requestId})`, error.options);
    }
    const retryAfterSeconds = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfterSeconds !== undefined) response.setHeader("Retry-After", String(Math.ceil(retryAfterSeconds)));
    const allow = (rawError as { headers?: Record<string, string> } | undefined)?.headers?.Allow;
    if (allow) response.setHeader("Allow", allow);
    // Written with send, not json: error bodies are ours, and response validation must not turn them into 500s.
    response
      .status(error.status)
      .type("application/json")
      .send(JSON.stringify(renderErrorBody(generation, error)));
    void next;
  };
}
