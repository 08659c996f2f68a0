import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { ThinkingModel } from "./describe-thinking-model.js";
import type { ThinkingSuffix } from "../../../models/parse-model-suffix.js";

type ThinkingConfig = NativeComponents["schemas"]["ThinkingConfig"];
type ReasoningEffort = OpenaiComponents["schemas"]["CreateChatCompletionRequest"]["reasoning_effort"];
type Level = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";
type Source = "extra_body.native.thinking_config" | "reasoning_effort" | "model suffix";
type Amount = { kind: "auto" } | { kind: "off" } | { kind: "budget"; tokens: number } | { kind: "level"; level: Level };

export interface ThinkingSources {
  model: ThinkingModel;
  /** For messages only. */
  modelName: string;
  /** extra_body.native.thinking_config exactly as sent: not type-checked by the spec, so every field is checked here. */
  thinkingConfig: unknown;
  reasoningEffort: ReasoningEffort;
  suffix: ThinkingSuffix | undefined;
  /** generationConfig.maxOutputTokens of the request, the base of effort percentages when present. */
  maxOutputTokens: number | undefined;
  stream: boolean;
  /** False when extra_body.native is present: the client then owns the native request. */
  automaticAdaptation: boolean;
  warnings: string[];
}

const levels = new Set<Level>(["MINIMAL", "LOW", "MEDIUM", "HIGH"]);
/** Share of the budget base for each effort on 2.5 models (the product documents: about 20%, 50%, 80%). */
const effortShares = new Map<Level, number>([
  ["LOW", 0.2],
  ["MEDIUM", 0.5],
  ["HIGH", 0.8],
]);
/**
 * MINIMAL on a 2.5 model: a small fixed budget, clamped into the model's range (our choice; the product documents
 * are silent).
 */
const minimalBudget = 512;

/**
 * Resolves generationConfig.thinkingConfig from three sources, highest priority first (the documented order):
 * extra_body.native.thinking_config, then reasoning_effort, then the model-name suffix. The "how much" (budget or
 * level) and "show thoughts" (includeThoughts) are resolved separately: each takes the first source that says
 * something about it, so `-thinking` plus `reasoning_effort: low` thinks at 20% and shows its thoughts.
 *
 * Decisions the product documents leave open:
 * - Ranges per model: see describeThinkingModel. Budgets are clamped into the range (reported), -1 (auto) is kept.
 * - reasoning_effort on 2.5 models: low/medium/high = 20/50/80% of max_tokens when the request sets an output limit
 *   (so thinking leaves room for the answer), otherwise of the model's maximum budget; minimal = 512 tokens; none =
 *   thinking off. On generation 3 they map to thinkingLevel; none and minimal map to MINIMAL.
 * - A number on a generation-3 model (thinking_budget, `-thinking-<n>`) becomes a level: up to 1024 LOW, up to 8192
 *   MEDIUM, above HIGH; -1 leaves the level to the model (default HIGH). Reported, since it is lossy.
 * - Turning thinking off on a model that cannot: 2.5 pro gets its minimum budget, generation 3 gets MINIMAL, both
 *   reported; but the `-nothinking` suffix on a generation-3 model is refused with a 400 — the product documents define
 *   that suffix for 2.5 only, and a client that named a model variant that does not exist should hear so.
 * - `-thinking`, `-thinking-<n>` (n > 0), `-thinking-low` and `-thinking-high` mean includeThoughts true; `-nothinking`
 *   means false. thinking_budget > 0 implies true unless include_thoughts says otherwise.
 * - Automatic thinking adaptation: when no source decides includeThoughts, a streaming request gets
 *   includeThoughts true (reasoning_content is shown progressively, which is what streaming clients expect of a
 *   thinking model) and a non-streaming one leaves the upstream default (no thoughts). It is off whenever
 *   extra_body.native is present.
 * - Thoughts are never requested while thinking is off.
 * - Models without thinking control (before 2.5) ignore every thinking setting, reported.
 */
export function resolveThinkingConfig(sources: ThinkingSources): ThinkingConfig | undefined {
  const { model, warnings } = sources;
  const fromConfig = readThinkingConfig(sources.thinkingConfig, model, warnings);
  const fromEffort = readReasoningEffort(sources.reasoningEffort);
  const fromSuffix = readSuffix(sources.suffix);

  const chosen =
    (fromConfig.amount && { amount: fromConfig.amount, source: "extra_body.native.thinking_config" as Source }) ??
    (fromEffort && { amount: fromEffort, source: "reasoning_effort" as Source }) ??
    (fromSuffix.amount && { amount: fromSuffix.amount, source: "model suffix" as Source });
  let includeThoughts = fromConfig.includeThoughts ?? fromSuffix.includeThoughts;

  if (model.generation === "none") {
    if (chosen !== undefined || includeThoughts !== undefined) {
      warnings.push(`${sources.modelName} has no thinking control; the thinking settings were ignored.`);
    }
    return undefined;
  }

  const config: ThinkingConfig = {};
  let thinkingOff = false;
  if (chosen !== undefined && model.generation === "2.5") {
    config.thinkingBudget = toBudget(chosen.amount, chosen.source, model, sources);
    thinkingOff = config.thinkingBudget === 0;
  } else if (chosen !== undefined) {
    const level = toLevel(chosen.amount, chosen.source, sources);
    if (level !== undefined) config.thinkingLevel = level;
  }

  if (includeThoughts === undefined && sources.automaticAdaptation && sources.stream && !thinkingOff)
    includeThoughts = true;
  if (thinkingOff && includeThoughts === true) {
    warnings.push("Thoughts were asked for while thinking is off; includeThoughts was dropped.");
    includeThoughts = undefined;
  }
  if (includeThoughts !== undefined) config.includeThoughts = includeThoughts;
  return Object.keys(config).length > 0 ? config : undefined;
}

