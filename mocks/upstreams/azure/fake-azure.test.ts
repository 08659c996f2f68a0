import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { startFakeAzureServer } from "./start-fake-azure-server.js";

const apiKey = "fake-azure-key-0123456789";
let azure: FakeUpstream;

beforeAll(async () => {
  azure = await startFakeAzureServer({ apiKey, deployments: { "my-gpt4o": "gpt-4o" } });
});
afterAll(() => azure.close());

async function post(path: string, body: object, headers: Record<string, string> = { "api-key": apiKey }) {
  const answer = await request(`${azure.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const parsed = (await answer.body.json()) as {
    error: { code: string; innererror: { code: string } };
    prompt_filter_results?: unknown[];
    choices: Array<{ content_filter_results?: unknown }>;
  };
  return { status: answer.statusCode, body: parsed };
}

const chat = { messages: [{ role: "user", content: "hi there" }] };

describe("the fake Azure OpenAI resource", () => {
  it("checks the api-key header as Azure does (a Bearer token is not a key)", async () => {
    const path = "/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21";
    expect((await post(path, chat, {})).status).toBe(401);
    expect((await post(path, chat, { "api-key": "wrong" })).body.error.code).toBe("401");
    expect((await post(path, chat, { authorization: `Bearer ${apiKey}` })).status).toBe(401);
    const answer = await post(path, chat);
    expect(answer.status).toBe(200);
    expect(answer.body.prompt_filter_results).toHaveLength(1);
    expect(answer.body.choices[0].content_filter_results).toBeDefined();
  });

  it("checks the path, the api-version and the deployment", async () => {
    expect((await post("/openai/deployments/my-gpt4o/chat/completions", chat)).status).toBe(404);
    expect((await post("/openai/deployments/my-gpt4o/chat/completions?api-version=1999-01-01", chat)).status).toBe(404);
    const unknown = await post("/openai/deployments/other/chat/completions?api-version=2024-10-21", chat);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "DeploymentNotFound"]);
    expect((await post("/openai/deployments/my-gpt4o/responses?api-version=2024-10-21", { input: "x" })).status).toBe(
      404,
    );
    expect((await post("/openai/responses?api-version=2024-10-21", { model: "my-gpt4o", input: "x" })).status).toBe(
      404,
    );
    expect(
      (await post("/openai/responses?api-version=2025-04-01-preview", { model: "my-gpt4o", input: "x" })).status,
    ).toBe(200);
    expect((await post("/openai/v1/chat/completions", { ...chat, model: "my-gpt4o" })).status).toBe(200);
    expect((await post("/openai/v1/chat/completions", { ...chat, model: "gpt-4o" })).status).toBe(404);
  });

  it("refuses a prompt its content filter catches with Azure's 400 content_filter, and injects faults", async () => {
    const filtered = await post("/openai/v1/chat/completions", {
      model: "my-gpt4o",
      messages: [{ role: "user", content: "forbidden-topic" }],
    });
    expect([filtered.status, filtered.body.error.code, filtered.body.error.innererror.code]).toEqual([
      400,
      "content_filter",
      "ResponsibleAIPolicyViolation",
    ]);
    azure.setFaults({ status: 429, times: 1 });
    const limited = await post("/openai/v1/chat/completions", { ...chat, model: "my-gpt4o" });
    expect([limited.status, limited.body.error.code]).toEqual([429, "429"]);
  });
});
