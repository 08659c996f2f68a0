import { ApiFailure } from "./api-failure";
import { signedOutEvent } from "./signed-out-event";

/** The `data` of a successful answer, or an ApiFailure carrying the gateway's message (empty when it gave none). */
export async function unwrapAnswer<Data>(
  call: Promise<{ data?: Data; error?: { message?: string }; response: Response }>,
): Promise<Data> {
  const { data, error, response } = await call;
  if (response.status === 401) window.dispatchEvent(new Event(signedOutEvent));
  if (error !== undefined || data === undefined) throw new ApiFailure(error?.message ?? "", response.status);
  return data;
}
