/** The OpenAI Videos API's video object, as far as the gateway reads it (tolerant: every field optional). */
export interface OpenaiVideoObject {
  id?: string;
  object?: string;
  model?: string;
  status?: string;
  progress?: number;
  created_at?: number;
  completed_at?: number | null;
  expires_at?: number | null;
  seconds?: string | number;
  size?: string;
  error?: { code?: string; message?: string } | null;
  remixed_from_video_id?: string | null;
}
