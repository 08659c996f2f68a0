import { UpstreamFailure } from "../../../upstream/upstream-failure.js";

/**
 * The download path of a video file the provider named, on the channel's own base URL: the request carries the
 * channel's key, so it must never go to a host the answer chose (the same file-id route the provider's SDK uses).
 */
export function buildNativeFileDownloadPath(fileUri: string): string {
  const match = /\/files\/([A-Za-z0-9_-]+)(?=[:/?]|$)/.exec(fileUri);
  if (match === null)
    throw new UpstreamFailure("The provider named a video file the gateway cannot download.", false, {
      status: 502,
      code: "bad_response",
    });
  return `/v1beta/files/${match[1]}:download?alt=media`;
}
