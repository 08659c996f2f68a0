import { createTokenForTest } from "./create-token-for-test.js";
import { revealApiKey } from "./reveal-api-key.js";
import type { TestGateway } from "./start-test-gateway.js";

export interface CreateApiKeyOptions {
  name?: string;
  remainQuota?: number;
  unlimitedQuota?: boolean;
  group?: string;
  crossGroupRetry?: boolean;
  modelLimits?: string[];
  rpmLimit?: number;
  tpmLimit?: number;
}

/** Creates a token as root through the management API and returns its id and full `sk-` key. */
export async function createApiKey(
  gateway: TestGateway,
  options: CreateApiKeyOptions = {},
): Promise<{ id: number; key: string }> {
  const token = await createTokenForTest(gateway.client, {
    ...(options.name ? { name: options.name } : {}),
    remain_quota: options.remainQuota ?? 0,
    unlimited_quota: options.unlimitedQuota ?? false,
    ...(options.group ? { group: options.group } : {}),
    ...(options.crossGroupRetry !== undefined ? { cross_group_retry: options.crossGroupRetry } : {}),
    ...(options.modelLimits ? { model_limits_enabled: true, model_limits: options.modelLimits } : {}),
    ...(options.rpmLimit !== undefined ? { rpm_limit: options.rpmLimit } : {}),
    ...(options.tpmLimit !== undefined ? { tpm_limit: options.tpmLimit } : {}),
  });
  return { id: token.id, key: await revealApiKey(gateway.client, token.id) };
}
