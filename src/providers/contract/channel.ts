import type { ConfiguredChannel } from "../../config/gateway-config.js";

/**
 * One upstream account, as the relay uses it (keys decrypted, JSON columns parsed): the fields of a configured
 * channel (base URL without a trailing slash; keys used round-robin and never logged; models as clients name them;
 * model_mapping client name → upstream name; priority higher first; weight random within a priority) plus its id
 * and where it came from.
 */
export interface Channel extends ConfiguredChannel {
  id: number;
  source: "config" | "api";
}
