import { anthropicAdapter } from "./anthropic/adapter.js";
import { arkAdapter } from "./ark/adapter.js";
import { azureAdapter } from "./azure/adapter.js";
import { bedrockAdapter } from "./bedrock/adapter.js";
import type { ChannelType } from "./contract/channel-type.js";
import type { ProviderAdapter } from "./contract/provider-adapter.js";
import { dashscopeAdapter } from "./dashscope/adapter.js";
import { nativeAdapter } from "./native/adapter.js";
import { openaiAdapter } from "./openai/adapter.js";
import { vertexAdapter } from "./vertex/adapter.js";

/**
 * Every upstream protocol the gateway speaks, by channel `type`. Adding a provider: its folder with an adapter,
 * one line here, and the type in the spec's ChannelType enum. The `satisfies` clause fails `tsc` until the two
 * agree: every spec type has an adapter, filed under its own type, and nothing else is filed here.
 */
export const providerRegistry = {
  openai: openaiAdapter,
  native: nativeAdapter,
  ark: arkAdapter,
  dashscope: dashscopeAdapter,
  anthropic: anthropicAdapter,
  azure: azureAdapter,
  vertex: vertexAdapter,
  bedrock: bedrockAdapter,
} as const satisfies { readonly [Type in ChannelType]: ProviderAdapter & { readonly type: Type } };
