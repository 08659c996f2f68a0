export interface NativeModel {
  name: string;
  version: string;
  displayName: string;
  description: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  supportedGenerationMethods: string[];
  thinking?: boolean;
}

const GENERATION_METHODS = ["generateContent", "streamGenerateContent", "countTokens"];

/** The models this upstream advertises. Any other `gmx-` name is still served (the fake is permissive on names). */
export function listNativeModels(): NativeModel[] {
  const model = (
    id: string,
    displayName: string,
    methods: string[],
    limits: [number, number],
    thinking?: boolean,
  ): NativeModel => ({
    name: `models/${id}`,
    version: id.replace(/^gmx-/, ""),
    displayName,
    description: `${displayName} (fake native upstream)`,
    inputTokenLimit: limits[0],
    outputTokenLimit: limits[1],
    supportedGenerationMethods: methods,
    ...(thinking === undefined ? {} : { thinking }),
  });
  return [
    model("gmx-2.5-flash", "GMX 2.5 Flash", GENERATION_METHODS, [1_048_576, 65_536], true),
    model("gmx-2.5-pro", "GMX 2.5 Pro", GENERATION_METHODS, [1_048_576, 65_536], true),
    model("gmx-3-pro-preview", "GMX 3 Pro Preview", GENERATION_METHODS, [1_048_576, 65_536], true),
    model("gmx-2.5-flash-image", "GMX 2.5 Flash Image", GENERATION_METHODS, [32_768, 32_768]),
    model("gmx-3.8-flash-tts", "GMX 3.8 Flash TTS", GENERATION_METHODS, [8_192, 16_384]),
    model("gmx-3.1-flash-tts-preview", "GMX 3.1 Flash TTS Preview", GENERATION_METHODS, [8_192, 16_384]),
    model("gmx-2.5-flash-preview-tts", "GMX 2.5 Flash Preview TTS", GENERATION_METHODS, [8_192, 16_384]),
    model("gmx-2.5-pro-preview-tts", "GMX 2.5 Pro Preview TTS", GENERATION_METHODS, [8_192, 16_384]),
    model("gmx-embedding-001", "GMX Embedding 001", ["embedContent", "batchEmbedContents"], [2_048, 1]),
  ];
}
