export interface ReservationRecord {
  /** the request id */
  id: string;
  tokenId: number;
  userId: number;
  reserved: number;
  settled: boolean;
  actual: number | null;
  createdTime: number;
  settledTime: number | null;
  /** `reserved` was taken from the token (false: an unlimited token) */
  tokenHeld: boolean;
  /** `reserved` was taken from the owner's wallet (false: an unlimited wallet) */
  walletHeld: boolean;
}
