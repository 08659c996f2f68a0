/** What every chat completion object and chunk of one reply shares. */
export interface ChatCompletionMeta {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
}

export const fakeSystemFingerprint = "fp_fake";
