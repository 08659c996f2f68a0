type JsonObject = Record<string, unknown>;

function fillParameter(parameter: JsonObject, fallbacks: Record<string, unknown>): void {
  if ("$ref" in parameter || parameter.required !== true) return;
  const schema = (parameter.schema as JsonObject | undefined) ?? {};
  const hasExample =
    parameter.example !== undefined ||
    parameter.examples !== undefined ||
    schema.example !== undefined ||
    schema.examples !== undefined ||
    schema.default !== undefined ||
    Array.isArray(schema.enum);
  if (hasExample) return;
  const name = String(parameter.name);
  if (!(name in fallbacks))
    throw new Error(`Required parameter "${name}" has no example in the spec and no fallback in the contract harness`);
  parameter.example = fallbacks[name];
}

/**
 * A copy of `spec` where every required parameter has an example: Dredd refuses a whole document when one
 * required parameter has none, and the harness builds its requests from the examples too.
 */
export function addMissingParameterExamples(spec: JsonObject, fallbacks: Record<string, unknown>): JsonObject {
  const copy = structuredClone(spec);
  const components = copy.components as { parameters?: Record<string, JsonObject> } | undefined;
  for (const parameter of Object.values(components?.parameters ?? {})) fillParameter(parameter, fallbacks);
  for (const item of Object.values(copy.paths as Record<string, JsonObject>)) {
    for (const holder of [item, ...Object.values(item)]) {
      if (holder && typeof holder === "object" && Array.isArray((holder as JsonObject).parameters)) {
        for (const parameter of (holder as { parameters: JsonObject[] }).parameters)
          fillParameter(parameter, fallbacks);
      }
    }
  }
  return copy;
}
