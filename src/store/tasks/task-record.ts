export type TaskCallbackState = "pending" | "delivered" | "exhausted";

export type TaskStatus = "queued" | "in_progress" | "completed" | "failed";

export interface TaskRecord {
  /** our task id */
  id: string;
  userId: number;
  tokenId: number;
  tokenName: string;
  channelId: number | null;
  keyIndex: number;
  model: string;
  upstreamModel: string | null;
  /** never shown to a client */
  upstreamTaskId: string | null;
  status: TaskStatus;
  /** the documented upstream vocabulary (PENDING, RUNNING, SUCCEEDED, FAILED, CANCELED, UNKNOWN) */
  upstreamStatus: string | null;
  /** 0 to 100 */
  progress: number;
  reservationId: string | null;
  reservedQuota: number;
  unlimitedQuota: boolean;
  billingGroup: string;
  /** the final cost, set by the terminal transition */
  quota: number | null;
  billedSeconds: number | null;
  resultUrl: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  traceId: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** parsed JSON, null when absent */
  requestBody: unknown;
  /** parsed JSON (the latest upstream snapshot), null when absent */
  responseBody: unknown;
  createdTime: number;
  updatedTime: number;
  completedTime: number | null;
  /** epoch milliseconds */
  nextPollAt: number;
  pollFailures: number;
  /** null when the task has no callback to send (or finished before callbacks were tracked) */
  callbackState: TaskCallbackState | null;
  /** callback tries made so far */
  callbackAttempts: number;
  /** epoch milliseconds when the next callback try is due */
  callbackNextAt: number;
}
