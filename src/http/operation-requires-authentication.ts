import type { Request } from "express";

interface OpenApiRequestMetadata {
  schema?: { security?: unknown[] };
}

/** An operation whose spec says `security: []` (sign-in) is public; every other one takes the generation's default. */
export function operationRequiresAuthentication(request: Request): boolean {
  const security = (request as { openapi?: OpenApiRequestMetadata }).openapi?.schema?.security;
  return !(Array.isArray(security) && security.length === 0);
}
