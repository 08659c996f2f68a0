/** A thinking directive carried by the model name. */
export type ThinkingSuffix =
  | { kind: "thinking" }
  | { kind: "budget"; budget: number }
  | { kind: "level"; level: "LOW" | "HIGH" }
  | { kind: "nothinking" };

export interface ParsedModelName {
  /** The name sent upstream, suffix removed. The caller keeps the full name for pricing and logs. */
  upstreamModel: string;
  suffix?: ThinkingSuffix;
}

/**
 * Splits a thinking suffix off a native model name: `-thinking`, `-thinking-<n>`, `-thinking-low`, `-thinking-high`,
 * `-nothinking`. Only a trailing suffix counts, so `gmx-2.0-flash-thinking-exp` is a model of its own. Whether the
 * model can honour the directive is decided later (resolveThinkingConfig), where the model's generation is known.
 */
export function parseModelSuffix(model: string): ParsedModelName {
  const level = /^(.+)-thinking-(low|high)$/i.exec(model);
  if (level)
    return { upstreamModel: level[1]!, suffix: { kind: "level", level: level[2]!.toUpperCase() as "LOW" | "HIGH" } };
  const budget = /^(.+)-thinking-(\d+)$/i.exec(model);
  if (budget) return { upstreamModel: budget[1]!, suffix: { kind: "budget", budget: Number(budget[2]) } };
  const thinking = /^(.+)-thinking$/i.exec(model);
  if (thinking) return { upstreamModel: thinking[1]!, suffix: { kind: "thinking" } };
  const noThinking = /^(.+)-nothinking$/i.exec(model);
  if (noThinking) return { upstreamModel: noThinking[1]!, suffix: { kind: "nothinking" } };
  return { upstreamModel: model };
}
