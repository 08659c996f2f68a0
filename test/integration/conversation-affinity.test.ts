import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { closeChannelBreakers } from "../support/close-channel-breakers.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const channelNames = ["east", "west", "north", "south"] as const;

/** Each channel on its own upstream with two keys: the key an upstream saw tells the channel and the key apart. */
function channelsOn(upstreams: readonly FakeUpstream[]) {
  return upstreams.map((upstream, index) => ({
    name: channelNames[index],
    type: "openai",
    base_url: upstream.url,
    keys: [`sk-${channelNames[index]}-first-0123456789`, `sk-${channelNames[index]}-second-0123456789`],
    models: ["model-a"],
  }));
}

/** The upstream keys that served the requests since the last reset, in order. */
function servedKeys(upstreams: readonly FakeUpstream[]): string[] {
  return upstreams
    .flatMap((upstream) =>
      upstream.requests.map((request) => ({
        at: request.receivedAt,
        key: String(request.headers.authorization).replace(/^Bearer /, ""),
      })),
    )
    .sort((left, right) => left.at - right.at)
    .map(({ key }) => key);
}

interface DoorRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** One conversation's request on each door, carrying its conversation key where that door's clients put it. */
function conversationRequest(door: "session" | "chat" | "responses" | "messages", conversation: string): DoorRequest {
  switch (door) {
    case "session":
      return {
        path: "/v1/messages",
        headers: { "x-claude-code-session-id": conversation },
        body: { model: "model-a", max_tokens: 16, messages: [{ role: "user", content: "hello" }] },
      };
    case "chat":
      return {
        path: "/v1/chat/completions",
        headers: {},
        body: { model: "model-a", messages: [{ role: "user", content: "hello" }], prompt_cache_key: conversation },
      };
    case "responses":
      return {
        path: "/v1/responses",
        headers: {},
        body: { model: "model-a", input: "hello", prompt_cache_key: conversation },
      };
    case "messages":
      return {
        path: "/v1/messages",
        headers: {},
        body: {
          model: "model-a",
          max_tokens: 16,
          metadata: { user_id: conversation },
          messages: [{ role: "user", content: "hello" }],
        },
      };
  }
}

