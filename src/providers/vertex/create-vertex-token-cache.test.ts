import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeVertexUpstream,
  startFakeVertexServer,
} from "../../../mocks/upstreams/vertex/start-fake-vertex-server.js";
import type { Channel } from "../contract/channel.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import { createVertexTokenCache, tokenRefreshMarginMs } from "./create-vertex-token-cache.js";
import { vertexEndpoints } from "./vertex-endpoints.js";

const clientEmail = "svc@proj-one.iam.gserviceaccount.com";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
let vertex: FakeVertexUpstream;
let key: string;
// One clock for the cache and the fake's token endpoint, which checks the JWT's issue time.
let clock = Date.now();

beforeAll(async () => {
  vertex = await startFakeVertexServer({
    clientEmail,
    publicKey,
    projectId: "proj-one",
    region: "europe-west4",
    now: () => clock,
  });
  key = JSON.stringify({
    project_id: "proj-one",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: clientEmail,
    token_uri: vertex.tokenUri,
  });
});
afterAll(() => vertex.close());

describe("the Vertex access token cache", () => {
  it("exchanges once for concurrent requests and keeps the token until shortly before it expires", async () => {
    const cache = createVertexTokenCache({ now: () => clock });
    const issuedBefore = vertex.tokensIssued();
    const [first, second] = await Promise.all([cache.get(key), cache.get(key)]);
    expect(first).toBe(second);
    expect(vertex.tokensIssued() - issuedBefore).toBe(1);
    clock += 3600_000 - tokenRefreshMarginMs - 1000;
    expect(await cache.get(key)).toBe(first);
    clock += 2000;
    const renewed = await cache.get(key);
    expect(renewed).not.toBe(first);
    expect(await cache.get(key, { refresh: true })).not.toBe(renewed);
    expect(vertex.tokensIssued() - issuedBefore).toBe(3);
  });

  it("refuses a key that is not a service account without quoting it", async () => {
    const cache = createVertexTokenCache();
    const error = await cache.get('{"private_key":"-----BEGIN secret-material"}').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as Error).message).toBe(
      "The vertex channel's key is not a service account key: it lacks client_email, private_key or token_uri.",
    );
  });
});

describe("Vertex paths", () => {
  it("puts Google's models under the channel's project (default the account's) and region", () => {
    const channel = { settings: { region: "europe-west4" } } as Channel;
    expect(
      vertexEndpoints.modelMethod(
        { channel, group: "", upstreamModel: "m", upstreamKey: key },
        "gmx-2.5-flash",
        "generateContent",
      ),
    ).toBe("/v1/projects/proj-one/locations/europe-west4/publishers/google/models/gmx-2.5-flash:generateContent");
    const other = { settings: { region: "us-east5", project_id: "proj-two" } } as Channel;
    expect(
      vertexEndpoints.modelMethod(
        { channel: other, group: "", upstreamModel: "m", upstreamKey: key },
        "m",
        "countTokens",
      ),
    ).toBe("/v1/projects/proj-two/locations/us-east5/publishers/google/models/m:countTokens");
  });
});
