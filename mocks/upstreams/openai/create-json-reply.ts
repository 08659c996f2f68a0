function fillSchemaValue(schema: Record<string, unknown> | undefined, text: string): unknown {
  switch (schema?.type) {
    case "number":
    case "integer":
      return text.split(" ").length;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return text;
  }
}

/**
 * The JSON content for response_format: `{"echo": text}` for json_object; for json_schema, every declared
 * property filled by type (string → text, number → word count, boolean → true, array → [], object → {}).
 */
export function createJsonReply(text: string, schema?: Record<string, unknown>): string {
  const properties = schema?.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties || Object.keys(properties).length === 0) return JSON.stringify({ echo: text });
  const reply: Record<string, unknown> = {};
  for (const [name, propertySchema] of Object.entries(properties)) reply[name] = fillSchemaValue(propertySchema, text);
  return JSON.stringify(reply);
}
