import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { startFakeArkVideoServer } from "../mocks/upstreams/ark/start-fake-ark-video-server.js";
import { startFakeDashscopeVideoServer } from "../mocks/upstreams/dashscope/start-fake-dashscope-video-server.js";
import { startFakeNativeServer } from "../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer } from "../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../src/store/open-database.js";
import { provisionGatewayToken } from "./provision-gateway-token.js";
import { readProcessCpuMicroseconds } from "./read-process-cpu-microseconds.js";
import { startGatewayProcess, type GatewayLaunch } from "./start-bench-servers.js";
import { createTaskDrainPlans, type ProtocolPlan, taskDrainGatewayConfig } from "./task-drain-protocols.js";
import { writeTaskDrainSection } from "./format-task-drain-section.js";

/** One protocol's tasks drained with no other protocol's beside them, so the gateway's CPU is theirs alone. */
export interface ProtocolAloneDrain {
  tasks: number;
  polls: number;
  /** From the phase's first poll to its last task finished. */
  drainSeconds: number;
  pollsPerSecond: number;
  cpuMicrosecondsPerPoll: number;
}

/** One protocol's share of the drain. */
export interface ProtocolDrain {
  protocol: string;
  models: string[];
  tasks: number;
  polls: number;
  /** From this protocol's first poll to its last. */
  drainSeconds: number;
  pollsPerSecond: number;
  alone: ProtocolAloneDrain;
}

export interface TaskDrainResult {
  tasks: number;
  database: string;
  pollIntervalMs: number;
  maxConcurrentPolls: number;
  submitSeconds: number;
  /** From the first poll of any protocol to the last task finished. */
  drainSeconds: number;
  polls: number;
  pollsPerSecond: number;
  /** The draining gateway process's CPU time (user + system) per poll; the fakes run in the bench process. */
  cpuMicrosecondsPerPoll: number;
  protocols: ProtocolDrain[];
  /** One-minute load average when the drain ended (the machine may be shared). */
  loadAverage: number;
  cpus: number;
}

const maxConcurrentPolls = 32;
// Every task completes on its first poll, so the interval only sets how often an idle poller wakes (half of it).
const drainPollIntervalMs = 1000;
const mixedTokenName = "bench-tasks";
const aloneTokenName = "bench-tasks-alone";

/**
 * The task point of `npm run bench`: `tasks` video tasks spread evenly over the four video protocols (vid-a on an
 * OpenAI channel, vid-b on native, vid-c on DashScope, vid-d and vid-e on ARK), submitted through one gateway while
 * its poller waits, then all made due at once and drained by a fresh gateway process on the same SQLite database
 * (32 polls at a time, the default) against the fakes, whose tasks complete on their first poll. Measures polls
 * per second (per protocol and in total) and the draining gateway's CPU per poll, read from /proc. Then each
 * protocol's `aloneTasks` more tasks (submitted with the others under a second token) are drained one protocol at a
 * time, for each protocol's own CPU per poll.
 */
