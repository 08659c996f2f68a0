import type { IncomingMessage, ServerResponse } from "node:http";
import cors, { type CorsOptions } from "cors";
import type { CorsOrigins } from "../config/parse-cors-origins.js";
import type { ApiGeneration } from "./api-generation.js";

/** Request headers the official SDKs send from a browser, beside the key headers of each surface. */
const allowedHeaders = [
  "Authorization",
  "x-api-key",
  "x-goog-api-key",
  "x-goog-api-client",
  "x-native-api-key",
  "anthropic-version",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  "OpenAI-Organization",
  "OpenAI-Project",
  "Content-Type",
  "X-Request-Id",
  "X-Trace-ID",
  "Idempotency-Key",
];
const allowedHeaderNames = new Set(allowedHeaders.map((name) => name.toLowerCase()));
/** The OpenAI and Anthropic SDKs add telemetry headers of their own (x-stainless-os, -retry-count, …). */
const sdkTelemetryHeader = /^x-stainless-[a-z0-9-]+$/;

const baseOptions: CorsOptions = {
  methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
  exposedHeaders: ["X-Request-Id", "Retry-After"],
  maxAge: 600,
  optionsSuccessStatus: 204,
};

/**
 * Answers an allowed origin's preflight before anything else runs (no key is needed, on every lane), and marks the
 * allowed origin's actual requests with the headers a browser needs to read the answer. An origin that is not allowed
 * gets no CORS header at all, so the browser keeps the answer from the page. Returns true when it answered.
 */
export function createCorsHandler(
  origins: CorsOrigins,
): (request: IncomingMessage, response: ServerResponse, generation: ApiGeneration) => boolean {
  // The allowed headers depend on the preflight's question, so the options are made per request.
  const middlewareFor = (origin: CorsOptions["origin"]) =>
    cors<IncomingMessage>((request, callback) =>
      callback(null, {
        ...baseOptions,
        origin,
        // Only a preflight is answered with the allowed headers.
        ...(request.method === "OPTIONS" ? { allowedHeaders: allowHeaders(request) } : {}),
      }),
    );
  const middlewares = { anyOrigin: middlewareFor("*"), listedOrigin: middlewareFor(true) };
  return (request, response, generation) => {
    const origin = request.headers.origin;
    if (origin === undefined) return false;
    const middleware = origins.listed.has(origin)
      ? middlewares.listedOrigin
      : origins.anyOriginForModelApis && generation !== "management"
        ? middlewares.anyOrigin
        : undefined;
    if (middleware === undefined) return false;
    // The cors middleware is synchronous with fixed options: it either ends a preflight or calls next at once.
    let passedOn = false;
    middleware(request, response, () => {
      passedOn = true;
    });
    return !passedOn;
  };
}

/** The fixed list, plus the SDK telemetry headers the preflight asks for (their names vary by SDK version). */
function allowHeaders(request: IncomingMessage): string {
  const requested = String(request.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => sdkTelemetryHeader.test(name) && !allowedHeaderNames.has(name));
  return [...allowedHeaders, ...requested].join(", ");
}
