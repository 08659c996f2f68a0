import { type ChangeBus, type ChangeBusOptions, createChangeBus } from "../cache/create-change-bus.js";

/** Tells the other gateway instances that the store's channels changed, so their routers re-read them. */
export type ChannelChangeBus = ChangeBus;

export type ChannelChangeBusOptions = Omit<ChangeBusOptions, "subject">;

/** The change bus of channels, on `<REDIS_KEY_PREFIX>:channels-changed`. */
export function createChannelChangeBus(options: ChannelChangeBusOptions): Promise<ChannelChangeBus> {
  return createChangeBus({ ...options, subject: "channels" });
}
