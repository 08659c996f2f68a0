import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from "express";
import type { OperationHandler } from "../operation-handler.js";
import { ClientGoneError, InvalidRequestError, PayloadTooLargeError } from "../../errors/gateway-error.js";
import { assertJsonBodyBounds } from "../assert-json-body-bounds.js";
import { adoptExpressObjects } from "./adopt-express-objects.js";
import type { FastLaneRoute } from "./compile-json-body-validators.js";
import { isPlainJsonRequest } from "./is-plain-json-request.js";

/** Takes a request (true) or leaves it untouched for the Express stack (false). */
export type FastLane = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface FastLaneOptions {
  app: Express;
  routes: FastLaneRoute[];
  handlers: Record<string, OperationHandler>;
  authenticate: RequestHandler;
  errorHandler: ErrorRequestHandler;
  jsonBodyLimitBytes: number;
  /** The generation's own steps, in Express order, for what the fast lane does not decide itself. */
  notePresentedBody: RequestHandler;
  /** Runs before the handler (express-openapi-validator's response validation when it is on), or nothing. */
  beforeHandler: RequestHandler[];
  /** The body parser's verdict on a body the fast lane could not parse (its exact 400). */
  explainUnparsableBody(body: Buffer, headers: IncomingHttpHeaders): Promise<unknown>;
  /** The full Express stack, for a request whose body is read (`request.body` set) but not valid. */
  routeThroughExpress(request: Request, response: Response): void;
}

/**
 * The hot JSON operations without the Express router: a valid POST with a JSON body goes straight through the
 * steps the generation's router would run for it (authentication from the headers, body, the spec's body
 * validation, handler, error handler), skipping the router's layers and the validator's per-request machinery that does nothing for
 * such a request (no path, query, header or cookie parameters, no multipart). Anything else is not taken here:
 * another method, path, query string, content type, encoding or an oversized body; and a body the spec rejects
 * goes back through the full Express stack, so every error a client can see is still the validator's own.
 */
export function createFastLane(options: FastLaneOptions): FastLane {
  const routes = new Map(options.routes.map((route) => [route.path, route]));
  return (incoming, outgoing) => {
    if (incoming.method !== "POST") return false;
    const route = routes.get(incoming.url ?? "");
    if (route === undefined || !isPlainJsonRequest(incoming.headers, options.jsonBodyLimitBytes)) return false;
    const { request, response } = adoptExpressObjects(options.app, incoming, outgoing);
    void serve(route, request, response);
    return true;
  };

  async function serve(route: FastLaneRoute, request: Request, response: Response): Promise<void> {
    const fail = (error: unknown) => options.errorHandler(error, request, response, ignoreNext);
    try {
      // What the validator's metadata step would have set: authentication reads the operation's security from it,
      // handlers the operation and path parameters.
      (request as { openapi?: unknown }).openapi = {
        expressRoute: route.path,
        openApiRoute: route.path,
        pathParams: {},
        schema: route.operation,
      };
      // The key is in the headers: a request without a good one is refused before a byte of its body is read.
      await runStep(options.authenticate, request, response);
      const rawBody = await readBody(request, options.jsonBodyLimitBytes);
      assertJsonBodyBounds(rawBody);
      const body = parseJsonObject(rawBody);
      if (body === undefined) {
        // Should the parser ever accept what JSON.parse refused, the answer is still a 400, never a 500 for nothing.
        const explanation = await options.explainUnparsableBody(rawBody, request.headers);
        fail(explanation ?? new InvalidRequestError("Request body is not valid JSON.", { code: "invalid_json" }));
        return;
      }
      (request as { _body?: boolean })._body = true;
      request.body = body;
      await runStep(options.notePresentedBody, request, response);
      if (!route.validateBody({ body })) {
        // Defaults may have been written into the body while it failed: the validator gets the client's body.
        request.body = parseJsonObject(rawBody);
        options.routeThroughExpress(request, response);
        return;
      }
      for (const step of options.beforeHandler) await runStep(step, request, response);
      await options.handlers[route.operationId]!(request, response, (error?: unknown) => {
        if (error) fail(error);
      });
    } catch (error) {
      fail(error);
    }
  }
}

const ignoreNext: NextFunction = () => undefined;

/**
 * The whole body, counted as it arrives: past `limitBytes` (a client sending more than it declared) the request is
 * refused without keeping the rest. A client that leaves before sending it all is a ClientGoneError.
 */
function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    request.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        request.pause();
        request.removeAllListeners("data");
        reject(new PayloadTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    request.on("error", () => request.destroy());
    request.on("close", () => {
      if (!request.complete) reject(new ClientGoneError());
    });
    request.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  });
}

/**
 * The body as body-parser's strict JSON mode accepts it (an object or array; empty is `{}`; a UTF-8 byte-order
 * mark is dropped, as its decoder does), else undefined.
 */
function parseJsonObject(body: Buffer): object | undefined {
  if (body.length === 0) return {};
  const hasByteOrderMark = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8", hasByteOrderMark ? 3 : 0));
    return parsed !== null && typeof parsed === "object" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one Express middleware; resolves when it calls next(), rejects on next(error) or a throw. */
function runStep(step: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const next = (error?: unknown) => (error ? reject(error) : resolve());
    Promise.resolve(step(request, response, next)).catch(reject);
  });
}
