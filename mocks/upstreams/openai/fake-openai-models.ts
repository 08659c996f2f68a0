/** What GET /v1/models lists. Any other model name is accepted too, except the `missing-` prefix (see route). */
export const fakeOpenaiModels = [
  { id: "gpt-4o-mini", owned_by: "system" },
  { id: "gpt-4o", owned_by: "system" },
  { id: "deepseek-reasoner", owned_by: "deepseek" },
  { id: "text-embedding-3-small", owned_by: "system" },
  { id: "text-embedding-3-large", owned_by: "system" },
  { id: "speech-1", owned_by: "system" },
  { id: "speech-1-hd", owned_by: "system" },
  { id: "tts-1", owned_by: "system" },
  { id: "transcribe-1", owned_by: "system" },
  { id: "whisper-1", owned_by: "system" },
] as const;

/** A fixed creation time, so listings are byte-stable. */
export const fakeOpenaiModelCreated = 1_700_000_000;
