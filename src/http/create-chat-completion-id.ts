import { randomUUID } from "node:crypto";

/** The completion id when the native upstream sent no responseId. */
export function createChatCompletionId(): string {
  return `chatcmpl-${randomUUID().replaceAll("-", "")}`;
}
