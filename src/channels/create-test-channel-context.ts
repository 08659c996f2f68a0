import { loadConfig } from "../config/load-config.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import { createKeyCipher } from "../keys/create-key-cipher.js";
import { createLogger } from "../logging/logger.js";
import type { ChannelInput } from "../store/channels/channel-input.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import { insertChannel } from "../store/channels/insert-channel.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { encryptChannelKeys } from "./encrypt-channel-keys.js";

export interface TestChannelContext extends ChannelServicesContext {
  /** Inserts an `api` channel with these keys (default one key named after the channel). */
  addChannel(
    name: string,
    fields?: Partial<Omit<ChannelInput, "keysEncrypted">> & { keys?: string[] },
  ): Promise<ChannelRecord>;
}

/** For channel service tests: the default configuration with overrides, a silent logger and a channel helper. */
export function createTestChannelContext(
  database: GatewayDatabase,
  overrides: Partial<GatewayConfig> = {},
): TestChannelContext {
  const config = {
    ...loadConfig({ DATABASE_URL: "sqlite::memory:", GATEWAY_SECRET: "test-secret-0123456789abcdef" }),
    ...overrides,
  };
  const context: ChannelServicesContext = {
    config,
    database,
    keyCipher: createKeyCipher(config.secret),
    logger: createLogger({ level: "silent" }),
    now: () => 1_700_000_000,
  };
  return {
    ...context,
    addChannel(name, fields = {}) {
      const { keys = [`key-of-${name}`], ...rest } = fields;
      return insertChannel(database.db, {
        name,
        type: "openai",
        baseUrl: "http://127.0.0.1:9",
        models: ["model-a"],
        createdTime: 1_700_000_000,
        ...rest,
        keysEncrypted: encryptChannelKeys(context.keyCipher, keys),
      });
    },
  };
}
