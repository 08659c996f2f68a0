import type { TestGateway } from "./start-test-gateway.js";

export interface CreateApiKeyOptions {
  name?: string;
  remainQuota?: number;
  unlimitedQuota?: boolean;
  group?: string;
  crossGroupRetry?: boolean;
  modelLimits?: string[];
}

/** Creates a token as root through the management API and returns its id and full `sk-` key. */
export async function createApiKey(gateway: TestGateway, options: CreateApiKeyOptions = {}): Promise<{ id: number; key: string }> {
  const name = options.name ?? `key-${Math.random().toString(36).slice(2, 10)}`;
  const created = await gateway.client.management.POST("/api/token/", {
    body: {
      name,
      remain_quota: options.remainQuota ?? 0,
      unlimited_quota: options.unlimitedQuota ?? false,
      ...(options.group ? { group: options.group } : {}),
      ...(options.crossGroupRetry !== undefined ? { cross_group_retry: options.crossGroupRetry } : {}),
      ...(options.modelLimits ? { model_limits_enabled: true, model_limits: options.modelLimits } : {}),
    },
  });
  if (!created.data?.success) throw new Error(`token creation failed: ${JSON.stringify(created.error ?? created.data)}`);
  const found = await gateway.client.management.GET("/api/token/search", { params: { query: { keyword: name } } });
  const token = found.data!.data.items.find((item) => item.name === name)!;
  const revealed = await gateway.client.management.POST("/api/token/{id}/key", { params: { path: { id: token.id } } });
  return { id: token.id, key: `sk-${revealed.data!.data.key}` };
}
