type JsonObject = Record<string, unknown>;

// Keywords OpenAPI 3.0's Schema Object does not have and whose meaning cannot be carried over; Dredd 14's parser
// warns on each (or fails), and they never affect which keys Dredd checks.
const droppedSchemaKeywords = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "contentSchema",
  "contentMediaType",
  "contentEncoding",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "if",
  "then",
  "else",
  "x-sse-event-schema",
]);

// Values that are data, not description: never rewritten, or an example with a field named `type` would change.
const literalKeys = new Set(["example", "default", "enum", "value"]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNullSchema(value: unknown): boolean {
  return (
    isObject(value) &&
    value.type === "null" &&
    Object.keys(value).every((key) => key === "type" || key === "description")
  );
}

function convertSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const converted: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (droppedSchemaKeywords.has(key)) continue;
    switch (key) {
      case "type": {
        if (!Array.isArray(value)) {
          if (value === "null") converted.nullable = true;
          else converted.type = value;
          break;
        }
        const types = value.filter((type) => type !== "null");
        if (types.length < value.length) converted.nullable = true;
        if (types.length === 1) converted.type = types[0];
        else if (types.length > 1) converted.anyOf = types.map((type) => ({ type }));
        break;
      }
      case "const":
        converted.enum = [value];
        break;
      case "examples":
        if (Array.isArray(value)) {
          if (value.length > 0 && schema.example === undefined) converted.example = value[0];
        } else converted.examples = value;
        break;
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        if (typeof value === "number") {
          converted[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
          converted[key] = true;
        } else converted[key] = value;
        break;
      case "properties":
        converted.properties = Object.fromEntries(
          Object.entries(value as JsonObject).map(([name, property]) => [name, convertSchema(property)]),
        );
        break;
      case "items":
      case "not":
        converted[key] = convertSchema(value);
        break;
      case "additionalProperties":
        converted[key] = isObject(value) ? convertSchema(value) : value;
        break;
      case "allOf":
      case "anyOf":
      case "oneOf": {
        const members = (value as unknown[]).filter((member) => !isNullSchema(member));
        if (members.length < (value as unknown[]).length) converted.nullable = true;
        converted[key] = members.map(convertSchema);
        break;
      }
      default:
        converted[key] = value;
    }
  }
  return converted;
}

function convertDocumentNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertDocumentNode);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !droppedSchemaKeywords.has(key))
      .map(([key, value]) => {
        if (key === "schema") return [key, convertSchema(value)];
        if (literalKeys.has(key)) return [key, value];
        return [key, convertDocumentNode(value)];
      }),
  );
}

/**
 * A copy of an OpenAPI 3.1 document in 3.0.3 form, for tools that only read 3.0 (Dredd 14): type arrays with
 * "null" become `nullable`, `const` a one-value `enum`, schema `examples` arrays an `example`, 3.1-only keywords
 * are dropped. Lossy on purpose: the copy is for example-driven tools, never for validation.
 */
export function convertOpenapi31To30(document: JsonObject): JsonObject {
  const { webhooks: _webhooks, jsonSchemaDialect: _dialect, components, ...rest } = document;
  const converted = convertDocumentNode(rest) as JsonObject;
  converted.openapi = "3.0.3";
  if (isObject(components)) {
    const { pathItems: _pathItems, schemas, ...otherComponents } = components;
    converted.components = {
      ...(convertDocumentNode(otherComponents) as JsonObject),
      ...(isObject(schemas)
        ? {
            schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, convertSchema(schema)])),
          }
        : {}),
    };
  }
  if (isObject(converted.info)) {
    const { summary: _summary, ...info } = converted.info;
    if (isObject(info.license)) {
      const { identifier: _identifier, ...license } = info.license;
      info.license = license;
    }
    converted.info = info;
  }
  return converted;
}
