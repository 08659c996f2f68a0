import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { sendRawRequest } from "../support/send-raw-request.js";
import { buildSsrfUrlTable } from "../support/ssrf-url-table.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Issue 17's SSRF table through the gateway's entry points that fetch for a user and exist on this branch: chat
// media (image_url, file URLs on the native family) and image references (images generations and edits of the
// native image family). Every URL is refused with 400 invalid_media_url before any connection, and nothing reaches
// the upstream. The shared fetcher gets the table with a test resolver and redirects in src/net/.
const database = await openDatabase("sqlite::memory:");
afterAll(() => database.close());

describe("SSRF table through the entry points that fetch", () => {
  let upstream: FakeNativeUpstream;
  let mediaServer: http.Server;
  let port: number;
  let connections = 0;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    upstream = await startFakeNativeServer({ apiKey: "native-secret" });
    mediaServer = http.createServer((_request, response) =>
      response.writeHead(200, { "content-type": "image/png" }).end(createTinyPng(1, 1, [0, 0, 0])),
    );
    mediaServer.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
    port = (mediaServer.address() as AddressInfo).port;
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native",
            type: "native",
            base_url: upstream.url,
            key: "native-secret",
            models: ["gmx-2.5-flash", "gmx-2.5-flash-image"],
          },
        ],
        pricing: { "gmx-2.5-flash": { input: 1, output: 2 }, "gmx-2.5-flash-image": { per_image: 0.04 } },
      },
    });
    key = (await createApiKey(gateway, { unlimitedQuota: true })).key;
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    mediaServer?.closeAllConnections();
    await new Promise((resolve) => mediaServer?.close(resolve));
  });

  const entryPoints = [
    {
      name: "chat image_url",
      path: "/v1/chat/completions",
      body: (url: string) => ({
        model: "gmx-2.5-flash",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }],
      }),
    },
    {
      name: "chat file URL",
      path: "/v1/chat/completions",
      body: (url: string) => ({
        model: "gmx-2.5-flash",
        messages: [{ role: "user", content: [{ type: "file", file: { file_data: url, filename: "a.png" } }] }],
      }),
    },
    {
      name: "image generation reference",
      path: "/v1/images/generations",
      body: (url: string) => ({ model: "gmx-2.5-flash-image", prompt: "a cat", image: url }),
    },
    {
      name: "image edit reference",
      path: "/v1/images/edits",
      body: (url: string) => ({ model: "gmx-2.5-flash-image", prompt: "make it blue", image: [url] }),
    },
  ];

  it.each(entryPoints)("$name refuses every URL of the table before connecting", async (entryPoint) => {
    const table = buildSsrfUrlTable(port).filter((entry) => !entry.url.startsWith("data:"));
    const before = { connections, upstream: upstream.requests.length };
    for (const entry of table) {
      const answer = await sendRawRequest(gateway.url, {
        path: entryPoint.path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(entryPoint.body(entry.url)),
      });
      expect(answer.status, `${entry.name}: ${answer.body}`).toBe(400);
      const error = answer.json?.error as { type?: string; code?: string } | undefined;
      expect(error?.type, entry.name).toBe("invalid_request_error");
      // An http(s) URL is refused by the fetcher's address policy; other schemes before it, as not http(s).
      if (/^https?:/.test(entry.url)) expect(error?.code, `${entry.name}: ${answer.body}`).toBe("invalid_media_url");
    }
    expect(connections - before.connections).toBe(0);
    expect(upstream.requests.length - before.upstream).toBe(0);
  });
});
