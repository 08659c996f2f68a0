import { UpstreamFailure } from "../../upstream/upstream-failure.js";

/**
 * Whether a failed call is Azure's content filter refusing the prompt: a 400 whose error code is `content_filter`
 * (Azure says the prompt triggered its content management policy). Such a refusal is an answer, not a fault: the
 * chat doors show it as a completion finished by `content_filter`.
 */
export function isAzurePromptFilterRefusal(error: unknown): error is UpstreamFailure {
  if (!(error instanceof UpstreamFailure) || error.upstreamAnswer?.statusCode !== 400) return false;
  try {
    const body = JSON.parse(error.upstreamAnswer.bodyText) as { error?: { code?: unknown } };
    return body.error?.code === "content_filter";
  } catch {
    return false;
  }
}
