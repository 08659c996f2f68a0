import { describe, expect, it } from "vitest";
import { relaxMapExamples } from "./relax-map-examples.js";

const document = {
  components: {
    schemas: {
      Keys: { type: "object", additionalProperties: { type: "string" } },
      Wrapper: { allOf: [{ type: "object", properties: { success: { type: "boolean" } } }, { type: "object", properties: { data: { $ref: "#/components/schemas/Data" } } }] },
      Data: { type: "object", properties: { keys: { $ref: "#/components/schemas/Keys" }, items: { type: "array", items: { $ref: "#/components/schemas/Item" } } } },
      Item: { oneOf: [{ type: "null" }, { type: "object", properties: { mapping: { type: "object", additionalProperties: { type: "string" } }, name: { type: "string" } } }] },
    },
  },
};

describe("relaxMapExamples", () => {
  it("empties maps at any depth, through $ref, allOf, oneOf and arrays, and keeps everything else", () => {
    const example = { success: true, data: { keys: { "42": "abc" }, items: [{ mapping: { "gmx-2.5-flash": "gmx-2.5-flash-001" }, name: "n" }] } };
    expect(relaxMapExamples(example, { $ref: "#/components/schemas/Wrapper" }, document)).toEqual({
      success: true,
      data: { keys: {}, items: [{ mapping: {}, name: "n" }] },
    });
  });

  it("returns the example unchanged without a schema", () => {
    expect(relaxMapExamples({ a: { b: 1 } }, undefined, document)).toEqual({ a: { b: 1 } });
  });
});
