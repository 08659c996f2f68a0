import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";

type ChatCompletionChoiceLogprobs = NonNullable<OpenaiComponents["schemas"]["ChatCompletionChoiceLogprobs"]>;
type ChatCompletionTokenLogprob = OpenaiComponents["schemas"]["ChatCompletionTokenLogprob"];

interface NativeLogprobCandidate {
  token?: unknown;
  logProbability?: unknown;
}

/**
 * A candidate's native `logprobsResult` ({chosenCandidates[], topCandidates[{candidates[]}]}, one entry per decoding
 * step) → OpenAI `logprobs.content[]`: the chosen token of each step with its log probability and UTF-8 bytes, and
 * that step's top alternatives as `top_logprobs`. Undefined when the upstream sent none (logprobs not asked for).
 * The upstream schema is tolerated, not trusted: entries without a token string are skipped.
 */
export function convertNativeLogprobs(logprobsResult: unknown): ChatCompletionChoiceLogprobs | undefined {
  if (logprobsResult === null || typeof logprobsResult !== "object") return undefined;
  const { chosenCandidates, topCandidates } = logprobsResult as { chosenCandidates?: unknown; topCandidates?: unknown };
  if (!Array.isArray(chosenCandidates)) return undefined;
  const steps = Array.isArray(topCandidates) ? topCandidates : [];
  const content: ChatCompletionTokenLogprob[] = [];
  for (const [step, chosen] of chosenCandidates.entries()) {
    const token = convertCandidate(chosen as NativeLogprobCandidate);
    if (token === undefined) continue;
    const alternatives = (steps[step] as { candidates?: unknown } | undefined)?.candidates;
    const topLogprobs = (Array.isArray(alternatives) ? alternatives : [])
      .map((alternative) => convertCandidate(alternative as NativeLogprobCandidate))
      .filter((alternative) => alternative !== undefined);
    content.push({ ...token, top_logprobs: topLogprobs });
  }
  return { content };
}

function convertCandidate(
  candidate: NativeLogprobCandidate | null | undefined,
): { token: string; logprob: number; bytes: number[] } | undefined {
  if (!candidate || typeof candidate.token !== "string") return undefined;
  // The upstream omits a log probability of 0 (a certain token), as it omits other zero values.
  const logprob = typeof candidate.logProbability === "number" ? candidate.logProbability : 0;
  return { token: candidate.token, logprob, bytes: [...Buffer.from(candidate.token, "utf8")] };
}
