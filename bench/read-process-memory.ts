import fs from "node:fs";

export interface ProcessMemory {
  /** Resident set size now, in MiB. */
  rssMiB: number;
  /** Peak resident set size since the process started, in MiB. */
  peakRssMiB: number;
}

function readKibibytes(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) : Number.NaN;
}

/** Reads another process's memory from /proc (Linux), which needs no cooperation from the process. */
export function readProcessMemory(pid: number): ProcessMemory {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return {
    rssMiB: readKibibytes(status, "VmRSS") / 1024,
    peakRssMiB: readKibibytes(status, "VmHWM") / 1024,
  };
}
