import type { FaultPlan } from "./fault-plan.js";
import type { RecordedRequest } from "./recorded-request.js";

/** A fake provider listening on 127.0.0.1, driven in-process by tests. */
export interface FakeUpstream {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  url: string;
  port: number;
  /** Every request in arrival order; entries are updated in place (for example `aborted`). */
  requests: RecordedRequest[];
  /** Replaces the fault plan for the next requests. */
  setFaults(faults: FaultPlan): void;
  /** Clears requests, faults and any state the fake keeps (stored responses, id counters). */
  reset(): void;
  close(): Promise<void>;
}