async function send(gateway: TestGateway, apiKey: string, request: DoorRequest) {
  const response = await fetch(`${gateway.url}${request.path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...request.headers },
    body: JSON.stringify(request.body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
}

describe("conversation affinity: one conversation stays on the channel and key that served it", () => {
  let database: GatewayDatabase;
  let upstreams: FakeUpstream[];
  let gateway: TestGateway;
  let apiKey: string;
  let tokenId: number;
  let clockSeconds = 1_800_000_000;

  beforeAll(async () => {
    database = await openDatabase("sqlite::memory:");
    upstreams = await Promise.all(channelNames.map(() => startFakeOpenaiServer()));
    gateway = await startTestGateway({
      database,
      now: () => clockSeconds,
      configFile: {
        channels: channelsOn(upstreams),
        pricing: { "model-a": { input: 1, output: 2 } },
        relay: { max_attempts: 4, cooldown_after_failures: 3 },
        routing: { affinity_ttl_seconds: 300 },
      },
    });
    ({ key: apiKey, id: tokenId } = await createApiKey(gateway, { unlimitedQuota: true }));
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all(upstreams.map((upstream) => upstream.close()));
    await database.close();
  });
  beforeEach(() => {
    for (const upstream of upstreams) upstream.reset();
    closeChannelBreakers(gateway);
  });

  it.each(["session", "chat", "responses", "messages"] as const)(
    "keeps every request of a conversation keyed on the %s door on one channel and key among four of equal weight",
    async (door) => {
      const conversation = `conversation-${crypto.randomUUID()}`;
      for (let request = 0; request < 16; request += 1)
        await send(gateway, apiKey, conversationRequest(door, conversation));
      const keys = servedKeys(upstreams);
      expect(keys).toHaveLength(16);
      expect(new Set(keys).size).toBe(1);
    },
  );

  it("spreads requests without a conversation key by weight, as before", async () => {
    for (let request = 0; request < 24; request += 1)
      await send(gateway, apiKey, {
        path: "/v1/chat/completions",
        headers: {},
        body: { model: "model-a", messages: [{ role: "user", content: "hello" }] },
      });
    // Eight keys, 24 draws: one key for all of them would take odds of 8^-23.
    expect(new Set(servedKeys(upstreams)).size).toBeGreaterThan(1);
  });

  it("moves a conversation with its failover, and the next requests follow it while the first channel is healthy again", async () => {
    const conversation = `conversation-${crypto.randomUUID()}`;
    const request = conversationRequest("chat", conversation);
    await send(gateway, apiKey, request);
    const [firstKey] = servedKeys(upstreams);
    const failing = upstreams.find((upstream) => upstream.requests.length === 1)!;
    failing.setFaults({ status: 500, times: 1 });
    await send(gateway, apiKey, request);
    const afterFailover = servedKeys(upstreams);
    // The failed try on the conversation's channel and key, then one other channel that answered.
    expect(afterFailover[1]).toBe(firstKey);
    const movedKey = afterFailover[2]!;
    expect(movedKey).not.toBe(firstKey);
    expect(movedKey.split("-")[1]).not.toBe(firstKey!.split("-")[1]);
    // The first channel answers again (one failure does not cool it down), yet the conversation stays where it moved.
    for (let next = 0; next < 8; next += 1) await send(gateway, apiKey, request);
    expect(servedKeys(upstreams).slice(3)).toEqual(Array(8).fill(movedKey));
  });

  it("leaves a conversation whose channel is cooling down for another, and keeps it there", async () => {
    const conversation = `conversation-${crypto.randomUUID()}`;
    const request = conversationRequest("messages", conversation);
    await send(gateway, apiKey, request);
    const [firstKey] = servedKeys(upstreams);
    const router = gateway.gateway.context.channelRouter;
    const channel = router
      .planAttempts("model-a", { group: "", crossGroupRetry: false }, "default", 4)
      .find((attempt) => attempt.channel.keys.includes(firstKey!))!.channel;
    for (let failure = 0; failure < 3; failure += 1) router.reportFailure(channel.id, "test-request");
    for (let next = 0; next < 6; next += 1) await send(gateway, apiKey, request);
    const keys = servedKeys(upstreams).slice(1);
    expect(keys).not.toContain(firstKey);
    expect(new Set(keys).size).toBe(1);
  });

  it("forgets a conversation once routing.affinity_ttl_seconds passed since its last request (gateway clock)", async () => {
    const conversation = `conversation-${crypto.randomUUID()}`;
    const affinity = gateway.gateway.context.conversationAffinity;
    const scope = { tokenId, model: "model-a", conversationKey: conversation };
    await send(gateway, apiKey, conversationRequest("chat", conversation));
    clockSeconds += 299;
    expect(await affinity.find(scope)).toBeDefined();
    // Each answered request renews it.
    await send(gateway, apiKey, conversationRequest("chat", conversation));
    clockSeconds += 299;
    expect(await affinity.find(scope)).toBeDefined();
    clockSeconds += 2;
    expect(await affinity.find(scope)).toBeUndefined();
  });
});

describe("conversation affinity shared by two instances through Redis", () => {
  let database: GatewayDatabase;
  let upstreams: FakeUpstream[];
  const instances: TestGateway[] = [];
  let apiKey: string;

  beforeAll(async () => {
    database = await openDatabase("sqlite::memory:");
    upstreams = await Promise.all(channelNames.map(() => startFakeOpenaiServer()));
    const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
    const environment = {
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `affinity-test-${crypto.randomBytes(6).toString("hex")}`,
      GATEWAY_ADMIN_TOKEN: adminToken,
      // Sharing is what this proves: a Redis slowed by a loaded machine must not send an instance to its own memory.
      REDIS_WAIT_BUDGET_MS: "2000",
    };
    const configFile = { channels: channelsOn(upstreams), pricing: { "model-a": { input: 1, output: 2 } } };
    // Two gateways on one store, each with its own Redis connections: what two processes behind a balancer share.
    for (let instance = 0; instance < 2; instance += 1) {
      const started = await startTestGateway({ database, environment, configFile });
      instances.push({ ...started, adminToken, client: started.clientFor({ accessToken: adminToken }) });
    }
    apiKey = (await createApiKey(instances[0]!, { unlimitedQuota: true })).key;
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await Promise.all(upstreams.map((upstream) => upstream.close()));
    await database.close();
  });

  it("sends a conversation's requests to one channel and key whichever instance takes them", async () => {
    const conversation = `conversation-${crypto.randomUUID()}`;
    for (let request = 0; request < 16; request += 1)
      await send(instances[request % 2]!, apiKey, conversationRequest("session", conversation));
    const keys = servedKeys(upstreams);
    expect(keys).toHaveLength(16);
    expect(new Set(keys).size).toBe(1);
  });
});
