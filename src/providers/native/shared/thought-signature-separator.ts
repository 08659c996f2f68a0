/**
 * Between a tool call id and the thought signature it carries (`call_abc__thought__<signature>`). Generation-3
 * native models refuse a function-call turn whose signature is not sent back, and OpenAI clients echo exactly one
 * thing of a tool call: its id (in the assistant message and in the tool result). LiteLLM uses the same separator,
 * so histories move between the two gateways. Signatures are base64, which never contains `__thought__`.
 */
export const thoughtSignatureSeparator = "__thought__";
