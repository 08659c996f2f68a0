/**
 * Marks a Responses reasoning item's `encrypted_content` as a native thought signature given by this gateway
 * (`native-thought-signature:<signature>`). A reasoning item from another provider (OpenAI's encrypted reasoning)
 * has no such prefix and is never sent to the native API as a signature it would refuse as corrupted.
 */
export const reasoningSignaturePrefix = "native-thought-signature:";
