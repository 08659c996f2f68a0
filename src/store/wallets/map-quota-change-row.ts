import type { Selectable } from "kysely";
import type { QuotaLedgerTable } from "../database-schema.js";
import type { QuotaChangeRecord } from "./quota-change-record.js";

export function mapQuotaChangeRow(row: Selectable<QuotaLedgerTable>): QuotaChangeRecord {
  return {
    id: row.id,
    userId: row.user_id,
    delta: row.delta,
    balanceAfter: row.balance_after,
    source: row.source,
    reason: row.reason,
    actorUserId: row.actor_user_id,
    redemptionCodeId: row.redemption_code_id,
    createdTime: row.created_time,
  };
}
