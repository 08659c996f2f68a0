export type TaskStatus = "queued" | "in_progress" | "completed" | "failed";

export interface TaskRecord {
  /** our task id */
  id: string;
  userId: number;
  tokenId: number;
  channelId: number | null;
  model: string;
  upstreamTaskId: string | null;
  status: TaskStatus;
  /** 0 to 100 */
  progress: number;
  reservationId: string | null;
  resultUrl: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** parsed JSON, null when absent */
  requestBody: unknown;
  /** parsed JSON (the latest upstream reply), null when absent */
  responseBody: unknown;
  createdTime: number;
  updatedTime: number;
  completedTime: number | null;
}