interface SourceReading {
  amount?: Amount;
  includeThoughts?: boolean;
}

function readThinkingConfig(value: unknown, model: ThinkingModel, warnings: string[]): SourceReading {
  if (value === undefined) return {};
  const path = "extra_body.native.thinking_config";
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    warnings.push(`${path} is not an object and was ignored.`);
    return {};
  }
  const config = value as Record<string, unknown>;
  let budgetAmount: Amount | undefined;
  let impliedInclude: boolean | undefined;
  if (config.thinking_budget !== undefined) {
    const budget = config.thinking_budget;
    if (typeof budget === "number" && Number.isInteger(budget)) {
      budgetAmount =
        budget === -1 ? { kind: "auto" } : budget <= 0 ? { kind: "off" } : { kind: "budget", tokens: budget };
      if (budget > 0) impliedInclude = true;
    } else {
      warnings.push(`${path}.thinking_budget is not an integer and was ignored.`);
    }
  }
  let levelAmount: Amount | undefined;
  if (config.thinking_level !== undefined) {
    const level = typeof config.thinking_level === "string" ? config.thinking_level.toUpperCase() : undefined;
    if (level !== undefined && levels.has(level as Level)) levelAmount = { kind: "level", level: level as Level };
    else warnings.push(`${path}.thinking_level is not one of MINIMAL, LOW, MEDIUM, HIGH and was ignored.`);
  }
  let explicitInclude: boolean | undefined;
  if (config.include_thoughts !== undefined) {
    if (typeof config.include_thoughts === "boolean") explicitInclude = config.include_thoughts;
    else warnings.push(`${path}.include_thoughts is not a boolean and was ignored.`);
  }
  // Each generation prefers its own kind of control when the client sent both.
  const amount = model.generation === "3" ? (levelAmount ?? budgetAmount) : (budgetAmount ?? levelAmount);
  return { amount, includeThoughts: explicitInclude ?? impliedInclude };
}

/**
 * The effort values are the upstream provider's (the spec lets any string through for pass-through channels); the
 * native family knows these five and refuses the rest rather than guess a level.
 */
function readReasoningEffort(effort: ReasoningEffort): Amount | undefined {
  switch (effort) {
    case undefined:
    case null:
      return undefined;
    case "none":
      return { kind: "off" };
    case "minimal":
    case "low":
    case "medium":
    case "high":
      return { kind: "level", level: effort.toUpperCase() as Level };
    default:
      throw new InvalidRequestError(
        `reasoning_effort "${effort}" is not supported for the native family; use none, minimal, low, medium or high.`,
        { param: "reasoning_effort" },
      );
  }
}

function readSuffix(suffix: ThinkingSuffix | undefined): SourceReading {
  switch (suffix?.kind) {
    case undefined:
      return {};
    case "thinking":
      return { amount: { kind: "auto" }, includeThoughts: true };
    case "budget":
      return suffix.budget === 0
        ? { amount: { kind: "off" }, includeThoughts: false }
        : { amount: { kind: "budget", tokens: suffix.budget }, includeThoughts: true };
    case "level":
      return { amount: { kind: "level", level: suffix.level }, includeThoughts: true };
    case "nothinking":
      return { amount: { kind: "off" }, includeThoughts: false };
  }
}

function toBudget(
  amount: Amount,
  source: Source,
  model: Extract<ThinkingModel, { generation: "2.5" }>,
  sources: ThinkingSources,
): number {
  const clamp = (tokens: number): number => {
    const clamped = Math.min(model.maxBudget, Math.max(model.minBudget, tokens));
    if (clamped !== tokens) {
      sources.warnings.push(
        `Thinking budget ${tokens} from ${source} was clamped to ${clamped}; the model takes ${model.minBudget}..${model.maxBudget}.`,
      );
    }
    return clamped;
  };
  switch (amount.kind) {
    case "auto":
      return -1;
    case "off":
      if (model.canDisable) return 0;
      sources.warnings.push(
        `${sources.modelName} cannot turn thinking off; its minimum budget ${model.minBudget} was used.`,
      );
      return model.minBudget;
    case "budget":
      return clamp(amount.tokens);
    case "level": {
      if (amount.level === "MINIMAL") return Math.min(model.maxBudget, Math.max(model.minBudget, minimalBudget));
      const base = sources.maxOutputTokens ?? model.maxBudget;
      const tokens = Math.round(base * (effortShares.get(amount.level) ?? 1));
      return Math.min(model.maxBudget, Math.max(model.minBudget, tokens));
    }
  }
}

function toLevel(amount: Amount, source: Source, sources: ThinkingSources): Level | undefined {
  switch (amount.kind) {
    case "auto":
      return undefined;
    case "off":
      if (source === "model suffix") {
        throw new InvalidRequestError(
          `${sources.modelName}: generation-3 models cannot turn thinking off, so the -nothinking suffix is not available.`,
          {
            param: "model",
          },
        );
      }
      sources.warnings.push(`${sources.modelName} cannot turn thinking off; thinkingLevel MINIMAL was used.`);
      return "MINIMAL";
    case "budget": {
      const level = amount.tokens <= 1024 ? "LOW" : amount.tokens <= 8192 ? "MEDIUM" : "HIGH";
      sources.warnings.push(
        `Thinking budget ${amount.tokens} from ${source} was sent as thinkingLevel ${level}; generation-3 models take levels.`,
      );
      return level;
    }
    case "level":
      return amount.level;
  }
}
