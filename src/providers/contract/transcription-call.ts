/** An /v1/audio transcription or translation: the multipart form as the client sent it. */
export interface TranscriptionCall {
  task: "transcriptions" | "translations";
  /** The form's text fields as the client sent them. */
  fields: Record<string, string>;
  file: { buffer: Buffer; originalname: string; mimetype: string };
}
