// Row names shared by the servers, the aims and the report.
export const directName = "direct to upstream";
/** The reference every aim compares against. */
export const undiciPassThroughName = "undici Pool pass-through";
export const rawProxyName = "raw node:http proxy";
/** What a validating, authenticating, billing gateway costs at least: hand-written, no framework. */
export const handWrittenFloorName = "hand-written floor";
export const bareExpressName = "bare Express 5 + undici";
export const gatewayName = "gateway (limited token)";
export const gatewayUnlimitedName = "gateway (unlimited token)";
export const portkeyName = "Portkey gateway";
