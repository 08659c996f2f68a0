import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { type FakeUpstream, startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const app = "https://app.example.com";
const stranger = "https://elsewhere.example.org";

interface Surface {
  name: string;
  /** A path of the surface and a call a browser app would make there. */
  path: string;
  method: string;
  headers(gateway: Started): Record<string, string>;
  body?: string;
}

interface Started {
  gateway: TestGateway;
  database: GatewayDatabase;
  key: string;
}

const surfaces: Surface[] = [
  {
    // A plain valid JSON chat call: the fast lane serves it.
    name: "/v1 (fast lane)",
    path: "/v1/chat/completions",
    method: "POST",
    headers: ({ key }) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" }),
    body: JSON.stringify({ model: "model-a", messages: [{ role: "user", content: "hello" }], max_tokens: 5 }),
  },
  {
    name: "/v1beta",
    path: "/v1beta/models/gmx-2.5-flash:generateContent",
    method: "POST",
    headers: ({ key }) => ({ "x-goog-api-key": key, "content-type": "application/json" }),
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hello" }] }] }),
  },
  {
    name: "/api",
    path: "/api/user/self",
    method: "GET",
    headers: ({ gateway }) => ({ authorization: `Bearer ${gateway.adminToken}` }),
  },
];

/**
 * CORS_ORIGINS: preflights are answered before any key check (on the fast lane's paths too), and answers to an
 * allowed origin carry the headers a browser needs; `*` opens only the key-authenticated APIs, /api answers only
 * origins listed by name, an origin not allowed gets no CORS header, and without CORS_ORIGINS nothing changes.
 */
describe("CORS", () => {
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  const gateways: Record<"listed" | "any" | "off", Started> = {} as never;

  beforeAll(async () => {
    openai = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    native = await startFakeNativeServer({ apiKey: "native-secret" });
    const configFile = {
      channels: [
        { name: "openai", type: "openai", base_url: openai.url, key: "openai-secret", models: ["model-a"] },
        { name: "native", type: "native", base_url: native.url, key: "native-secret", models: ["gmx-2.5-flash"] },
      ],
      pricing: { "model-a": { input: 1, output: 2 }, "gmx-2.5-flash": { input: 1, output: 2 } },
    };
    const start = async (corsOrigins: string | undefined): Promise<Started> => {
      const database = await openDatabase("sqlite::memory:");
      const gateway = await startTestGateway({
        database,
        configFile,
        environment: corsOrigins === undefined ? {} : { CORS_ORIGINS: corsOrigins },
      });
      const { key } = await createApiKey(gateway, { unlimitedQuota: true });
      return { gateway, database, key };
    };
    gateways.listed = await start(` ${app}/ , https://second.example.com`);
    gateways.any = await start(`*,${app}`);
    gateways.off = await start(undefined);
  });
  afterAll(async () => {
    for (const started of Object.values(gateways)) {
      await started.gateway.close();
      await started.database.close();
    }
    await openai.close();
    await native.close();
  });

  const preflight = (started: Started, surface: Surface, origin: string) =>
    fetch(`${started.gateway.url}${surface.path}`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": surface.method,
        "access-control-request-headers": "authorization, content-type, x-goog-api-key, x-stainless-retry-count",
      },
    });
  const actual = (started: Started, surface: Surface, origin: string, headers = surface.headers(started)) =>
    fetch(`${started.gateway.url}${surface.path}`, {
      method: surface.method,
      headers: { origin, ...headers },
      ...(surface.body === undefined ? {} : { body: surface.body }),
    });
  const expectAllowedPreflight = async (answer: Response, allowOrigin: string) => {
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(allowOrigin);
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET,HEAD,POST,PUT,PATCH,DELETE");
    const allowed = answer.headers.get("access-control-allow-headers")?.toLowerCase().split(", ");
    for (const header of [
      "authorization",
      "x-api-key",
      "x-goog-api-key",
      "x-native-api-key",
      "anthropic-version",
      "anthropic-beta",
      "content-type",
      "x-request-id",
      "idempotency-key",
      "x-stainless-retry-count",
    ])
      expect(allowed).toContain(header);
    expect(answer.headers.get("access-control-max-age")).toBe("600");
    // Every answer names its request, preflights included.
    expect(answer.headers.get("x-request-id")).toBeTruthy();
  };
  const expectNoCors = (answer: Response) => {
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.headers.get("access-control-expose-headers")).toBeNull();
  };

  for (const surface of surfaces) {
    it(`answers a listed origin on ${surface.name}: preflight without a key, then the call readable`, async () => {
      const started = gateways.listed;
      await expectAllowedPreflight(await preflight(started, surface, app), app);
      const answer = await actual(started, surface, app);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe(app);
      expect(answer.headers.get("access-control-expose-headers")).toBe("X-Request-Id,Retry-After");
      expect(answer.headers.get("vary")).toContain("Origin");
      // A refusal is readable by the page too, so it can show why.
      const refused = await actual(started, surface, app, { "content-type": "application/json" });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("access-control-allow-origin")).toBe(app);
    });

    it(`gives an unlisted origin no CORS header on ${surface.name}`, async () => {
      const started = gateways.listed;
      const answered = await preflight(started, surface, stranger);
      expect(answered.status).not.toBe(204);
      expectNoCors(answered);
      const answer = await actual(started, surface, stranger);
      expect(answer.status).toBe(200);
      expectNoCors(answer);
    });

    it(`leaves ${surface.name} as it was without CORS_ORIGINS`, async () => {
      const started = gateways.off;
      const answered = await preflight(started, surface, app);
      expect(answered.status).toBe(405);
      expectNoCors(answered);
      expectNoCors(await actual(started, surface, app));
    });
  }

  it("opens /v1 and /v1beta to any origin with *, and /api still only to the origins listed by name", async () => {
    const started = gateways.any;
    for (const surface of surfaces.filter((surface) => surface.name !== "/api")) {
      await expectAllowedPreflight(await preflight(started, surface, stranger), "*");
      const answer = await actual(started, surface, stranger);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("access-control-expose-headers")).toBe("X-Request-Id,Retry-After");
    }
    const management = surfaces.find((surface) => surface.name === "/api") as Surface;
    expectNoCors(await preflight(started, management, stranger));
    expectNoCors(await actual(started, management, stranger));
    await expectAllowedPreflight(await preflight(started, management, app), app);
    expect((await actual(started, management, app)).headers.get("access-control-allow-origin")).toBe(app);
  });

  it("leaves paths outside the APIs alone", async () => {
    const answer = await fetch(`${gateways.any.gateway.url}/healthz`, { headers: { origin: stranger } });
    expect(answer.status).toBe(200);
    expectNoCors(answer);
  });
});
