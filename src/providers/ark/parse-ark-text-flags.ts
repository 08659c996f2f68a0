import { createInvalidVideoRequest } from "../../video/create-invalid-video-request.js";

/** The inline text commands of the ark content-generation API, by their long names. */
export type ArkFlagName =
  | "resolution"
  | "ratio"
  | "duration"
  | "frames"
  | "framespersecond"
  | "seed"
  | "watermark"
  | "camerafixed";

export interface ArkTextFlag {
  /** How the client spelled it (`--rs`, `--resolution`), for messages. */
  spelled: string;
  value: string;
}

export interface ParsedArkText {
  /** The text with the recognised flags taken out, trimmed. */
  prompt: string;
  flags: Map<ArkFlagName, ArkTextFlag>;
}

const flagAliases = new Map<string, ArkFlagName>([
  ["resolution", "resolution"],
  ["rs", "resolution"],
  ["ratio", "ratio"],
  ["rt", "ratio"],
  ["duration", "duration"],
  ["dur", "duration"],
  ["frames", "frames"],
  ["framespersecond", "framespersecond"],
  ["fps", "framespersecond"],
  ["seed", "seed"],
  ["watermark", "watermark"],
  ["wm", "watermark"],
  ["camerafixed", "camerafixed"],
  ["cf", "camerafixed"],
]);

// A flag starts a word; `--` inside a word (an em-dash written as two hyphens) is prompt text.
const flagPattern = /(^|\s)--([A-Za-z]+)(?=\s|$)(?:\s+([^\s]+))?/g;

/**
 * Finds the inline `--flag value` commands in a vid-e text item. Only syntax is checked here (a known flag needs a
 * value and may appear once); the values are checked against the model by the family's rules. Unknown `--words` stay
 * in the prompt: the upstream treats them as text too.
 */
export function parseArkTextFlags(text: string, field: string): ParsedArkText {
  const flags = new Map<ArkFlagName, ArkTextFlag>();
  const prompt = text.replace(flagPattern, (whole, lead: string, spelledName: string, value: string | undefined) => {
    const name = flagAliases.get(spelledName.toLowerCase());
    if (name === undefined) return whole;
    const spelled = `--${spelledName}`;
    if (value === undefined || value.startsWith("--"))
      throw createInvalidVideoRequest(field, `${field}: ${spelled} needs a value.`);
    const earlier = flags.get(name);
    if (earlier !== undefined)
      throw createInvalidVideoRequest(field, `${field}: ${spelled} is given twice (also as ${earlier.spelled}).`);
    flags.set(name, { spelled, value });
    return lead;
  });
  return { prompt: prompt.replaceAll(/\s+/g, " ").trim(), flags };
}
