import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";

// What the PostgreSQL ledger is asked to apply: a hold or a settlement, batched or alone.

export interface PostgresReserveInput {
  requestId: string;
  tokenId: number;
  userId: number;
  amount: number;
  tokenLimited: boolean;
}

export interface PostgresSettleInput {
  reservationId: string | null;
  tokenId: number;
  userId: number;
  actual: number;
  /** Written in the settlement's commit whatever the guard says: the relay always logs its request. */
  usageRow?: NewUsageLog;
}
