import { RefusedAddressError } from "../../../net/create-checked-dispatcher.js";
import { readUpstreamErrorText } from "../../../upstream/read-upstream-error-text.js";
import { sendUpstreamRequest, type UpstreamResponse } from "../../../upstream/send-upstream-request.js";
import {
  UpstreamFailure,
  upstreamStatusFailure,
  upstreamTransportFailure,
} from "../../../upstream/upstream-failure.js";
import type { VideoCallInput } from "../../contract/video-task-capability.js";

/** Redirects followed from the channel's file URL to the bytes (the real API answers one 302, to its storage). */
export const maximumDownloadRedirects = 3;

/**
 * Downloads a finished video file: the channel's own download path with the channel's key, then the redirects it
 * answers (at most three). Every redirect hop is dialled through the SSRF-checked opener (public addresses, or the
 * operator's fetch.allow_private ranges), and carries the channel's key only when it stays on the channel's own
 * origin: a storage host the upstream picked never sees it. Returns the 2xx answer with its body unread.
 */
export async function downloadNativeVideoFile(call: VideoCallInput, path: string): Promise<UpstreamResponse> {
  const { channel } = call.attempt;
  const channelUrl = new URL(channel.baseUrl);
  const withKey = () => call.upstreamHeaders({ jsonBody: false, accept: "*/*" });
  let current = new URL(`${channelUrl.pathname.replace(/\/+$/, "")}${path}`, channelUrl.origin);
  let response = await sendUpstreamRequest(call.attempt, {
    method: "GET",
    path,
    headers: withKey(),
    signal: call.signal,
    returnRedirects: true,
  });
  for (let hop = 1; response.statusCode >= 300 && response.statusCode < 400; hop += 1) {
    await response.body.dump().catch(() => undefined);
    if (hop > maximumDownloadRedirects)
      throw badDownload(`The upstream redirected the video download more than ${maximumDownloadRedirects} times.`);
    current = readRedirectTarget(response, current);
    if (call.openDownload === undefined) throw badDownload("The upstream redirected the video download.");
    const headers = current.origin === channelUrl.origin ? withKey() : { accept: "*/*" };
    try {
      response = await call.openDownload(current, { headers, signal: call.signal });
    } catch (error) {
      if (error instanceof RefusedAddressError)
        throw badDownload(
          `The upstream redirected the video download to ${current.host}, which is refused: ${error.message}.`,
        );
      if (call.signal.aborted) throw error;
      throw upstreamTransportFailure(error);
    }
    if (response.statusCode >= 200 && response.statusCode < 400) continue;
    const bodyText = await readUpstreamErrorText(response.body);
    throw upstreamStatusFailure(response.statusCode, response.headers, bodyText, channel.keys);
  }
  return response;
}

function readRedirectTarget(response: UpstreamResponse, from: URL): URL {
  const location = response.headers.location;
  let target: URL;
  try {
    if (typeof location !== "string") throw new Error("no Location");
    target = new URL(location, from);
  } catch {
    throw badDownload(
      `The upstream answered the video download with HTTP ${response.statusCode} and no usable Location.`,
    );
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw badDownload(`The upstream redirected the video download to a ${target.protocol.slice(0, -1)} URL.`);
  if (target.username !== "" || target.password !== "")
    throw badDownload("The upstream redirected the video download to a URL with credentials.");
  return target;
}

function badDownload(message: string): UpstreamFailure {
  return new UpstreamFailure(message, false, { status: 502, code: "bad_response" });
}
