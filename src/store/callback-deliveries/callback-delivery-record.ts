/** One attempt to deliver a task's callback. */
export interface CallbackDeliveryRecord {
  taskId: string;
  /** 1 for the first try */
  attempt: number;
  /** the receiver's HTTP status; null when no answer came (refused address, timeout, connection error) */
  statusCode: number | null;
  errorMessage: string | null;
  succeeded: boolean;
  /** Unix seconds */
  createdTime: number;
}
