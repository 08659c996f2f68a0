import http from "node:http";

/** Resolves once `url` answers any HTTP response; rejects after `timeoutMs` or when `isDead()` turns true. */
export async function waitForHttp(
  url: string,
  options: { timeoutMs: number; isDead?: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const death = options.isDead?.();
    if (death) throw new Error(death);
    const answered = await new Promise<boolean>((resolve) => {
      const request = http.get(url, (response) => {
        response.resume();
        resolve(true);
      });
      request.on("error", () => resolve(false));
      request.setTimeout(2_000, () => {
        request.destroy();
        resolve(false);
      });
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
