/**
 * What thinking control a native model takes. The product documents name two generations and leave the ranges open;
 * these are the ranges the upstream documents for its 2.5 models, which the gateway clamps to rather than letting the
 * upstream answer 400:
 * - 2.5 pro: budget 128..32768, thinking cannot be turned off;
 * - 2.5 flash-lite: 0 (off) or 512..24576;
 * - other 2.5 models (flash, flash-image, ...): 0 (off) or 1..24576;
 * - generation 3 and later (3, 3.1, 3.5, 3.8, ...): thinkingLevel MINIMAL/LOW/MEDIUM/HIGH (default HIGH), no budget, cannot
 *   be turned off;
 * - anything older, or a name without a version: no thinking control at all.
 * -1 ("let the model decide") is always accepted by 2.5 models and is not clamped.
 */
export type ThinkingModel =
  | { generation: "2.5"; minBudget: number; maxBudget: number; canDisable: boolean }
  | { generation: "3" }
  | { generation: "none" };

export function describeThinkingModel(upstreamModel: string): ThinkingModel {
  const version = /^gmx-(\d+)(?:\.(\d+))?(?:-|$)/i.exec(upstreamModel);
  if (version === null) return { generation: "none" };
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  if (major >= 3) return { generation: "3" };
  if (major !== 2 || minor !== 5) return { generation: "none" };
  if (/-pro(?:-|$)/i.test(upstreamModel))
    return { generation: "2.5", minBudget: 128, maxBudget: 32768, canDisable: false };
  if (/-flash-lite(?:-|$)/i.test(upstreamModel))
    return { generation: "2.5", minBudget: 512, maxBudget: 24576, canDisable: true };
  return { generation: "2.5", minBudget: 1, maxBudget: 24576, canDisable: true };
}
