import type { NativeSchema } from "./native-request-types.js";

/**
 * A deterministic value that satisfies a native (OpenAPI-subset) or JSON schema: strings take `seedText`,
 * numbers 1, booleans true, enums their first value, arrays one item, objects every declared property.
 */
export function generateValueFromSchema(schema: NativeSchema | undefined, seedText: string): unknown {
  if (!schema || typeof schema !== "object") return seedText;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(
    Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? "object" : "string")),
  ).toLowerCase();
  switch (type) {
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        value[name] = generateValueFromSchema(property, seedText);
      return value;
    }
    case "array":
      return [generateValueFromSchema(schema.items, seedText)];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return seedText;
  }
}
