import { Pool } from "undici";
import type { Channel } from "../providers/contract/channel.js";

interface PoolEntry {
  channelId: number;
  /** The timeouts the pool was built with; a change rebuilds it. */
  settings: string;
  pool: Pool;
  /** The base URL's path without a trailing slash ("" for an origin), put before every request path. */
  basePath: string;
}

// Idle upstream sockets are kept this long for the next request (undici's default of 4 s reconnects too often).
const keepAliveTimeoutMs = 30_000;

const pools = new Map<string, PoolEntry>();

/**
 * The connection pool for one channel: keep-alive sockets to its origin, with the channel's connect, header and
 * idle (between body chunks) timeouts. Pools are keyed by channel id and base URL, and rebuilt when the base URL
 * or the timeouts change; the replaced pool finishes its requests under way before closing. Pools belong to the
 * process, not to one gateway: the relay gets the pool right before each request, so a channel edited through
 * the admin API is picked up without a restart. Send requests through it with
 * `request(url, { dispatcher })` or `fetch(url, { dispatcher })`, the URL built from channel.baseUrl.
 */
export function getUpstreamDispatcher(channel: Pick<Channel, "id" | "baseUrl" | "timeouts">): Pool {
  return getUpstreamPool(channel).pool;
}

/** The channel's pool and the path its requests start with: `pool.request({ path: basePath + path })`. */
export function getUpstreamPool(channel: Pick<Channel, "id" | "baseUrl" | "timeouts">): PoolEntry {
  const key = `${channel.id} ${channel.baseUrl}`;
  const settings = `${channel.timeouts.connectMs}/${channel.timeouts.headerMs}/${channel.timeouts.idleMs}`;
  const existing = pools.get(key);
  if (existing && existing.settings === settings) return existing;
  // The channel changed (timeouts or base URL): retire its previous pool.
  for (const [otherKey, entry] of pools) {
    if (entry.channelId !== channel.id) continue;
    pools.delete(otherKey);
    void entry.pool.close().catch(() => undefined);
  }
  const baseUrl = new URL(channel.baseUrl);
  const pool = new Pool(baseUrl.origin, {
    connectTimeout: channel.timeouts.connectMs,
    headersTimeout: channel.timeouts.headerMs,
    bodyTimeout: channel.timeouts.idleMs,
    keepAliveTimeout: keepAliveTimeoutMs,
  });
  const entry = { channelId: channel.id, settings, pool, basePath: baseUrl.pathname.replace(/\/+$/, "") };
  pools.set(key, entry);
  return entry;
}

/** Closes every pool (at shutdown, after the HTTP server stopped taking requests); requests under way finish first. */
export async function closeUpstreamDispatchers(): Promise<void> {
  const closing = [...pools.values()].map((entry) => entry.pool.close().catch(() => undefined));
  pools.clear();
  await Promise.all(closing);
}
