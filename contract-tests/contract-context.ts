import type { FaultPlan } from "../mocks/upstreams/shared/fault-plan.js";
import type { SeededData } from "./seed-contract-data.js";

/** What both checkers (Dredd, Prism proxy) need to build requests against the running gateway. */
export interface ContractContext {
  gatewayUrl: string;
  seeded: SeededData;
  managementBodyLimitBytes: number;
  jsonBodyLimitBytes: number;
  /** The channels' time to first response header; an upstream slower than this makes the gateway answer 504. */
  upstreamHeaderTimeoutMs: number;
  /** The models the fake upstreams' channels serve. */
  servedModels: ReadonlySet<string>;
  /** Applies a fault plan to both fake upstreams, or clears it. */
  setUpstreamFault(fault: FaultPlan | undefined): void;
}
