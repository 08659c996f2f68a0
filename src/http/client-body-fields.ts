import type { RequestHandler, Response } from "express";

/**
 * The validator writes the spec's defaults into request bodies (chat's documented `temperature: 0.7`, Responses'
 * `top_p: 0.98`, …). Those defaults are the gateway's documented behaviour for translated requests, but a
 * pass-through to an OpenAI-compatible upstream must send what the client sent: an injected `temperature` breaks
 * reasoning models that reject it. So the top-level field names are noted before validation.
 */
export const noteClientBodyFields: RequestHandler = (request, response, next) => {
  // The fast lane notes them first and may hand the request to the Express stack, defaults possibly written.
  if (response.locals.clientBodyFields !== undefined) return next();
  const body: unknown = request.body;
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    response.locals.clientBodyFields = new Set(Object.keys(body));
    // One level down too (`optimize_prompt_options.mode`, `sequential_image_generation_options.max_images`):
    // translators that must send exactly what a family needs drop nested defaults as well.
    const nested = new Map<string, Set<string>>();
    for (const [field, value] of Object.entries(body))
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        nested.set(field, new Set(Object.keys(value)));
    response.locals.clientNestedBodyFields = nested;
  }
  next();
};

/** The body without the top-level fields the validator added (nested objects are left as they are). */
export function withoutInjectedDefaults<Body extends object>(body: Body, response: Response): Body {
  const clientFields = response.locals.clientBodyFields as Set<string> | undefined;
  if (!clientFields) return body;
  const result: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) if (clientFields.has(field)) result[field] = value;
  return result as Body;
}
