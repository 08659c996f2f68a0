import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";
import { readJson } from "../shared/read-json.js";

let open: FakeUpstream;
let guarded: FakeUpstream;

beforeAll(async () => {
  open = await startFakeOpenaiServer();
  guarded = await startFakeOpenaiServer({ apiKey: "sk-test-secret-key" });
});
afterAll(async () => {
  await open.close();
  await guarded.close();
});

describe("models, routing and authentication", () => {
  it("lists models and retrieves one", async () => {
    const list = await readJson(await fetch(`${open.url}/v1/models`));
    expect(list.object).toBe("list");
    expect(list.data[0]).toEqual({ id: "gpt-4o-mini", object: "model", created: 1_700_000_000, owned_by: "system" });
    const one = await fetch(`${open.url}/v1/models/text-embedding-3-small`);
    expect((await readJson(one)).id).toBe("text-embedding-3-small");
    const missing = await fetch(`${open.url}/v1/models/nope`);
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.code).toBe("model_not_found");
  });

  it("answers unknown paths with OpenAI's 404 envelope and sets x-request-id", async () => {
    const response = await fetch(`${open.url}/v1/unknown`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toMatch(/^req_fake\d{6}$/);
    expect(await readJson(response)).toEqual({
      error: { message: "Invalid URL (POST /v1/unknown)", type: "invalid_request_error", param: null, code: null },
    });
  });

  it("answers a body that is not JSON with OpenAI's parse error", async () => {
    const response = await fetch(`${open.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toMatch(/^We could not parse the JSON body of your request\./);
  });

  it("requires the bearer key when one is configured", async () => {
    const withoutKey = await fetch(`${guarded.url}/v1/models`);
    expect(withoutKey.status).toBe(401);
    expect((await readJson(withoutKey)).error).toMatchObject({ type: "invalid_request_error", code: null });

    const wrongKey = await fetch(`${guarded.url}/v1/models`, {
      headers: { authorization: "Bearer sk-wrong-key-123456" },
    });
    expect(wrongKey.status).toBe(401);
    const wrongBody = await readJson(wrongKey);
    expect(wrongBody.error.code).toBe("invalid_api_key");
    expect(wrongBody.error.message).toBe(
      "Incorrect API key provided: sk-************3456. You can find your API key at https://platform.openai.com/account/api-keys.",
    );

    const rightKey = await fetch(`${guarded.url}/v1/models`, {
      headers: { authorization: "Bearer sk-test-secret-key" },
    });
    expect(rightKey.status).toBe(200);
    expect(guarded.requests.at(-1)?.headers.authorization).toBe("Bearer sk-test-secret-key");
  });
});
