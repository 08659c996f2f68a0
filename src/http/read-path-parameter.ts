import type { Request } from "express";

interface OpenApiRequestMetadata {
  pathParams?: Record<string, string>;
}

/**
 * Path parameters as the validator matched them against the spec's path. Express resets `request.params` per
 * router layer, and colon paths (`{model}:generateContent`) are not Express routes at all, so the spec's match
 * is the one to read.
 */
export function readPathParameter(request: Request, name: string): string {
  const value = (request as { openapi?: OpenApiRequestMetadata }).openapi?.pathParams?.[name];
  if (value === undefined) throw new Error(`path parameter ${name} is not part of this operation`);
  return value;
}
