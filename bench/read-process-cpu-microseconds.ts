import fs from "node:fs";

// Linux reports utime and stime in clock ticks of 1/100 s (USER_HZ, 100 on every mainstream kernel build).
const microsecondsPerTick = 10_000;

/** CPU time (user + system) a process has used so far, from /proc/<pid>/stat; NaN where there is no /proc. */
export function readProcessCpuMicroseconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * microsecondsPerTick;
  } catch {
    return Number.NaN;
  }
}
