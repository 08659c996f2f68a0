import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../logging/logger.js";
import { startReservationRecovery } from "./start-reservation-recovery.js";

describe("startReservationRecovery", () => {
  it("sweeps at start and then on every interval, with the configured age, until stopped", async () => {
    vi.useFakeTimers();
    try {
      const recoverAbandonedReservations = vi.fn(async () => 0);
      const recovery = startReservationRecovery({ recoverAbandonedReservations }, createLogger({ level: "silent" }), {
        olderThanSeconds: 3600,
        intervalMs: 1000,
      });
      expect(recoverAbandonedReservations).toHaveBeenCalledTimes(1);
      expect(recoverAbandonedReservations).toHaveBeenCalledWith(3600);
      await vi.advanceTimersByTimeAsync(2500);
      expect(recoverAbandonedReservations).toHaveBeenCalledTimes(3);
      recovery.stop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(recoverAbandonedReservations).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs a failed sweep instead of crashing the process", async () => {
    const recoverAbandonedReservations = vi.fn(async () => {
      throw new Error("database unavailable");
    });
    const recovery = startReservationRecovery({ recoverAbandonedReservations }, createLogger({ level: "silent" }), {
      olderThanSeconds: 60,
      intervalMs: 60_000,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(recoverAbandonedReservations).toHaveBeenCalledTimes(1);
    recovery.stop();
  });
});
