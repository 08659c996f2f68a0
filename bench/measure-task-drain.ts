import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { startFakeOpenaiServer } from "../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../src/store/open-database.js";
import { createApiKey } from "../test/support/create-api-key.js";
import { startTestGateway } from "../test/support/start-test-gateway.js";

export interface TaskDrainResult {
  tasks: number;
  database: string;
  pollIntervalMs: number;
  maxConcurrentPolls: number;
  submitSeconds: number;
  drainSeconds: number;
  polls: number;
  pollsPerSecond: number;
  cpuMicrosecondsPerPoll: number;
  /** One-minute load average when the drain ended (the machine may be shared). */
  loadAverage: number;
  cpus: number;
}

const quiet = { VALIDATE_RESPONSES: "false", LOG_LEVEL: "warn" };

/**
 * The task point of `npm run bench`: `tasks` vid-a-2 tasks submitted through the gateway while its poller waits,
 * then all made due at once and drained by one gateway (default config: 32 polls at a time) against the fake
 * OpenAI upstream, whose videos complete on their first retrieve. Measures polls per second, CPU per poll (this
 * process: gateway and fake together, so an upper bound for the gateway) and the time until every task is
 * finished and settled.
 */
export async function measureTaskDrain(options: { tasks: number; databaseUrl?: string }): Promise<TaskDrainResult> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "task-bench-"));
  const databaseUrl = options.databaseUrl ?? `sqlite:${path.join(folder, "gateway.db")}`;
  const database = await openDatabase(databaseUrl);
  const upstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
  upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
  const maxConcurrentPolls = 32;
  const configFile = (pollIntervalMs: number) => ({
    channels: [{ name: "videos", type: "openai", base_url: upstream.url, key: "openai-secret", models: ["vid-a-2"] }],
    pricing: { "vid-a-2": { per_second: 0.1 } },
    tasks: { poll_interval_ms: pollIntervalMs, max_concurrent_polls: maxConcurrentPolls },
  });
  try {
    // Submitting: the poller waits an hour, so every task is still queued when the drain starts.
    const submitter = await startTestGateway({ database, configFile: configFile(3_600_000), environment: quiet });
    const { key } = await createApiKey(submitter, { remainQuota: options.tasks * 200_000 });
    const submitStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < options.tasks) {
          next += 1;
          const answer = await fetch(`${submitter.url}/v1/video/generations`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ model: "vid-a-2", prompt: `bench ${next}` }),
          });
          if (answer.status !== 200) throw new Error(`submit answered ${answer.status}: ${await answer.text()}`);
          await answer.arrayBuffer();
        }
      }),
    );
    const submitSeconds = (performance.now() - submitStart) / 1000;
    await submitter.close();
    // The drainer starts while the tasks are not due yet, so its start-up is not measured.
    const drainer = await startTestGateway({ database, configFile: configFile(5000), environment: quiet });
    const retrievesBefore = upstream.requests.filter((request) => request.method === "GET").length;
    const cpuBefore = process.cpuUsage();
    await sql`update tasks set next_poll_at = 0`.execute(database.db);
    for (;;) {
      const row = await database.db
        .selectFrom("tasks")
        .select((builder) => builder.fn.countAll<number>().as("open"))
        .where("status", "in", ["queued", "in_progress"])
        .executeTakeFirstOrThrow();
      if (Number(row.open) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const drainEnd = Date.now();
    // From the first poll (the poller wakes every half interval) to the last task finished.
    const firstPoll = upstream.requests.filter((request) => request.method === "GET")[retrievesBefore]!.receivedAt;
    const drainSeconds = (drainEnd - firstPoll) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await drainer.close();
    const polls = upstream.requests.filter((request) => request.method === "GET").length - retrievesBefore;
    return {
      tasks: options.tasks,
      database: databaseUrl.startsWith("sqlite:") ? "SQLite (file)" : "PostgreSQL",
      pollIntervalMs: 5000,
      maxConcurrentPolls,
      submitSeconds,
      drainSeconds,
      polls,
      pollsPerSecond: polls / drainSeconds,
      cpuMicrosecondsPerPoll: (cpu.user + cpu.system) / polls,
      loadAverage: os.loadavg()[0]!,
      cpus: os.cpus().length,
    };
  } finally {
    await upstream.close();
    await database.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The section docs/BENCHMARKS.md keeps between the task-point markers. */
export function formatTaskDrainSection(result: TaskDrainResult): string {
  return [
    "<!-- task-point:start -->",
    "## Video task polling",
    "",
    `${result.tasks.toLocaleString("en")} queued vid-a-2 tasks on ${result.database}, all due at once, drained by one gateway`,
    `(\`tasks.max_concurrent_polls\` ${result.maxConcurrentPolls}) against the fake OpenAI upstream (each video completes on`,
    "its first retrieve, so one poll finishes and settles one task). CPU is this process's, which also runs the fake:",
    "an upper bound for the gateway's share.",
    `Load average when the drain ended: ${result.loadAverage.toFixed(1)} on ${result.cpus} cores.`,
    "",
    "| Measure | Value |",
    "| ------- | ----- |",
    `| submissions (32 at a time) | ${result.submitSeconds.toFixed(1)} s (${(result.tasks / result.submitSeconds).toFixed(0)} per second) |`,
    `| time to drain | ${result.drainSeconds.toFixed(1)} s |`,
    `| polls | ${result.polls} |`,
    `| polls per second | ${result.pollsPerSecond.toFixed(0)} |`,
    `| CPU per poll (gateway + fake) | ${(result.cpuMicrosecondsPerPoll / 1000).toFixed(2)} ms |`,
    "<!-- task-point:end -->",
  ].join("\n");
}

/** Puts the section into docs/BENCHMARKS.md, replacing an earlier one. */
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

// `npx tsx bench/measure-task-drain.ts [tasks]`: the task point alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const result = await measureTaskDrain({ tasks: Number(process.argv[2] ?? 10_000) });
  console.log(JSON.stringify(result, null, 2));
  writeTaskDrainSection(projectRoot, result);
}
