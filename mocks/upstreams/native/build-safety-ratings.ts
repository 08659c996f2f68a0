const HARM_CATEGORIES = [
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
] as const;

export interface SafetyRating {
  category: string;
  probability: string;
  blocked?: boolean;
}

/** The four ratings the native API reports; with `blocked`, dangerous content is rated HIGH and marked blocked. */
export function buildSafetyRatings(blocked = false): SafetyRating[] {
  return HARM_CATEGORIES.map((category) =>
    blocked && category === "HARM_CATEGORY_DANGEROUS_CONTENT"
      ? { category, probability: "HIGH", blocked: true }
      : { category, probability: "NEGLIGIBLE" },
  );
}
