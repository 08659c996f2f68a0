// autocannon ships no types and @types/autocannon is not installed; this covers what the bench uses.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface AutocannonOptions {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** Per-request setup; a request's `setupRequest` may change its headers (the bench walks keys this way). */
    requests?: Array<{
      setupRequest?: (request: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
    }>;
  }

  interface AutocannonResult {
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }

  type AutocannonInstance = EventEmitter & PromiseLike<AutocannonResult>;

  function autocannon(options: AutocannonOptions): AutocannonInstance;
  export default autocannon;
}
