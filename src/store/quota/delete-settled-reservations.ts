import { requestIdsFrom } from "../../http/create-request-id.js";
import type { GatewayDatabase } from "../gateway-database.js";
import { type DeletedBatch, runDeletionBatch } from "../run-deletion-batch.js";

/**
 * Deletes at most `limit` settled ledger rows (`quota_reservations`) created before `createdBefore` (Unix seconds),
 * in id order. Once settled, a row is read by nothing: recovery and the task lifecycle look for unsettled rows only,
 * and a settlement that finds no unsettled row does nothing. Every request that holds a balance writes one, so
 * without this the table grows for as long as the gateway runs.
 *
 * The rows are found by a range of the primary key, since ledger ids begin with their creation time
 * (create-request-id.ts): no index on age, which every hold would pay for, is needed. The time condition repeated on
 * `created_time` keeps a row whose id does not follow that form (the random ids of older versions) until it is old
 * by its own time too.
 */
export function deleteSettledReservationsCreatedBefore(
  database: GatewayDatabase,
  createdBefore: number,
  limit: number,
): Promise<DeletedBatch> {
  const idsBefore = requestIdsFrom(createdBefore * 1000);
  return runDeletionBatch(
    database,
    database.db
      .deleteFrom("quota_reservations")
      .where("id", "in", (query) =>
        query
          .selectFrom("quota_reservations")
          .select("id")
          .where("id", ">=", "req_")
          .where("id", "<", idsBefore)
          .where("settled", "=", 1)
          .where("created_time", "<", createdBefore)
          .orderBy("id")
          .limit(limit),
      ),
  );
}
