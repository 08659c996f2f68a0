export interface CleanNativeSchemaOptions {
  /** Names the schema in the warning, e.g. `response_format.json_schema.schema`. */
  context: string;
  warnings: string[];
}

/** Keys of the native schema dialect (an OpenAPI 3.0 subset); everything else makes the upstream answer 400. */
const nativeSchemaKeys = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "default",
  "example",
  "properties",
  "required",
  "propertyOrdering",
  "minProperties",
  "maxProperties",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "anyOf",
]);

/** Formats the native dialect knows per type; others (uri, email, uuid, ...) are refused upstream. */
const nativeFormatsByType = new Map([
  ["string", new Set(["enum", "date-time"])],
  ["integer", new Set(["int32", "int64"])],
  ["number", new Set(["float", "double"])],
]);

const maxReferenceDepth = 8;

/**
 * JSON Schema (as OpenAI clients write it) → the native schema dialect, recursively and without touching the input:
 * - keys the dialect does not know ($schema, additionalProperties, strict, $id, oneOf, allOf, not, const after use...)
 *   are removed; the removed names are reported once per schema;
 * - local references (`#/$defs/X`, `#/definitions/X`, as pydantic and zod emit for nested models) are inlined, down
 *   to a fixed depth so a recursive schema ends instead of looping (the cut is reported);
 * - `type: ["string", "null"]` becomes `type: "string", nullable: true`; several non-null types become anyOf;
 * - `const: x` becomes `enum: [x]` (with the type of x when none is given) when there is no enum;
 * - a `format` the dialect does not know for that type is removed.
 * Property names inside `properties` are data, never filtered.
 */
export function cleanNativeSchema(
  schema: Record<string, unknown>,
  options: CleanNativeSchemaOptions,
): Record<string, unknown> {
  const removed = new Set<string>();
  const definitions = { ...asObject(schema.definitions), ...asObject(schema.$defs) };
  let truncated = false;

  const clean = (node: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const current = node;
    if (typeof current.$ref === "string") {
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(current.$ref)?.[1];
      const target = name === undefined ? undefined : asObject(definitions[decodeURIComponent(name)]);
      if (target === undefined || depth >= maxReferenceDepth) {
        removed.add("$ref");
        if (target !== undefined) truncated = true;
      } else {
        // Sibling keys of $ref (a description, say) win over the definition's.
        const { $ref: _reference, ...siblings } = current;
        return clean({ ...target, ...siblings }, depth + 1);
      }
    }
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(current)) {
      if (!nativeSchemaKeys.has(key)) {
        if (key !== "const" || current.enum !== undefined) removed.add(key);
        continue;
      }
      switch (key) {
        case "properties":
          result.properties = Object.fromEntries(
            Object.entries(asObject(value) ?? {}).map(([name, property]) => [name, cleanChild(property, depth)]),
          );
          break;
        case "items":
          if (Array.isArray(value)) {
            removed.add("items (tuple form)");
            break;
          }
          result.items = cleanChild(value, depth);
          break;
        case "anyOf":
          result.anyOf = Array.isArray(value) ? value.map((entry) => cleanChild(entry, depth)) : value;
          break;
        case "type":
          Object.assign(result, convertType(value));
          break;
        default:
          result[key] = value;
      }
    }
    if (current.const !== undefined && current.enum === undefined) {
      result.enum = [current.const];
      // The native dialect reads enum values against a type; a bare enum is refused.
      if (result.type === undefined && result.anyOf === undefined)
        result.type = typeof current.const === "string" ? "string" : typeof current.const;
    }
    if (typeof result.format === "string" && typeof result.type === "string") {
      if (!nativeFormatsByType.get(result.type)?.has(result.format)) {
        removed.add(`format ${result.format}`);
        delete result.format;
      }
    }
    return result;
  };

  const cleanChild = (value: unknown, depth: number): unknown => {
    const object = asObject(value);
    return object === undefined ? value : clean(object, depth);
  };

  const cleaned = clean(schema, 0);
  removed.delete("$defs");
  removed.delete("definitions");
  if (removed.size > 0) {
    options.warnings.push(
      `${options.context}: removed schema keys the native API does not know: ${[...removed].sort().join(", ")}.`,
    );
  }
  if (truncated)
    options.warnings.push(`${options.context}: recursive $ref was cut off after ${maxReferenceDepth} levels.`);
  return cleaned;
}

function convertType(value: unknown): Record<string, unknown> {
  if (!Array.isArray(value)) return { type: value };
  const types = value.filter((type) => type !== "null");
  const nullable = types.length < value.length ? { nullable: true } : {};
  if (types.length === 1) return { type: types[0], ...nullable };
  return { anyOf: types.map((type) => ({ type })), ...nullable };
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
