import { describe, expect, it } from "vitest";
import { relaxMapExamples } from "./relax-map-examples.js";

const document = {
  components: {
    schemas: {
      Keys: { type: "object", additionalProperties: { type: "string" } },
      Wrapper: {
        allOf: [
          { type: "object", required: ["success"], properties: { success: { type: "boolean" } } },
          { type: "object", required: ["data"], properties: { data: { $ref: "#/components/schemas/Data" } } },
        ],
      },
      Data: {
        type: "object",
        required: ["keys", "items"],
        properties: {
          keys: { $ref: "#/components/schemas/Keys" },
          items: { type: "array", items: { $ref: "#/components/schemas/Item" } },
          nextPageToken: { type: "string" },
        },
      },
      Item: {
        oneOf: [
          { type: "null" },
          {
            type: "object",
            required: ["mapping", "name"],
            properties: {
              mapping: { type: "object", additionalProperties: { type: "string" } },
              name: { type: "string" },
              description: { type: "string" },
            },
          },
        ],
      },
    },
  },
};

describe("relaxMapExamples", () => {
  it("empties maps at any depth, through $ref, allOf, oneOf and arrays, and keeps everything else", () => {
    const example = {
      success: true,
      data: { keys: { "42": "abc" }, items: [{ mapping: { "gmx-2.5-flash": "gmx-2.5-flash-001" }, name: "n" }] },
    };
    expect(relaxMapExamples(example, { $ref: "#/components/schemas/Wrapper" }, document)).toEqual({
      success: true,
      data: { keys: {}, items: [{ mapping: {}, name: "n" }] },
    });
  });

  it("keeps only the required keys, so optional fields an answer may omit are not demanded", () => {
    const example = {
      success: true,
      data: { keys: {}, items: [{ mapping: {}, name: "n", description: "optional" }], nextPageToken: "page-2" },
    };
    expect(relaxMapExamples(example, { $ref: "#/components/schemas/Wrapper" }, document)).toEqual({
      success: true,
      data: { keys: {}, items: [{ mapping: {}, name: "n" }] },
    });
  });

  it("returns the example unchanged without a schema", () => {
    expect(relaxMapExamples({ a: { b: 1 } }, undefined, document)).toEqual({ a: { b: 1 } });
  });
});
