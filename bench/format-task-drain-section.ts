import fs from "node:fs";
import path from "node:path";
import type { TaskDrainResult } from "./measure-task-drain.js";

/** The section docs/BENCHMARKS.md keeps between the task-point markers. */
export function formatTaskDrainSection(result: TaskDrainResult): string {
  const perSecond = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "–");
  return [
    "<!-- task-point:start -->",
    "## Video task polling",
    "",
    `${result.tasks.toLocaleString("en")} queued video tasks on ${result.database}, spread evenly over the four video`,
    "protocols, all due at once and drained together by one gateway process",
    `(\`tasks.max_concurrent_polls\` ${result.maxConcurrentPolls}) against the fakes (mocks/upstreams/*: each task completes`,
    "on its first poll, so one poll finishes and settles one task). The tasks were submitted through a first gateway",
    "whose poller waited; a second one, started on the same database before the tasks were due, drained them. CPU is",
    "the draining gateway's alone (/proc); the fakes run in the bench process.",
    `Load average when the drain ended: ${result.loadAverage.toFixed(1)} on ${result.cpus} cores.`,
    "",
    "| protocol | models | tasks | polls | drain s | polls/s | alone: tasks | alone: polls/s | alone: CPU µs/poll |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ...result.protocols.map(
      (protocol) =>
        `| ${protocol.protocol} | ${protocol.models.join(", ")} | ${protocol.tasks} | ${protocol.polls} | ${protocol.drainSeconds.toFixed(1)} | ${perSecond(protocol.pollsPerSecond)} | ${protocol.alone.tasks} | ${perSecond(protocol.alone.pollsPerSecond)} | ${perSecond(protocol.alone.cpuMicrosecondsPerPoll)} |`,
    ),
    `| **all at once** | | ${result.tasks} | ${result.polls} | ${result.drainSeconds.toFixed(1)} | **${perSecond(result.pollsPerSecond)}** | | | |`,
    "",
    `CPU per poll (draining gateway, all at once): **${result.cpuMicrosecondsPerPoll.toFixed(0)} µs**. Submissions (32 at a time): ${result.submitSeconds.toFixed(1)} s`,
    `(${perSecond(result.tasks / result.submitSeconds)} per second). A protocol's drain in the mixed run goes from its first poll to its last, while`,
    "the others drain beside it; the *alone* columns come from a second batch of each protocol's tasks, submitted with",
    "the others under another token and drained one protocol at a time after the mixed run, so the CPU is theirs.",
    "<!-- task-point:end -->",
  ].join("\n");
}

/** Puts the section into docs/BENCHMARKS.md, replacing an earlier one (the standalone `npm run bench:tasks`). */
export function writeTaskDrainSection(projectRoot: string, result: TaskDrainResult): void {
  const file = path.join(projectRoot, "docs/BENCHMARKS.md");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const section = formatTaskDrainSection(result);
  const pattern = /<!-- task-point:start -->[\s\S]*?<!-- task-point:end -->/;
  fs.writeFileSync(
    file,
    pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}\n`,
  );
}
