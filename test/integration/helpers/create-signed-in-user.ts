import crypto from "node:crypto";
import type { components } from "../../../generated/types/management.js";
import type { GatewayClient } from "../../../src/client/create-gateway-client.js";
import type { TestGateway } from "../../support/start-test-gateway.js";

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
 * does not sign them out.
 */
export async function createSignedInUser(
  testGateway: TestGateway,
  options: { role?: "user" | "admin"; group?: string; creator?: GatewayClient } = {},
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
  const login = await testGateway.clientFor({}).management.POST("/api/user/login", { body: { username, password } });
  if (!login.data) throw new Error(`signing in ${username} failed: ${JSON.stringify(login.error)}`);
  const accessToken = login.data.data.access_token;
  return { user: created.data.data, username, password, accessToken, client: testGateway.clientFor({ accessToken }) };
}
