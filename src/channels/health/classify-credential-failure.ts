/** Why a channel or key is taken out of routing by itself: its credential or account is broken, not busy. */
export type CredentialFailureReason = "unauthorized" | "forbidden" | "insufficient_balance" | "model_not_found";

// Words providers use for an empty account: OpenAI's `insufficient_quota` code, "insufficient balance" (DeepSeek,
// many resellers), Alibaba's `Arrearage`, Volcengine's `AccountOverdueError`, "billing" hard limits.
const emptyAccountPattern = /insufficient[_ ](quota|balance|credit|funds)|arrearage|accountoverdue|billing_hard_limit/i;
const modelNotFoundPattern = /model_not_found|model[^.]{0,80}(not found|does not exist|not exist)/i;

/**
 * Reads an upstream's error answer for the failures no retry fixes because the credential or the account is
 * broken: 401, 403, an empty balance (402, or an account error in the body), a model the channel's account does not
 * have. Rate limits (429) and server failures (5xx) are never among them, even when their body mentions a quota:
 * those only cool the channel down, since they pass by themselves.
 */
export function classifyCredentialFailure(statusCode: number, bodyText: string): CredentialFailureReason | undefined {
  if (statusCode === 429 || statusCode >= 500 || statusCode < 400) return undefined;
  if (emptyAccountPattern.test(bodyText) || statusCode === 402) return "insufficient_balance";
  if (statusCode === 401) return "unauthorized";
  if (statusCode === 403) return "forbidden";
  if ((statusCode === 404 || statusCode === 400) && modelNotFoundPattern.test(bodyText)) return "model_not_found";
  return undefined;
}
