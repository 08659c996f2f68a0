import { shortenClientValue } from "../errors/shorten-client-value.js";
export const apiKeyMessages = {
  missing: "Missing API key. Send Authorization: Bearer sk-<API_KEY>.",
  missingNative:
    "Missing API key. Send x-goog-api-key, x-native-api-key, Authorization: Bearer or ?key= with sk-<API_KEY>.",
  missingAnthropic: "Missing API key. Send x-api-key or Authorization: Bearer with sk-<API_KEY>.",
  invalid: "invalid token: the API key is not valid.",
  disabled: "This API key is disabled.",
  ownerDisabled: "The user who owns this API key is disabled.",
  expired: "This API key has expired.",
  exhausted: "This API key's quota is used up: top up the token or make its quota unlimited.",
  ipNotAllowed: (ip: string) => `Requests from IP ${ip} are not allowed for this API key.`,
  modelNotAllowed: (model: string) => `This API key is not allowed to use model ${shortenClientValue(model)}.`,
} as const;
