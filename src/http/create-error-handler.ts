import type { ErrorRequestHandler } from "express";
import { ClientGoneError, GatewayError, NoAvailableChannelError } from "../errors/gateway-error.js";
import { shortenClientValue } from "../errors/shorten-client-value.js";
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
    // The management API documents these as "parameter error"; say so in its words.
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
    // Claude's own "overloaded" (529) reaches Claude's clients as such: they back off on it, not on a 502.
    if (generation === "anthropic" && (error as { upstreamStatusCode?: number }).upstreamStatusCode === 529) {
      error = new GatewayError(error.message, { ...error.options, status: 529, code: "overloaded" });
    }
    if (error.message.length > maximumMessageLength)
      error = new GatewayError(shortenMessage(error.message), error.options);
    const path = shortenClientValue(request.path);
    const { requestId } = readRequestIds(request);
    if (isClientGone(rawError, error, response)) {
      // Ordinary traffic, not a fault: nobody is left to answer.
      logger.info({ status: 499, path, requestId }, new ClientGoneError().message);
      if (!response.writableEnded) response.end();
      return;
    }
    if (response.headersSent) {
      // A stream already started: the stream writer reports the failure in-band; here we can only end it.
      logger.warn({ err: error, path, requestId }, "error after response started");
      response.end();
      return;
    }
    // Server faults get the stack; client mistakes (and a model no channel serves) one short line at info.
    if (error.status >= 500 && !(error instanceof NoAvailableChannelError)) {
      logger.error({ err: error.options.cause ?? error, path, requestId }, error.message);
    } else {
      logger.info({ status: error.status, code: error.code, path, requestId }, error.message);
    }
    // Read before a server fault is re-made below with the request id in its message.
    const retryAfterSeconds = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfterSeconds !== undefined) response.setHeader("Retry-After", String(Math.ceil(retryAfterSeconds)));
    if (error.status >= 500) {
      // What a user quotes in a support request to find this line.
      error = new GatewayError(`${error.message} (request id ${requestId})`, error.options);
    }
    // Refused before its body was read (a missing key, a body over the limit): the connection closes after the answer
    // rather than draining what the client is still sending.
    if (!request.complete) response.setHeader("Connection", "close");
    const allow = (rawError as { headers?: Record<string, string> } | undefined)?.headers?.Allow;
    if (allow) response.setHeader("Allow", allow);
    // Written with send, not json: error bodies are ours, and response validation must not turn them into 500s.
    response
      .status(error.status)
      .type("application/json")
      .send(JSON.stringify(renderErrorBody(generation, error, requestId)));
    void next;
  };
}

const maximumMessageLength = 1000;

/**
 * The client left before its answer: our own signal of it, the body parser's "request aborted", or any failure
 * that arrives once the connection is already gone (whatever broke, there is no one to tell).
 */
function isClientGone(
  rawError: unknown,
  error: GatewayError,
  response: { destroyed: boolean; writableEnded: boolean },
): boolean {
  if (error instanceof ClientGoneError) return true;
  if ((rawError as { type?: unknown } | undefined)?.type === "request.aborted") return true;
  return response.destroyed && !response.writableEnded;
}

/** A last guard for messages that quote client input at length (validator messages, upstream texts). */
function shortenMessage(message: string): string {
  return `${message.slice(0, maximumMessageLength)}…`;
}
