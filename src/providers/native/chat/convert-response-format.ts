import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { cleanNativeSchema } from "./clean-native-schema.js";

type ResponseFormat = OpenaiComponents["schemas"]["ChatCompletionResponseFormat"];
type GenerationConfig = NativeComponents["schemas"]["GenerationConfig"];

/**
 * response_format → the generationConfig fields that ask for JSON. `json_object` only sets the MIME type (there is no
 * schema to give); `json_schema` adds the schema, cleaned to the native dialect. `text` is the native default.
 * The schema's name, description and strict flag have no native field; strictness is what the native API does anyway.
 */
export function convertResponseFormat(
  responseFormat: ResponseFormat | undefined,
  warnings: string[],
): Pick<GenerationConfig, "responseMimeType" | "responseSchema"> {
  switch (responseFormat?.type) {
    case undefined:
    case "text":
      return {};
    case "json_object":
      return { responseMimeType: "application/json" };
    case "json_schema": {
      const schema = responseFormat.json_schema.schema;
      if (schema === undefined) return { responseMimeType: "application/json" };
      return {
        responseMimeType: "application/json",
        responseSchema: cleanNativeSchema(schema, { context: "response_format.json_schema.schema", warnings }),
      };
    }
  }
}
