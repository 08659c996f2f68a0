import { describe, expect, it } from "vitest";
import { cleanNativeSchema } from "./clean-native-schema.js";
import { deepMergeNativePatch } from "./deep-merge-native-patch.js";
import { describeThinkingModel } from "../shared/describe-thinking-model.js";
import { parseModelSuffix } from "../../../models/parse-model-suffix.js";

describe("deepMergeNativePatch", () => {
  it("merges maps, replaces scalars, arrays and null, keeps base-only keys, and modifies neither input", () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: true } }, keep: "x" };
    const patch = { a: { c: [3], d: null, f: 2 }, g: [] };
    const baseCopy = structuredClone(base);
    const patchCopy = structuredClone(patch);
    expect(deepMergeNativePatch(base, patch)).toEqual({ a: { b: 1, c: [3], d: null, f: 2 }, keep: "x", g: [] });
    expect(base).toEqual(baseCopy);
    expect(patch).toEqual(patchCopy);
  });

  it("keeps a __proto__ key from JSON as data instead of changing the prototype", () => {
    const merged = deepMergeNativePatch(
      { contents: [] },
      JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
    );
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(merged, "__proto__")).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe("parseModelSuffix", () => {
  it.each([
    ["gmx-2.5-flash", { upstreamModel: "gmx-2.5-flash" }],
    ["gmx-2.5-flash-thinking", { upstreamModel: "gmx-2.5-flash", suffix: { kind: "thinking" } }],
    ["gmx-2.5-flash-thinking-8192", { upstreamModel: "gmx-2.5-flash", suffix: { kind: "budget", budget: 8192 } }],
    ["gmx-2.5-flash-thinking-low", { upstreamModel: "gmx-2.5-flash", suffix: { kind: "level", level: "LOW" } }],
    [
      "gmx-3-flash-preview-thinking-high",
      { upstreamModel: "gmx-3-flash-preview", suffix: { kind: "level", level: "HIGH" } },
    ],
    ["gmx-2.5-flash-nothinking", { upstreamModel: "gmx-2.5-flash", suffix: { kind: "nothinking" } }],
    ["gmx-2.0-flash-thinking-exp", { upstreamModel: "gmx-2.0-flash-thinking-exp" }],
  ])("%s", (model, expected) => {
    expect(parseModelSuffix(model)).toEqual(expected);
  });
});

describe("describeThinkingModel", () => {
  it.each([
    ["gmx-2.5-flash", { generation: "2.5", minBudget: 1, maxBudget: 24576, canDisable: true }],
    ["gmx-2.5-flash-lite", { generation: "2.5", minBudget: 512, maxBudget: 24576, canDisable: true }],
    ["gmx-2.5-pro", { generation: "2.5", minBudget: 128, maxBudget: 32768, canDisable: false }],
    ["gmx-3-flash-preview", { generation: "3" }],
    ["gmx-3.1-pro-preview", { generation: "3" }],
    ["gmx-3.5-flash", { generation: "3" }],
    ["gmx-2.0-flash", { generation: "none" }],
    ["gmx-flash-latest", { generation: "none" }],
  ])("%s", (model, expected) => {
    expect(describeThinkingModel(model)).toEqual(expected);
  });
});

describe("cleanNativeSchema", () => {
  it("cuts a recursive $ref off instead of looping, and says so", () => {
    const warnings: string[] = [];
    const schema = {
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/Node" } } } },
    };
    const cleaned = cleanNativeSchema(schema, { context: "test", warnings });
    let depth = 0;
    for (
      let node = cleaned as { properties?: { next?: unknown } };
      node.properties?.next !== undefined;
      node = node.properties.next as typeof node
    )
      depth += 1;
    expect(depth).toBe(8);
    expect(warnings).toEqual([
      "test: removed schema keys the native API does not know: $ref.",
      "test: recursive $ref was cut off after 8 levels.",
    ]);
  });

  it("does not modify its input", () => {
    const schema = { type: "object", additionalProperties: false, properties: { a: { type: ["string", "null"] } } };
    const copy = structuredClone(schema);
    cleanNativeSchema(schema, { context: "test", warnings: [] });
    expect(schema).toEqual(copy);
  });
});
