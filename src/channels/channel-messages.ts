import { shortenClientValue } from "../errors/shorten-client-value.js";
/** Wording the admin API answers with; the spec's examples use exactly these. */
export const channelMessages = {
  notFound: "Channel does not exist.",
  administratorRequired: "This operation requires an administrator.",
  keyRequired: "key or keys is required",
  configReadOnly: (channelId: number) =>
    `Channel ${channelId} comes from the configuration file and cannot be changed through the API.`,
  modelNotServed: (channelId: number, model: string) =>
    `Channel ${channelId} does not serve model "${shortenClientValue(model)}".`,
  nameTaken: (name: string) => `A channel named "${shortenClientValue(name)}" already exists.`,
  baseUrlScheme: "base_url must be an http or https URL.",
  noSuchKey: (channelId: number, keyIndex: number) => `Channel ${channelId} has no key at position ${keyIndex}.`,
};