export async function measureTaskDrain(options: {
  projectRoot: string;
  launch: GatewayLaunch;
  tasks: number;
  aloneTasks: number;
}): Promise<TaskDrainResult> {
  const dataFolder = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "task-bench-"));
  const openai = await startFakeOpenaiServer({ apiKey: "openai-secret" });
  const native = await startFakeNativeServer({ apiKey: "native-secret" });
  const dashscope = await startFakeDashscopeVideoServer({ apiKey: "dashscope-secret" });
  const ark = await startFakeArkVideoServer({ apiKey: "ark-secret" });
  openai.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
  native.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
  dashscope.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
  ark.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
  const fakes = { openai, native, dashscope, ark };
  const plans = createTaskDrainPlans(fakes);
  const config = (pollIntervalMs: number) => taskDrainGatewayConfig(fakes, pollIntervalMs, maxConcurrentPolls);
  // Every model gets its share in turn: submission n goes to model n mod 5.
  const submissions = plans.flatMap((plan) => plan.bodies.map((body) => ({ plan, body })));
  const tasksOf = new Map(plans.map((plan) => [plan, 0]));
  for (let index = 0; index < options.tasks; index += 1) {
    const plan = submissions[index % submissions.length]!.plan;
    tasksOf.set(plan, tasksOf.get(plan)! + 1);
  }
  const pollsOf = (plan: ProtocolPlan) =>
    plan.upstream.requests.filter((request) => request.method === "GET" && plan.pollPath.test(request.path));
  try {
    // Submitting: the poller waits an hour, so every task is still queued when the drain starts.
    const submitter = await startGatewayProcess(options.projectRoot, options.launch, {
      config: config(3_600_000),
      dataFolder,
      configName: "submit.yaml",
    });
    let submitSeconds: number;
    try {
      const submit = async (tokenName: string, count: number, bodyOf: (index: number) => object) => {
        const { apiKey } = await provisionGatewayToken(submitter.url, submitter.adminToken, {
          name: tokenName,
          unlimited: false,
        });
        let next = 0;
        await Promise.all(
          Array.from({ length: 32 }, async () => {
            while (next < count) {
              const index = next;
              next += 1;
              const answer = await fetch(`${submitter.url}/v1/video/generations`, {
                method: "POST",
                headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
                body: JSON.stringify(bodyOf(index)),
              });
              if (answer.status !== 200) throw new Error(`submit answered ${answer.status}: ${await answer.text()}`);
              await answer.arrayBuffer();
            }
          }),
        );
      };
      const submitStart = performance.now();
      await submit(mixedTokenName, options.tasks, (index) => submissions[index % submissions.length]!.body(index));
      submitSeconds = (performance.now() - submitStart) / 1000;
      // The protocols' own tasks, as many per protocol (its models in turn): distinguished by their token.
      const alone = plans.flatMap((plan) =>
        Array.from({ length: options.aloneTasks }, (_, index) => plan.bodies[index % plan.bodies.length]!),
      );
      await submit(aloneTokenName, alone.length, (index) => alone[index]!(options.tasks + index));
    } finally {
      await submitter.server.stop();
    }
    for (const plan of plans) plan.upstream.requests.length = 0;
    // The drainer starts while the tasks are not due yet, so its start-up is not measured.
    const drainer = await startGatewayProcess(options.projectRoot, options.launch, {
      config: config(drainPollIntervalMs),
      dataFolder,
      configName: "drain.yaml",
    });
    const database = await openDatabase(`sqlite:${path.join(dataFolder, "gateway.db")}`);
    try {
      const pid = drainer.server.process.pid!;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const cpuBefore = readProcessCpuMicroseconds(pid);
      const waitUntilFinished = async (tokenName: string, models: string[]) => {
        for (;;) {
          const row = await database.db
            .selectFrom("tasks")
            .select((builder) => builder.fn.countAll<number>().as("open"))
            .where("token_name", "=", tokenName)
            .where("model", "in", models)
            .where("status", "in", ["queued", "in_progress"])
            .executeTakeFirstOrThrow();
          if (Number(row.open) === 0) return Date.now();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const allModels = plans.flatMap((plan) => plan.models);
      await sql`update tasks set next_poll_at = 0 where token_name = ${mixedTokenName}`.execute(database.db);
      const drainEnd = await waitUntilFinished(mixedTokenName, allModels);
      const cpuMicroseconds = readProcessCpuMicroseconds(pid) - cpuBefore;
      const mixedPolls = new Map(plans.map((plan) => [plan, pollsOf(plan)]));
      const aloneOf = new Map<ProtocolPlan, ProtocolAloneDrain>();
      for (const plan of plans) {
        const pollsBefore = pollsOf(plan).length;
        const cpuAtStart = readProcessCpuMicroseconds(pid);
        await sql`update tasks set next_poll_at = 0 where token_name = ${aloneTokenName} and model in (${sql.join(plan.models)})`.execute(
          database.db,
        );
        const end = await waitUntilFinished(aloneTokenName, plan.models);
        const cpu = readProcessCpuMicroseconds(pid) - cpuAtStart;
        const polls = pollsOf(plan).slice(pollsBefore);
        const drainSeconds = Math.max(0.001, (end - (polls[0]?.receivedAt ?? end)) / 1000);
        aloneOf.set(plan, {
          tasks: options.aloneTasks,
          polls: polls.length,
          drainSeconds,
          pollsPerSecond: polls.length / drainSeconds,
          cpuMicrosecondsPerPoll: cpu / polls.length,
        });
      }
      const protocols = plans.map((plan): ProtocolDrain => {
        const polls = mixedPolls.get(plan)!;
        const first = polls[0]?.receivedAt ?? drainEnd;
        const last = polls.at(-1)?.receivedAt ?? drainEnd;
        const drainSeconds = Math.max(0.001, (last - first) / 1000);
        return {
          protocol: plan.protocol,
          models: plan.models,
          tasks: tasksOf.get(plan)!,
          polls: polls.length,
          drainSeconds,
          pollsPerSecond: polls.length / drainSeconds,
          alone: aloneOf.get(plan)!,
        };
      });
      // From the first poll (the poller wakes every half interval) to the last task finished.
      const firstPoll = Math.min(...plans.map((plan) => mixedPolls.get(plan)![0]?.receivedAt ?? drainEnd));
      const drainSeconds = (drainEnd - firstPoll) / 1000;
      const polls = protocols.reduce((sum, protocol) => sum + protocol.polls, 0);
      return {
        tasks: options.tasks,
        database: "SQLite (file)",
        pollIntervalMs: drainPollIntervalMs,
        maxConcurrentPolls,
        submitSeconds,
        drainSeconds,
        polls,
        pollsPerSecond: polls / drainSeconds,
        cpuMicrosecondsPerPoll: cpuMicroseconds / polls,
        protocols,
        loadAverage: os.loadavg()[0]!,
        cpus: os.cpus().length,
      };
    } finally {
      await drainer.server.stop();
      await database.close();
    }
  } finally {
    await Promise.all([openai.close(), native.close(), dashscope.close(), ark.close()]);
    fs.rmSync(dataFolder, { recursive: true, force: true });
  }
}

// `npm run bench:tasks [tasks]`: the task point alone, the gateway run through tsx (dist/ may be stale).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const launch: GatewayLaunch = { entry: ["--import", "tsx", "src/main.ts"] };
  const tasks = Number(process.argv[2] ?? 10_000);
  const result = await measureTaskDrain({
    projectRoot,
    launch,
    tasks,
    aloneTasks: Math.max(10, Math.round(tasks / 20)),
  });
  console.log(JSON.stringify(result, null, 2));
  writeTaskDrainSection(projectRoot, result);
}
