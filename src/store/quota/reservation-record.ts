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
}
