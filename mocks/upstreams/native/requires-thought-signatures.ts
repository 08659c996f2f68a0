/**
 * Generation-3 text models always think, sign every function call, and refuse a function-call turn whose signature
 * is missing or altered. Image and speech models of that generation do not enforce it (as the real image model).
 */
export function requiresThoughtSignatures(model: string): boolean {
  return /^gmx-3(\.\d+)?-/.test(model) && !/-(image|tts)(-|$)/.test(model);
}
