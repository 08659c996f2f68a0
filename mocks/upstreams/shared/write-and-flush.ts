import type { ServerResponse } from "node:http";

/** Resolves once the chunk reached the socket, so a reset that follows cannot discard it. */
export function writeAndFlush(response: ServerResponse, chunk: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) {
      resolve();
      return;
    }
    const onClose = () => resolve();
    response.once("close", onClose);
    response.write(chunk, () => {
      response.off("close", onClose);
      resolve();
    });
  });
}
