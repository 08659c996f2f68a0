import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { rejectionOf } from "../../../../test/support/rejection-of.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { convertResponsesRequestToNative } from "./convert-responses-request-to-native.js";

type ResponsesRequest = OpenaiComponents["schemas"]["CreateResponseRequest"];

/**
 * Fixture pairs in __fixtures__/responses-to-native: `<group>.request.json` maps case names to Responses requests,
 * `<group>.expected.json` the same names to the exact native request (body, model, thoughts flag, warnings). Run
 * vitest with -u to rewrite the expected files after an intended change, then review the diff.
 */
const fixtureDirectory = fileURLToPath(new URL("../__fixtures__/responses-to-native/", import.meta.url));
const groups = readdirSync(fixtureDirectory)
  .filter((name) => name.endsWith(".request.json"))
  .map((name) => name.slice(0, -".request.json".length))
  .sort();

const fakeFetchMedia: FetchMedia = async (url) => {
  if (url === "https://media.example.com/cat.jpg") return { mimeType: "image/jpeg", data: Buffer.from("fake jpeg") };
  throw new Error(`unexpected download of ${url}`);
};

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;
const convert = (request: ResponsesRequest) =>
  convertResponsesRequestToNative({
    request,
    model: request.model,
    safetySettings: undefined,
    fetchMedia: fakeFetchMedia,
  });

describe.each(groups)("Responses → native fixtures: %s", (group) => {
  const requests = readJson<Record<string, ResponsesRequest>>(`${fixtureDirectory}${group}.request.json`);
  const expectedPath = `${fixtureDirectory}${group}.expected.json`;
  it("converts every case as the expected file records", async () => {
    const results: Record<string, unknown> = {};
    for (const [name, request] of Object.entries(requests)) results[name] = await convert(request);
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot(expectedPath);
  });
});

describe("Responses → native refusals", () => {
  const refusal = (request: Partial<ResponsesRequest>) =>
    rejectionOf(convert({ model: "gmx-2.5-flash", input: "hi", ...request } as ResponsesRequest), InvalidRequestError);

  it("refuses previous_response_id with a message saying to send the whole conversation", async () => {
    const error = await refusal({ previous_response_id: "resp_123" });
    expect(error.param).toBe("previous_response_id");
    expect(error.message).toBe(
      "previous_response_id is not supported for gmx-2.5-flash: the gateway keeps no conversation store for this model family. Send the whole conversation in input (earlier output items included).",
    );
  });

  it("refuses file_search, which has no native equivalent", async () => {
    const error = await refusal({ tools: [{ type: "file_search", vector_store_ids: ["vs_1"] }] });
    expect(error.param).toBe("tools[0].type");
  });

  it("refuses upstream file ids", async () => {
    const error = await refusal({
      input: [{ role: "user", content: [{ type: "input_image", file_id: "file_1" }] }],
    });
    expect(error.param).toBe("input[0].content[0].file_id");
  });

  it("refuses a function_call_output whose call_id matches no earlier call", async () => {
    const error = await refusal({ input: [{ type: "function_call_output", call_id: "call_x", output: "1" }] });
    expect(error.message).toContain('"call_x" does not match');
  });
});
