import fs from "node:fs";

export interface MachineCpuTicks {
  /** Ticks of all CPUs together, busy or idle. */
  total: number;
  /** Ticks the hypervisor gave to other guests while this one had work to run (`steal` in /proc/stat). */
  steal: number;
}

/** The machine's CPU tick counters from the first line of /proc/stat; zeros where there is no /proc. */
export function readMachineCpuTicks(): MachineCpuTicks {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already inside user.
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return { total, steal: fields[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}

/** The share of the machine's CPU time stolen by the hypervisor between two readings (NaN without /proc). */
export function stealShare(start: MachineCpuTicks, end: MachineCpuTicks): number {
  const total = end.total - start.total;
  return total > 0 ? (end.steal - start.steal) / total : Number.NaN;
}
