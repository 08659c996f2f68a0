import crypto from "node:crypto";
import type { components } from "../../generated/types/management.js";
import type { GatewayClient } from "../../src/client/create-gateway-client.js";
import type { TestGateway } from "./start-test-gateway.js";

type User = components["schemas"]["User"];

export interface SignedInUser {
  user: User;
  username: string;
  password: string;
  accessToken: string;
  /** Typed clients carrying this user's access token. */
  client: GatewayClient;
}

/**
 * A fresh user made the way an operator would: root creates it through POST /api/user/, then it signs in.
 * Tests act as such users (not as root), so a second test gateway on the same database, which re-keys root,
 * does not sign them out. Its wallet is made unlimited (by root, through PUT /api/user/{id}) unless `wallet` gives
 * the units it starts with (topped up from the configured initial quota through POST /api/user/{id}/quota).
 */
export async function createSignedInUser(
  testGateway: TestGateway,
  options: { role?: "user" | "admin"; group?: string; creator?: GatewayClient; wallet?: number } = {},
): Promise<SignedInUser> {
  const username = `u-${crypto.randomBytes(6).toString("hex")}`;
  const password = `pw-${crypto.randomBytes(8).toString("hex")}`;
  const creator = options.creator ?? testGateway.client;
  const created = await creator.management.POST("/api/user/", {
    body: {
      username,
      password,
      ...(options.role ? { role: options.role } : {}),
      ...(options.group ? { group: options.group } : {}),
    },
  });
  if (!created.data) throw new Error(`creating ${username} failed: ${JSON.stringify(created.error)}`);
  const id = created.data.data.id;
  if (options.wallet === undefined) {
    const granted = await testGateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id } },
      body: { quota_unlimited: true },
    });
    if (!granted.data)
      throw new Error(`making ${username}'s wallet unlimited failed: ${JSON.stringify(granted.error)}`);
  } else if (options.wallet !== created.data.data.quota) {
    const toppedUp = await testGateway.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id } },
      body: { delta: options.wallet - created.data.data.quota, reason: "test wallet" },
    });
    if (!toppedUp.data) throw new Error(`topping up ${username} failed: ${JSON.stringify(toppedUp.error)}`);
  }
  const login = await testGateway.clientFor({}).management.POST("/api/user/login", { body: { username, password } });
  if (!login.data) throw new Error(`signing in ${username} failed: ${JSON.stringify(login.error)}`);
  const accessToken = login.data.data.access_token;
  const user = (await testGateway.clientFor({ accessToken }).management.GET("/api/user/self")).data!.data;
  return { user, username, password, accessToken, client: testGateway.clientFor({ accessToken }) };
}
