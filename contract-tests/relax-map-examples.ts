type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(document: JsonObject, schema: unknown): JsonObject | undefined {
  let current = schema;
  for (let depth = 0; depth < 20 && isObject(current) && typeof current.$ref === "string"; depth += 1) {
    current = current.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, segment) => (isObject(node) ? node[segment.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined),
        document,
      );
  }
  return isObject(current) ? current : undefined;
}

/** The members a value may match: allOf merged into one, each oneOf/anyOf member on its own. */
function candidates(document: JsonObject, schema: unknown): JsonObject[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as unknown[] | undefined;
  if (alternatives) return alternatives.flatMap((member) => candidates(document, member));
  if (Array.isArray(resolved.allOf)) {
    const merged: JsonObject = {
      ...resolved,
      properties: { ...(resolved.properties as JsonObject) },
      required: [...((resolved.required as string[] | undefined) ?? [])],
    };
    for (const member of resolved.allOf.flatMap((part) => candidates(document, part))) {
      Object.assign(merged.properties as JsonObject, member.properties);
      (merged.required as string[]).push(...((member.required as string[] | undefined) ?? []));
      if (member.additionalProperties !== undefined) merged.additionalProperties ??= member.additionalProperties;
      if (member.items !== undefined) merged.items ??= member.items;
    }
    return [merged];
  }
  return [resolved];
}

/**
 * Dredd 14 treats every key of an example object as required. That is wrong twice: for maps (`additionalProperties`
 * without `properties`, such as id → key or model → model) the example keys are data, and for optional properties
 * (a native answer omits zero-valued fields; a list has no `nextPageToken` on its last page) the example shows more
 * than every answer holds. This returns the example with each map emptied and only the schema's required keys
 * kept, so Dredd checks what every answer must carry; Prism's proxy checks the full schema.
 */
export function relaxMapExamples(example: unknown, schema: unknown, document: JsonObject): unknown {
  if (Array.isArray(example)) {
    const items = candidates(document, schema).find((candidate) => candidate.items !== undefined)?.items;
    return items === undefined ? example : example.map((item) => relaxMapExamples(item, items, document));
  }
  if (!isObject(example)) return example;
  const options = candidates(document, schema);
  const keys = Object.keys(example);
  const match =
    options.find(
      (option) => isObject(option.properties) && keys.every((key) => key in (option.properties as JsonObject)),
    ) ??
    options.find((option) => isObject(option.properties)) ??
    options[0];
  if (!match) return example;
  if (!isObject(match.properties) && match.additionalProperties !== undefined && match.additionalProperties !== false)
    return {};
  const properties = (match.properties as JsonObject | undefined) ?? {};
  const required = new Set(Array.isArray(match.required) ? (match.required as string[]) : []);
  return Object.fromEntries(
    Object.entries(example)
      .filter(([key]) => required.has(key) || !(key in properties))
      .map(([key, value]) => [key, key in properties ? relaxMapExamples(value, properties[key], document) : value]),
  );
}
