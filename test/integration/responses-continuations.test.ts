import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

type Json = Record<string, any>;

/**
 * Continuations of stored responses. Two OpenAI channels stand for two upstream accounts (their fakes make distinct
 * ids and hold only what they made, answering 404/400 for the rest, as OpenAI does): `previous_response_id` and
 * `item_reference` go to the channel that made what they name, even when routing would prefer the other; a channel
 * that can no longer serve gets a 400 naming the field. The Vercel AI SDK's stored two-turn conversation
 * (`item_reference` for the earlier answer) works end to end; the native family refuses `item_reference`.
 */
describe.each(testDatabases)("Responses continuations on $name", ({ database }) => {
  let accountA: FakeUpstream;
  let accountB: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  const post = async (body: Json) => {
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: body.stream ? {} : (JSON.parse(text) as Json) };
  };
  let accountBId: number;

  beforeAll(async () => {
    accountA = await startFakeOpenaiServer({ apiKey: "key-a", idInfix: "_a" });
    accountB = await startFakeOpenaiServer({ apiKey: "key-b", idInfix: "_b" });
    native = await startFakeNativeServer({ apiKey: "native-key" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "account-a",
            type: "openai",
            base_url: accountA.url,
            key: "key-a",
            models: ["gpt-4o-mini"],
            priority: 10,
          },
          { name: "native", type: "native", base_url: native.url, key: "native-key", models: ["gmx-2.5-flash"] },
        ],
        pricing: { "gpt-4o-mini": { input: 1, output: 2 }, "gmx-2.5-flash": { input: 1, output: 2 } },
      },
    });
    // Account B is made through the admin API, so the test can remove it.
    const created = await gateway.client.management.POST("/api/channel/", {
      body: {
        name: "account-b",
        type: "openai",
        base_url: accountB.url,
        key: "key-b",
        models: ["gpt-4o-mini"],
        priority: 5,
      },
    });
    expect(created.response.status).toBe(200);
    accountBId = created.data!.data!.id;
    apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gateway.close();
    await accountA.close();
    await accountB.close();
    await native.close();
  });

  it("sends previous_response_id and item_reference to the account that made the response, though routing prefers another", async () => {
    // The first turn fails over to account B (A answers 500 once), streamed: its ids are noted from the events.
    accountA.setFaults({ status: 500, times: 1 });
    const first = await post({ model: "gpt-4o-mini", input: "hello there", stream: true });
    expect(first.status).toBe(200);
    const completed = first.text
      .split("\n\n")
      .filter((block) => block.startsWith("event: response.completed"))
      .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)) as Json)[0]!;
    const responseId = completed.response.id as string;
    const messageId = completed.response.output.find((item: Json) => item.type === "message").id as string;
    expect(responseId).toMatch(/^resp_fake_b/);
    const requestsOnA = accountA.requests.length;
    const requestsOnB = accountB.requests.length;

    const second = await post({ model: "gpt-4o-mini", input: "and then?", previous_response_id: responseId });
    expect(second.status).toBe(200);
    expect(second.body.output_text ?? second.body.output[0].content[0].text).toContain(`(after ${responseId})`);
    expect(accountB.requests.length).toBe(requestsOnB + 1);
    expect(accountB.requests.at(-1)!.body).toMatchObject({ previous_response_id: responseId });

    const third = await post({
      model: "gpt-4o-mini",
      input: [
        { role: "user", content: "hello there" },
        { type: "item_reference", id: messageId },
        { role: "user", content: "once more" },
      ],
    });
    expect(third.status).toBe(200);
    expect(accountB.requests.length).toBe(requestsOnB + 2);
    expect(accountB.requests.at(-1)!.body).toMatchObject({
      input: [{}, { type: "item_reference", id: messageId }, {}],
    });
    // Account A, which routing prefers, saw only the first turn's failed try.
    expect(accountA.requests.length).toBe(requestsOnA);

    // Ids made on two accounts cannot be continued in one request.
    const secondOnA = await post({ model: "gpt-4o-mini", input: "hello a" });
    const mixed = await post({
      model: "gpt-4o-mini",
      input: [
        { type: "item_reference", id: secondOnA.body.output[0].id },
        { role: "user", content: "hi" },
      ],
      previous_response_id: responseId,
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatchObject({ type: "invalid_request_error", param: "input[0].id" });

    // When the account that made it is gone, a clear 400 names the field, and no upstream is asked.
    const removal = await gateway.client.management.DELETE("/api/channel/{id}", {
      params: { path: { id: accountBId } },
    });
    expect(removal.response.status).toBe(200);
    const before = accountA.requests.length + accountB.requests.length;
    const orphan = await post({ model: "gpt-4o-mini", input: "still there?", previous_response_id: responseId });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toMatchObject({ type: "invalid_request_error", param: "previous_response_id" });
    expect(orphan.body.error.message).toContain("can no longer serve gpt-4o-mini");
    expect(accountA.requests.length + accountB.requests.length).toBe(before);
  });

  it("holds a stored two-turn conversation of the Vercel AI SDK, whose second turn names the first answer by item_reference", async () => {
    const provider = createOpenAI({ apiKey, baseURL: `${gateway.url}/v1` });
    const model = provider.responses("gpt-4o-mini");
    const first = await generateText({ model, prompt: "hello there", maxRetries: 0 });
    expect(first.text).toBe("Echo: hello there");
    const second = await generateText({
      model,
      messages: [
        { role: "user", content: "hello there" },
        ...first.response.messages,
        { role: "user", content: "tell me more" },
      ],
      maxRetries: 0,
    });
    expect(second.text).toBe("Echo: tell me more");
    const upstreamInput = (accountA.requests.at(-1)!.body as { input: Json[] }).input;
    expect(upstreamInput[1]).toEqual({ type: "item_reference", id: expect.stringMatching(/^msg_fake_a/) });
  });

  it("refuses an item_reference on a native channel with a 400 naming the field", async () => {
    const answer = await post({
      model: "gmx-2.5-flash",
      input: [
        { type: "item_reference", id: "msg_earlier" },
        { role: "user", content: "hi" },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request_error", param: "input[0].id" });
    expect(answer.body.error.message).toContain("item_reference");
    expect(native.requests).toHaveLength(0);
  });
});
