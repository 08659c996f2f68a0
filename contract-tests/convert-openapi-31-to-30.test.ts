import { describe, expect, it } from "vitest";
import { convertOpenapi31To30 } from "./convert-openapi-31-to-30.js";

function documentWith(schema: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1", summary: "s", license: { name: "MIT", identifier: "MIT" } },
    webhooks: {},
    paths: {
      "/x": {
        post: {
          requestBody: { content: { "application/json": { schema, example: { type: ["kept", "null"], const: 1 } } } },
          responses: {
            "200": {
              description: "ok",
              content: {
                "text/event-stream": {
                  schema: { type: "string", contentSchema: { $ref: "#/components/schemas/S" } },
                  "x-sse-event-schema": { type: "object" },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { S: schema }, pathItems: {} },
    ...extra,
  };
}

describe("convertOpenapi31To30", () => {
  it("rewrites the header and drops 3.1-only document fields", () => {
    const converted = convertOpenapi31To30(documentWith({ type: "string" }));
    expect(converted.openapi).toBe("3.0.3");
    expect(converted.info).toEqual({ title: "t", version: "1", license: { name: "MIT" } });
    expect(converted).not.toHaveProperty("webhooks");
    expect(converted.components).not.toHaveProperty("pathItems");
  });

  it("turns type arrays with null into nullable, const into enum, examples into example", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: ["string", "null"], examples: ["alice", "bob"] },
        kind: { const: "chat.completion" },
        either: { type: ["string", "integer"] },
        usage: { oneOf: [{ type: "null", description: "none" }, { $ref: "#/components/schemas/U" }] },
        count: { type: "integer", exclusiveMinimum: 0 },
        keys: {
          type: "object",
          propertyNames: { pattern: "^[0-9]+$" },
          additionalProperties: { type: ["string", "null"] },
        },
      },
    };
    const converted = convertOpenapi31To30(documentWith(schema)) as {
      components: { schemas: { S: { properties: Record<string, unknown> } } };
    };
    expect(converted.components.schemas.S.properties).toEqual({
      name: { type: "string", nullable: true, example: "alice" },
      kind: { enum: ["chat.completion"] },
      either: { anyOf: [{ type: "string" }, { type: "integer" }] },
      usage: { nullable: true, oneOf: [{ $ref: "#/components/schemas/U" }] },
      count: { type: "integer", minimum: 0, exclusiveMinimum: true },
      keys: { type: "object", additionalProperties: { type: "string", nullable: true } },
    });
  });

  it("leaves example data alone and drops SSE-only schema annotations", () => {
    const converted = convertOpenapi31To30(documentWith({ type: "object" })) as {
      paths: {
        "/x": {
          post: {
            requestBody: { content: Record<string, { example: unknown }> };
            responses: { "200": { content: Record<string, unknown> } };
          };
        };
      };
    };
    expect(converted.paths["/x"].post.requestBody.content["application/json"].example).toEqual({
      type: ["kept", "null"],
      const: 1,
    });
    expect(converted.paths["/x"].post.responses["200"].content["text/event-stream"]).toEqual({
      schema: { type: "string" },
    });
  });

  it("does not modify its input", () => {
    const input = documentWith({ type: ["string", "null"] });
    const before = JSON.stringify(input);
    convertOpenapi31To30(input);
    expect(JSON.stringify(input)).toBe(before);
  });
});
