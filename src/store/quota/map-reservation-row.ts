import type { Selectable } from "kysely";
import type { QuotaReservationsTable } from "../database-schema.js";
import type { ReservationRecord } from "./reservation-record.js";

export function mapReservationRow(row: Selectable<QuotaReservationsTable>): ReservationRecord {
  return {
    id: row.id,
    tokenId: row.token_id,
    userId: row.user_id,
    reserved: row.reserved,
    settled: row.settled === 1,
    actual: row.actual,
    createdTime: row.created_time,
    settledTime: row.settled_time,
    tokenHeld: row.token_held === 1,
    walletHeld: row.wallet_held === 1,
  };
}
