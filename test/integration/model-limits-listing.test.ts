import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

// Listing never calls the upstream, so the channel's base URL is never dialled.
describe.each(testDatabases)("model lists under model limits on $name", ({ database }) => {
  let gateway: TestGateway;
  let limitedKey: string;

  beforeAll(async () => {
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-variants",
            type: "native",
            base_url: "http://127.0.0.1:9",
            key: "upstream-secret",
            models: ["gmx-2.5-flash", "gmx-2.5-flash-thinking-1024", "gmx-2.5-pro", "other-thinking"],
          },
        ],
      },
    });
    // A thinking variant of a listed model may be called (assertModelAllowed), so both lists must show it too.
    limitedKey = (await createApiKey(gateway, { remainQuota: 1000, modelLimits: ["gmx-2.5-flash", "other"] })).key;
  });
  afterAll(() => gateway.close());

  it("lists a listed model's thinking variants on /v1beta/models, not other models or other vendors' -thinking names", async () => {
    const page = (await (
      await fetch(`${gateway.url}/v1beta/models`, { headers: { "x-goog-api-key": limitedKey } })
    ).json()) as { models: Array<{ name: string }> };
    expect(page.models.map((model) => model.name)).toEqual([
      "models/gmx-2.5-flash",
      "models/gmx-2.5-flash-thinking-1024",
    ]);
  });

  it("lists the same models on /v1/models", async () => {
    const list = (await (
      await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${limitedKey}` } })
    ).json()) as { data: Array<{ id: string }> };
    expect(list.data.map((model) => model.id).sort()).toEqual(["gmx-2.5-flash", "gmx-2.5-flash-thinking-1024"]);
  });
});
