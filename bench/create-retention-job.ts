import type { GatewayConfig } from "../src/config/gateway-config.js";
import { createLogger } from "../src/logging/logger.js";
import type { GatewayDatabase } from "../src/store/gateway-database.js";
import { startUsageRetention, type UsageRetentionStep } from "../src/usage-logs/start-usage-retention.js";

export interface RetentionJobSettings {
  retentionDays: number;
  batchSize: number;
  pauseMs: number;
}

/** The retention job of src/usage-logs/ as the bench drives it: a pass on `run`, its steps to `onStep`. */
export interface RetentionJob {
  onStep(listener: (step: UsageRetentionStep) => void): void;
  /** Starts one pass. */
  run(): void;
  /** Ends the pass after its current batch. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** The job on `database`, in the calling process; its timer never fires (passes run when the bench says). */
export function createRetentionJob(
  database: GatewayDatabase,
  settings: RetentionJobSettings,
  onFailure: (error: unknown) => void,
): RetentionJob {
  const config = {
    logs: {
      retentionDays: settings.retentionDays,
      rollupRetentionDays: 0,
      retentionBatchSize: settings.batchSize,
      retentionPauseMs: settings.pauseMs,
    },
  } as GatewayConfig;
  const listeners: ((step: UsageRetentionStep) => void)[] = [];
  let retention: ReturnType<typeof startUsageRetention> | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  return {
    onStep: (listener) => listeners.push(listener),
    run() {
      retention = startUsageRetention(
        { config, database, logger: createLogger({ level: "warn" }), now: () => Math.floor(Date.now() / 1000) },
        {
          intervalMs: 3_600_000,
          firstPassAfterMs: 3_600_000,
          onStep: (step) => {
            for (const listener of listeners) listener(step);
          },
        },
      );
      pass = retention.runOnce().catch(onFailure);
    },
    async stop() {
      await retention?.stop();
      await pass;
    },
    close: async () => {},
  };
}

/**
 * A job in a child process of the bench, driven by its parent's messages: `run` starts a pass, `stop` ends it and
 * answers `stopped`; each step goes back as `step`, a failure as `failed`.
 */
export function answerRetentionJobMessages(job: RetentionJob): void {
  job.onStep((step) => process.send?.({ type: "step", step }));
  process.on("message", (message: { type: string }) => {
    if (message.type === "run") job.run();
    else if (message.type === "stop") void job.stop().then(() => process.send?.({ type: "stopped" }));
  });
}

/** Reports a failed pass of a job in a child process to its parent. */
export function reportRetentionFailure(error: unknown): void {
  process.send?.({ type: "failed", message: String(error) });
}
