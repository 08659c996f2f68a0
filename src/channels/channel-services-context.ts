import type { GatewayContext } from "../gateway-context.js";

/** The part of the gateway context channel services need; the router is built from it before the context is complete. */
export type ChannelServicesContext = Pick<GatewayContext, "config" | "database" | "keyCipher" | "logger" | "now">;
