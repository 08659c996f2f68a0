import type { FaultPlan } from "./fault-plan.js";

export interface FaultSchedule {
  set(plan: FaultPlan): void;
  clear(): void;
  /** The plan for one incoming request; consumes one of `times`. */
  take(): FaultPlan;
}

/** Holds the programmatic fault plan and counts down `times` as requests consume it. */
export function createFaultSchedule(): FaultSchedule {
  let plan: FaultPlan = {};
  let remaining: number | undefined;

  return {
    set(nextPlan) {
      plan = { ...nextPlan };
      remaining = nextPlan.times;
    },
    clear() {
      plan = {};
      remaining = undefined;
    },
    take() {
      if (remaining === undefined) return plan;
      if (remaining <= 0) return {};
      remaining -= 1;
      const current = plan;
      if (remaining === 0) {
        plan = {};
        remaining = undefined;
      }
      return current;
    },
  };
}
