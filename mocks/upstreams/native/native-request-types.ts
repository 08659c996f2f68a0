/** Tolerant shapes of the native request bodies: every field optional, because the fake validates them itself. */
export interface NativePart {
  text?: unknown;
  thought?: unknown;
  inlineData?: { mimeType?: unknown; data?: unknown };
  fileData?: { mimeType?: unknown; fileUri?: unknown };
  functionCall?: { name?: unknown; args?: unknown };
  functionResponse?: { name?: unknown; response?: unknown };
  executableCode?: { language?: unknown; code?: unknown };
  codeExecutionResult?: { outcome?: unknown; output?: unknown };
}

export interface NativeContent {
  role?: unknown;
  parts?: unknown;
}

export interface NativeSchema {
  type?: unknown;
  properties?: Record<string, NativeSchema>;
  items?: NativeSchema;
  enum?: unknown[];
  required?: unknown;
}

export interface NativeFunctionDeclaration {
  name?: unknown;
  description?: unknown;
  parameters?: NativeSchema;
  parametersJsonSchema?: NativeSchema;
}

export interface NativeTool {
  functionDeclarations?: NativeFunctionDeclaration[];
  nativeSearch?: unknown;
  googleSearch?: unknown;
  codeExecution?: unknown;
  urlContext?: unknown;
}

export interface NativeGenerationConfig {
  temperature?: unknown;
  topP?: unknown;
  topK?: unknown;
  candidateCount?: unknown;
  responseLogprobs?: unknown;
  logprobs?: unknown;
  maxOutputTokens?: unknown;
  stopSequences?: unknown;
  responseMimeType?: unknown;
  responseSchema?: NativeSchema;
  responseJsonSchema?: NativeSchema;
  responseModalities?: unknown;
  thinkingConfig?: { includeThoughts?: unknown; thinkingBudget?: unknown; thinkingLevel?: unknown };
  imageConfig?: { aspectRatio?: unknown; imageSize?: unknown; imageOutputOptions?: { mimeType?: unknown } };
  speechConfig?: {
    voiceConfig?: { prebuiltVoiceConfig?: { voiceName?: unknown } };
    multiSpeakerVoiceConfig?: unknown;
  };
}

export interface GenerateContentRequest {
  contents?: unknown;
  systemInstruction?: unknown;
  generationConfig?: NativeGenerationConfig;
  safetySettings?: unknown;
  tools?: unknown;
  toolConfig?: { functionCallingConfig?: { mode?: unknown; allowedFunctionNames?: unknown } };
  cachedContent?: unknown;
}
