import type { components } from "../../generated/types/management.js";
import { anthropicAdapter } from "./anthropic/adapter.js";
import { arkAdapter } from "./ark/adapter.js";
import { azureAdapter } from "./azure/adapter.js";
import { bedrockAdapter } from "./bedrock/adapter.js";
import { dashscopeAdapter } from "./dashscope/adapter.js";
import { nativeAdapter } from "./native/adapter.js";
import { openaiAdapter } from "./openai/adapter.js";
import { vertexAdapter } from "./vertex/adapter.js";
import type { ProviderAdapter } from "./contract/provider-adapter.js";

/**
 * Every upstream protocol the gateway speaks, by channel `type`. Adding a provider: its folder with an adapter,
 * one line here, and the type in the spec's ChannelType enum (the checks below fail until both agree).
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
} as const satisfies { readonly [type: string]: ProviderAdapter };

type SpecChannelType = components["schemas"]["ChannelType"];
type RegisteredType = keyof typeof providerRegistry;
type Exactly<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;
// Compile-time checks: every spec type has an adapter, every adapter is in the spec, and each is filed under its
// own type (a `false` here fails `tsc`).
const registryMatchesSpec: Exactly<RegisteredType, SpecChannelType> = true;
const adaptersFiledUnderTheirType: {
  [Type in RegisteredType]: Exactly<(typeof providerRegistry)[Type]["type"], Type>;
} = {
  openai: true,
  native: true,
  ark: true,
  dashscope: true,
  anthropic: true,
  azure: true,
  vertex: true,
  bedrock: true,
};
void registryMatchesSpec;
void adaptersFiledUnderTheirType;
