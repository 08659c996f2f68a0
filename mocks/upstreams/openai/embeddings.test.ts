import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { createEmbeddingVector } from "./create-embedding-vector.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";
import { readJson } from "../shared/read-json.js";

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer();
});
afterAll(() => upstream.close());

async function embed(body: unknown) {
  const response = await fetch(`${upstream.url}/v1/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await readJson(response) };
}

function decodeBase64Floats(encoded: string): number[] {
  const bytes = Buffer.from(encoded, "base64");
  return Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
}

describe("POST /v1/embeddings", () => {
  it("returns deterministic unit vectors of 8 floats with usage", async () => {
    const { status, body } = await embed({ model: "text-embedding-3-small", input: "hello big world" });
    expect(status).toBe(200);
    expect(body).toEqual({
      object: "list",
      data: [{ object: "embedding", index: 0, embedding: createEmbeddingVector("hello big world", 8) }],
      model: "text-embedding-3-small",
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const vector: number[] = body.data[0].embedding;
    expect(vector).toHaveLength(8);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect((await embed({ model: "m", input: "hello big world" })).body.data[0].embedding).toEqual(vector);
    expect((await embed({ model: "m", input: "other" })).body.data[0].embedding).not.toEqual(vector);
  });

  it("encodes base64 as little-endian float32 that decodes to the float vector exactly", async () => {
    const asFloat = await embed({ model: "m", input: ["a", "b c"], dimensions: 12 });
    const asBase64 = await embed({ model: "m", input: ["a", "b c"], dimensions: 12, encoding_format: "base64" });
    expect(asBase64.body.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    expect(asBase64.body.data).toHaveLength(2);
    asBase64.body.data.forEach((item: { index: number; embedding: string }, position: number) => {
      expect(item.index).toBe(position);
      expect(typeof item.embedding).toBe("string");
      expect(decodeBase64Floats(item.embedding)).toEqual(asFloat.body.data[position].embedding);
    });
  });

  it("accepts token arrays and counts their length", async () => {
    const { body } = await embed({ model: "m", input: [[1, 2, 3], [4]] });
    expect(body.usage.prompt_tokens).toBe(4);
    expect(body.data[1].embedding).toEqual(createEmbeddingVector("[4]", 8));
  });

  it.each([
    [{ model: "m" }, "missing_required_parameter"],
    [{ model: "m", input: "" }, null],
    [{ model: "m", input: "x", encoding_format: "hex" }, "invalid_value"],
    [{ model: "m", input: "x", dimensions: 0 }, "integer_below_min_value"],
  ])("rejects %j", async (body, code) => {
    const result = await embed(body);
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe(code);
    expect(result.body.error.type).toBe("invalid_request_error");
  });
});
