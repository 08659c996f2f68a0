import { InvalidRequestError } from "./invalid-request-error.js";

export class InvalidAllowListError extends InvalidRequestError {
  /** The offending entry, trimmed, exactly as the user wrote it. */
  readonly entry: string;

  constructor(entry: string) {
    super(`invalid IP allow-list entry "${entry}": expected an IPv4 or IPv6 address or CIDR range`, {
      code: "invalid_allow_ips",
      param: "allow_ips",
    });
    this.entry = entry;
  }
}
