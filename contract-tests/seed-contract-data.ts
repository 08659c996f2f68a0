import crypto from "node:crypto";
import { callGateway, type GatewayAnswer } from "./call-gateway.js";

export interface SeededData {
  adminToken: string;
  /** An unlimited API key (`sk-…`) and its token id. */
  apiKey: string;
  tokenId: number;
  /** A key limited to a model nobody requests: model calls answer 403. */
  restrictedApiKey: string;
  /** A limited key with no quota left: model calls answer 402. */
  brokeApiKey: string;
  /** A plain user (role `user`) and its password and access token: admin operations answer it 403. */
  user: { username: string; password: string; accessToken: string };
  /** The configured OpenAI-style channel and one of its models, once the channel operations are implemented. */
  channel: { id: number; model: string } | undefined;
  /** A token created for operations that destroy their target. */
  createDisposableToken(): Promise<number>;
}

function expectSuccess(what: string, answer: GatewayAnswer): Record<string, unknown> {
  const body = answer.json as { success?: boolean; data?: unknown } | undefined;
  if (answer.status !== 200 || body?.success !== true)
    throw new Error(`Seeding failed: ${what} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return body as Record<string, unknown>;
}

/** The data every contract check needs, created through the management API as a client would. */
export async function seedContractData(baseUrl: string, adminToken: string): Promise<SeededData> {
  const admin = (method: string, path: string, body?: unknown) =>
    callGateway(baseUrl, { method, path, bearer: adminToken, body });

  async function createToken(fields: Record<string, unknown>): Promise<number> {
    const name = `ct-${crypto.randomBytes(5).toString("hex")}`;
    expectSuccess("createToken", await admin("POST", "/api/token/", { name, ...fields }));
    const found = expectSuccess("searchTokens", await admin("GET", `/api/token/search?keyword=${name}`)) as {
      data: { items: Array<{ id: number; name: string }> };
    };
    const token = found.data.items.find((item) => item.name === name);
    if (!token) throw new Error(`Seeding failed: token ${name} not found after creation`);
    return token.id;
  }
  async function revealKey(tokenId: number): Promise<string> {
    const revealed = expectSuccess("revealTokenKey", await admin("POST", `/api/token/${tokenId}/key`)) as {
      data: { key: string };
    };
    return `sk-${revealed.data.key}`;
  }

  const tokenId = await createToken({ unlimited_quota: true });
  const restrictedTokenId = await createToken({
    unlimited_quota: true,
    model_limits_enabled: true,
    model_limits: ["contract-model-nobody-asks-for"],
  });
  const brokeTokenId = await createToken({ unlimited_quota: false, remain_quota: 0 });
  // Limits high enough that no contract call is refused, so GET /api/token/rates answers one item, as its example.
  await createToken({ unlimited_quota: true, rpm_limit: 100_000, tpm_limit: 100_000_000 });

  const user = {
    username: `ct${crypto.randomBytes(5).toString("hex")}`,
    password: crypto.randomBytes(12).toString("base64url"),
    accessToken: "",
  };
  expectSuccess(
    "createUser",
    await admin("POST", "/api/user/", { username: user.username, password: user.password, role: "user" }),
  );
  const login = expectSuccess(
    "loginUser",
    await callGateway(baseUrl, {
      method: "POST",
      path: "/api/user/login",
      body: { username: user.username, password: user.password },
    }),
  ) as {
    data: { access_token: string };
  };
  user.accessToken = login.data.access_token;

  const channels = await admin("GET", "/api/channel/");
  const channelItems = (
    channels.json as { data?: { items?: Array<{ id: number; name: string; models: string[] }> } } | undefined
  )?.data?.items;
  const configuredChannel =
    channels.status === 200 ? channelItems?.find((item) => item.name === "contract-openai") : undefined;
  return {
    adminToken,
    apiKey: await revealKey(tokenId),
    tokenId,
    restrictedApiKey: await revealKey(restrictedTokenId),
    brokeApiKey: await revealKey(brokeTokenId),
    user,
    channel: configuredChannel ? { id: configuredChannel.id, model: configuredChannel.models[0] } : undefined,
    createDisposableToken: () => createToken({ remain_quota: 1 }),
  };
}
