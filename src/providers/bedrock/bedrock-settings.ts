import type { ChannelSettingsShape } from "../contract/channel-settings-shape.js";

/** A `bedrock` channel's settings: the AWS region its requests are signed for. */
export const bedrockSettingsShape: ChannelSettingsShape = {
  region: { required: true, pattern: /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/, example: "us-east-1" },
};
