import type { TaskCallbackState, TaskStatus } from "./task-record.js";

/** Fields of a task to change; undefined ones stay as they are. Named as in TaskRecord. */
export interface TaskPatch {
  channelId?: number | null;
  upstreamTaskId?: string | null;
  status?: TaskStatus;
  upstreamStatus?: string | null;
  progress?: number;
  resultUrl?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  responseBody?: unknown;
  completedTime?: number | null;
  quota?: number | null;
  billedSeconds?: number | null;
  /** epoch milliseconds */
  nextPollAt?: number;
  pollFailures?: number;
  idempotencyKey?: string | null;
  callbackState?: TaskCallbackState | null;
  /** epoch milliseconds */
  callbackNextAt?: number;
  updatedTime: number;
}
