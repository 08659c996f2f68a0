import type { Kysely } from "kysely";
import type { DatabaseDialect } from "../store/database-dialect.js";
import type { Database } from "../store/database-schema.js";
import { touchTokensAccessedTime } from "../store/tokens/touch-tokens-accessed-time.js";

export interface AccessTimeRecorder {
  record(tokenId: number, time: number): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `accessed_time` must move on every request without a write on the hot path: requests only note the token id,
 * and one statement a second stamps all of them.
 */
export function createAccessTimeRecorder(
  db: Kysely<Database>,
  options: { intervalMs: number; onError(error: unknown): void; dialect?: DatabaseDialect },
): AccessTimeRecorder {
  let pending = new Map<number, number>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (pending.size === 0) return flushing;
    const batch = pending;
    pending = new Map();
    const byTime = new Map<number, number[]>();
    for (const [tokenId, time] of batch) byTime.set(time, [...(byTime.get(time) ?? []), tokenId]);
    flushing = flushing
      .then(async () => {
        for (const [time, tokenIds] of byTime) await touchTokensAccessedTime(db, tokenIds, time, options.dialect);
      })
      .catch(options.onError);
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();
  return {
    record(tokenId, time) {
      pending.set(tokenId, time);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
