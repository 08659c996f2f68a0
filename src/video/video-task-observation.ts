/** Gateway task states, as the seed names them. */
export type VideoTaskState = "queued" | "in_progress" | "completed" | "failed";

/**
 * One upstream task answer (poll or callback) read into the gateway's terms by a family's mapper. The task core
 * stores it, answers queries from it and settles from its billing fields on the terminal transition.
 */
export interface VideoTaskObservation {
  state: VideoTaskState;
  /** The provider's own status word, for `metadata.output.task_status` (troubleshooting only). */
  upstreamStatus: string;
  /** 0 to 100 when the provider reports it. */
  progress?: number;
  /** Result address as the provider gave it; for native channels it needs the key, so it is never shown as is. */
  resultUrl?: string;
  /** Why a failed task failed. */
  error?: { code: string; message: string };
  /** Billed seconds per sample once completed (vid-c2.7-videoedit: input plus output). */
  billedSeconds?: number;
  /** Number of videos produced (vid-b sampleCount after filtering); 1 elsewhere. */
  samples?: number;
  /** Output tokens the provider reported (ark), for models priced per 1M output tokens. */
  completionTokens?: number;
  /** Extra provider fields for `data.metadata.output` of the wrapped query answer. */
  output?: Record<string, unknown>;
  /** Provider usage for `data.metadata.usage` of the wrapped query answer. */
  usage?: Record<string, unknown>;
}
