export interface OpenaiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's error envelope: all four fields always present, null when not applicable. */
export function createOpenaiErrorBody(
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): OpenaiErrorBody {
  return { error: { message, type, param, code } };
}
