import type { RequestHandler } from "express";
import { UnstorableTextError } from "../errors/gateway-error.js";

/**
 * Refuses a management request whose body, query or path holds the NUL character anywhere (a value or a key), before
 * its handler runs. PostgreSQL's text cannot hold or even compare it, so there such a request failed in its first
 * statement (create-postgres-pool.ts maps that to the same error), while SQLite stored it, or matched nothing: the
 * same request answered differently by the two modes. Refused here, it answers 400 `invalid_text` on both, names the
 * field, and no statement sees it. Only the management surface: the generation surfaces pass a caller's text
 * to the upstream, where NUL may be meant (a prompt); an id they look up with it is simply not found
 * (canNameStoredRow), and an upstream's own text is stripped of it before it is stored (storable-text.ts).
 */
export const refuseUnstorableText: RequestHandler = (request, _response, next) => {
  const pathParameters = (request as { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams;
  const field = fieldWithNul(request.body, "") ?? fieldWithNul(request.query, "") ?? fieldWithNul(pathParameters, "");
  next(field === undefined ? undefined : new UnstorableTextError({ param: field === "" ? undefined : field }));
};

/**
 * The path of the first string or key holding NUL in a parsed JSON value or query, written as the validator writes
 * a field (`name`, `models[1]`, `model_mapping.gpt-4o`), `""` for the value itself, or undefined when there is none.
 * Bodies are at most 64 levels deep (assert-json-body-bounds.ts) and queries 5 (the query parser's own limit), so
 * the recursion is bounded.
 */
function fieldWithNul(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  const isArray = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    // A key holding it is reported as the object that holds the key, so the answer does not echo the character.
    if (key.includes("\u0000")) return path;
    const found = fieldWithNul(item, isArray ? `${path}[${key}]` : memberPath(path, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** An object's member as the answer names it: a caller's key can be as long as the body, the message stays short. */
function memberPath(path: string, key: string): string {
  const named = key.length <= 64 ? key : `${key.slice(0, 64)}…`;
  return path === "" ? named : `${path}.${named}`;
}
