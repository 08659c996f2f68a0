/** One row of the quota ledger: a change an administrator or a redeemed code made to a wallet. */
export interface QuotaChangeRecord {
  id: number;
  userId: number;
  delta: number;
  balanceAfter: number;
  source: "admin" | "redemption";
  reason: string;
  actorUserId: number | null;
  redemptionCodeId: number | null;
  createdTime: number;
}
