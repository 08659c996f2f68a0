export interface Voice {
  id: string;
  type: "VOICE_TYPE_PREBUILT";
  display_name: string;
  language_code: string;
  region_code: string;
  accent: string;
  persona: string;
  context: string;
  gender: "female" | "male";
  pitch: "PITCH_HIGH" | "PITCH_MEDIUM" | "PITCH_LOW";
  description: string;
}

export const VOICE_CONTEXTS = [
  "Content & Media",
  "Conversational / Edu",
  "Enterprise Agent",
  "Growth & Marketing",
  "Entertainment & Gaming",
  "Wellness & Culture",
] as const;

/** The 30 prebuilt speaker names with their style, gender and pitch. */
const SPEAKERS: Array<[name: string, persona: string, gender: Voice["gender"], pitch: Voice["pitch"]]> = [
  ["Zephyr", "Bright", "female", "PITCH_HIGH"],
  ["Puck", "Upbeat", "male", "PITCH_MEDIUM"],
  ["Charon", "Informative", "male", "PITCH_LOW"],
  ["Kore", "Firm", "female", "PITCH_MEDIUM"],
  ["Fenrir", "Excitable", "male", "PITCH_MEDIUM"],
  ["Leda", "Youthful", "female", "PITCH_HIGH"],
  ["Orus", "Firm", "male", "PITCH_LOW"],
  ["Aoede", "Breezy", "female", "PITCH_MEDIUM"],
  ["Callirrhoe", "Easy-going", "female", "PITCH_MEDIUM"],
  ["Autonoe", "Bright", "female", "PITCH_HIGH"],
  ["Enceladus", "Breathy", "male", "PITCH_LOW"],
  ["Iapetus", "Clear", "male", "PITCH_MEDIUM"],
  ["Umbriel", "Easy-going", "male", "PITCH_LOW"],
  ["Algieba", "Smooth", "male", "PITCH_LOW"],
  ["Despina", "Smooth", "female", "PITCH_MEDIUM"],
  ["Erinome", "Clear", "female", "PITCH_HIGH"],
  ["Algenib", "Gravelly", "male", "PITCH_LOW"],
  ["Rasalgethi", "Informative", "male", "PITCH_MEDIUM"],
  ["Laomedeia", "Upbeat", "female", "PITCH_HIGH"],
  ["Achernar", "Soft", "female", "PITCH_HIGH"],
  ["Alnilam", "Firm", "male", "PITCH_LOW"],
  ["Schedar", "Even", "male", "PITCH_MEDIUM"],
  ["Gacrux", "Mature", "female", "PITCH_LOW"],
  ["Pulcherrima", "Forward", "female", "PITCH_MEDIUM"],
  ["Achird", "Friendly", "male", "PITCH_MEDIUM"],
  ["Zubenelgenubi", "Casual", "male", "PITCH_LOW"],
  ["Vindemiatrix", "Gentle", "female", "PITCH_MEDIUM"],
  ["Sadachbia", "Lively", "male", "PITCH_HIGH"],
  ["Sadaltager", "Knowledgeable", "male", "PITCH_MEDIUM"],
  ["Sulafat", "Warm", "female", "PITCH_MEDIUM"],
];

const LOCALES: Array<[languageCode: string, regionCode: string, accent: string]> = [
  ["en-US", "US", "American"],
  ["en-GB", "GB", "British"],
  ["en-IN", "IN", "Indian English"],
  ["de-DE", "DE", "Standard German"],
  ["fr-FR", "FR", "Parisian French"],
  ["es-ES", "ES", "Castilian"],
  ["es-US", "US", "US Spanish"],
  ["pt-BR", "BR", "Brazilian"],
  ["ja-JP", "JP", "Tokyo Japanese"],
  ["ko-KR", "KR", "Seoul Korean"],
  ["hi-IN", "IN", "Standard Hindi"],
  ["it-IT", "IT", "Standard Italian"],
];

/**
 * 60 deterministic prebuilt voices: voice i pairs speaker i mod 30 with locale i mod 12 (distinct for i < 60,
 * since lcm(30, 12) = 60) and context i mod 6, so every filter has several matches and none matches everything.
 */
export function buildVoiceCatalogue(): Voice[] {
  return Array.from({ length: 60 }, (_, index) => {
    const [name, persona, gender, pitch] = SPEAKERS[index % SPEAKERS.length]!;
    const [languageCode, regionCode, accent] = LOCALES[index % LOCALES.length]!;
    const context = VOICE_CONTEXTS[index % VOICE_CONTEXTS.length]!;
    return {
      id: `${languageCode}-${name}`,
      type: "VOICE_TYPE_PREBUILT",
      display_name: name,
      language_code: languageCode,
      region_code: regionCode,
      accent,
      persona,
      context,
      gender,
      pitch,
      description: `${persona} ${gender} voice with ${/^[AEIOU]/.test(accent) ? "an" : "a"} ${accent} accent, suited to ${context}.`,
    };
  });
}
