/** What an image provider's error answer says, read from its own envelope. */
export interface ProviderImageError {
  /** The provider's code (`InvalidParameter`, `DataInspectionFailed`, …), when it gave one. */
  code?: string;
  message: string;
  param?: string;
  /** The provider's safety filter refused the prompt or a reference image. */
  blocked: boolean;
  /** The refusal is about the channel's account (arrears, model not enabled), not the request: another channel may do. */
  channelFault?: boolean;
}

/** Reads one provider's error envelope; undefined when the body is not in it. */
export type ReadProviderImageError = (bodyText: string) => ProviderImageError | undefined;
