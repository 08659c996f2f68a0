import type { Logger } from "../logging/logger.js";
import type { BillingService } from "./billing-service.js";

export interface ReservationRecovery {
  stop(): void;
}

/**
 * Crash path of the money rules: a process that died between reserve and settle leaves a hold on the token.
 * At start and then periodically, holds older than the longest request can take are refunded whole (exactly once,
 * through the same guard as settlement), so no quota stays locked forever.
 */
export function startReservationRecovery(
  billing: Pick<BillingService, "recoverAbandonedReservations">,
  logger: Logger,
  options: { olderThanSeconds: number; intervalMs: number },
): ReservationRecovery {
  const sweep = async () => {
    try {
      const refunded = await billing.recoverAbandonedReservations(options.olderThanSeconds);
      if (refunded > 0) logger.warn({ refunded }, "refunded reservations abandoned by a stopped process");
    } catch (error) {
      logger.error({ err: error }, "reservation recovery failed");
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
