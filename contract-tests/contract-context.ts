import type { SeededData } from "./seed-contract-data.js";

/** What both checkers (Dredd, Prism proxy) need to build requests against the running gateway. */
export interface ContractContext {
  gatewayUrl: string;
  seeded: SeededData;
  managementBodyLimitBytes: number;
  jsonBodyLimitBytes: number;
}
