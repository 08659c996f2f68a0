import type { Response } from "express";
import { withoutInjectedDefaults } from "./client-body-fields.js";

/**
 * The body without the fields the validator added, top-level and one level down inside objects the client sent
 * (noteClientBodyFields records both). For translators whose upstream must get exactly what the client chose.
 */
export function withoutInjectedNestedDefaults(
  body: Record<string, unknown>,
  response: Response,
): Record<string, unknown> {
  const topLevel = withoutInjectedDefaults(body, response);
  const nested = response.locals.clientNestedBodyFields as Map<string, Set<string>> | undefined;
  if (!nested) return topLevel;
  const result: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(topLevel)) {
    const clientKeys = nested.get(field);
    if (clientKeys && value !== null && typeof value === "object" && !Array.isArray(value)) {
      result[field] = Object.fromEntries(Object.entries(value).filter(([key]) => clientKeys.has(key)));
    } else result[field] = value;
  }
  return result;
}
