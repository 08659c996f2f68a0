import crypto from "node:crypto";
import type { components } from "../../generated/types/management.js";
import type { GatewayClient } from "../../src/client/create-gateway-client.js";

type Token = components["schemas"]["Token"];
type CreateTokenRequest = components["schemas"]["CreateTokenRequest"];

/**
 * Creates one token through POST /api/token/ (which answers without data) and reads it back by its name,
 * made unique unless the caller gives one.
 */
export async function createTokenForTest(
  client: GatewayClient,
  body: Partial<CreateTokenRequest> = {},
): Promise<Token> {
  const name = body.name ?? `t-${crypto.randomBytes(5).toString("hex")}`;
  const created = await client.management.POST("/api/token/", { body: { ...body, name } });
  if (!created.data) throw new Error(`creating token ${name} failed: ${JSON.stringify(created.error)}`);
  const found = await client.management.GET("/api/token/search", { params: { query: { keyword: name } } });
  const token = found.data?.data.items.find((item) => item.name === name);
  if (!token) throw new Error(`token ${name} not found after creation`);
  return token;
}
