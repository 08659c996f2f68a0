import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { convertEmbeddingRequestToNative } from "./convert-embedding-request-to-native.js";
import { convertNativeEmbeddingsToOpenai } from "../../shared-translations/convert-native-embeddings-to-openai.js";
import { encodeEmbeddingAsBase64 } from "../../shared-translations/encode-embedding-as-base64.js";
import { estimateEmbeddingTokens } from "../../shared-translations/estimate-embedding-tokens.js";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";

const validate = createOpenaiSchemaValidator();
/** Recorded from the fake native upstream: two inputs, 8 dimensions each. */
const recordedBatch = JSON.parse(
  readFileSync(new URL("../__fixtures__/embed-batch.json", import.meta.url), "utf8"),
) as {
  embeddings: Array<{ values: number[] }>;
};

describe("convertEmbeddingRequestToNative", () => {
  it("sends one embed request per input string, naming the upstream model, with dimensions as outputDimensionality", () => {
    expect(
      convertEmbeddingRequestToNative(
        { model: "gmx-embed", input: ["alpha", "beta gamma"], dimensions: 4, user: "u-1" },
        "gmx-embedding-001",
      ),
    ).toEqual([
      {
        requests: [
          { model: "models/gmx-embedding-001", content: { parts: [{ text: "alpha" }] }, outputDimensionality: 4 },
          { model: "models/gmx-embedding-001", content: { parts: [{ text: "beta gamma" }] }, outputDimensionality: 4 },
        ],
      },
    ]);
  });

  it("treats a single string as one input and leaves outputDimensionality out when dimensions is absent", () => {
    expect(convertEmbeddingRequestToNative({ model: "m", input: "hello" }, "gmx-embedding-001")).toEqual([
      { requests: [{ model: "models/gmx-embedding-001", content: { parts: [{ text: "hello" }] } }] },
    ]);
  });

  it("splits more than 100 inputs into batches of 100, keeping input order", () => {
    const input = Array.from({ length: 205 }, (_, index) => `text ${index}`);
    const batches = convertEmbeddingRequestToNative({ model: "m", input }, "gmx-embedding-001");
    expect(batches.map((batch) => batch.requests.length)).toEqual([100, 100, 5]);
    expect(batches.flatMap((batch) => batch.requests.map((request) => request.content.parts[0]!.text))).toEqual(input);
  });

  it("refuses token-id input with a 400 naming input", () => {
    for (const input of [
      [1, 2, 3],
      [[1, 2], [3]],
    ]) {
      const error = (() => {
        try {
          convertEmbeddingRequestToNative({ model: "m", input }, "gmx-embedding-001");
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).param).toBe("input");
    }
  });
});

describe("convertNativeEmbeddingsToOpenai", () => {
  it.each(["float", "base64"] as const)("converts the recorded batch as %s", async (encodingFormat) => {
    const converted = convertNativeEmbeddingsToOpenai(recordedBatch.embeddings, {
      model: "gmx-embedding-001",
      encodingFormat,
      promptTokens: 5,
    });
    expect(validate("CreateEmbeddingResponse", converted)).toEqual([]);
    await expect(`${JSON.stringify(converted, null, 2)}\n`).toMatchFileSnapshot(
      `../__fixtures__/expected/embed-batch.${encodingFormat}.json`,
    );
  });

  it("encodes base64 as little-endian float32 that decodes to the float32-rounded values", () => {
    const values = recordedBatch.embeddings[0]!.values;
    const bytes = Buffer.from(encodeEmbeddingAsBase64(values), "base64");
    expect(bytes.length).toBe(values.length * 4);
    const decoded = Array.from({ length: values.length }, (_, index) => bytes.readFloatLE(index * 4));
    expect(decoded).toEqual(values.map((value) => Math.fround(value)));
    expect(encodeEmbeddingAsBase64([1, -2])).toBe("AACAPwAAAMA=");
  });
});

describe("estimateEmbeddingTokens", () => {
  it("counts 4 ASCII characters a token, each other character a token, at least 1 per input", () => {
    expect(estimateEmbeddingTokens(["vector me"])).toBe(3);
    expect(estimateEmbeddingTokens(["", "a"])).toBe(2);
    expect(estimateEmbeddingTokens(["日本語 ok"])).toBe(3 + 1);
    expect(estimateEmbeddingTokens(["😀"])).toBe(1);
  });
});
