import { shortenClientValue } from "../errors/shorten-client-value.js";

/** Wording the prices and groups API answers with; the spec's examples use exactly these. */
export const pricingMessages = {
  priceFromConfig: (model: string) =>
    `The price of ${shortenClientValue(model)} comes from the configuration file and cannot be changed through the API.`,
  noPrice: (model: string) => `Model ${shortenClientValue(model)} has no price.`,
  groupFromConfig: (name: string) =>
    `Group ${shortenClientValue(name)} comes from the configuration file and cannot be changed through the API.`,
  noGroup: (name: string) => `Group ${shortenClientValue(name)} does not exist.`,
  groupTaken: (name: string) => `A group named "${shortenClientValue(name)}" already exists.`,
  autoReserved: 'The group name "auto" is reserved: a token\'s group "auto" fails over across groups.',
};
