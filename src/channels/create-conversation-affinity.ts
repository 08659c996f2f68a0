import crypto from "node:crypto";
import type { Redis } from "ioredis";
import { withinBudget } from "../cache/within-budget.js";
import type { Logger } from "../logging/logger.js";

/** The channel and key (its index in the channel's keys) that last served a conversation. */
export interface AffinityTarget {
  channelId: number;
  keyIndex: number;
}

/** Who asks, for which model, in which conversation: one user's conversation key never steers another's requests. */
export interface ConversationScope {
  tokenId: number;
  model: string;
  conversationKey: string;
}

/**
 * Conversation affinity: the requests of one conversation go to the channel and key that served it last, so the
 * provider's prompt cache (kept per account) keeps hitting. Entries last `ttlMs` from the last answered request.
 */
export interface ConversationAffinity {
  /** The remembered target, if any and not expired. Never throws; never waits on Redis longer than its budget. */
  find(scope: ConversationScope): Promise<AffinityTarget | undefined>;
  /** Remembers (or moves) the conversation's target for another `ttlMs`. Never throws; bounded like `find`. */
  remember(scope: ConversationScope, target: AffinityTarget): Promise<void>;
}

export interface ConversationAffinityOptions {
  /** 0 turns affinity off: nothing is remembered. */
  ttlMs: number;
  /** Epoch milliseconds: the gateway clock, so tests that move it expire entries. */
  now: () => number;
  /** With Redis every instance shares the entries; without it (or while it is away or slow) this process's memory. */
  redis?: Redis;
  /** `<REDIS_KEY_PREFIX>:affinity`. */
  keyPrefix: string;
  /** The longest a request waits on Redis (REDIS_WAIT_BUDGET_MS); past it this process's memory answers. */
  redisBudgetMs: number;
  /** Entries this process keeps at most (the oldest go first). */
  maximumLocalEntries?: number;
  logger: Logger;
}

/**
 * The entries live in Redis (`<prefix>:<hash of the scope>`, expiring with the entry) when it is configured, and
 * always in a bounded map of this process too: that map answers whenever Redis is not connected or does not answer
 * within the wait budget, as the rate limits do. A value carries its own expiry, checked against the gateway clock,
 * so an entry expires at the same moment wherever it is read.
 */
export function createConversationAffinity(options: ConversationAffinityOptions): ConversationAffinity {
  const local = new Map<string, StoredTarget>();
  const maximumLocalEntries = options.maximumLocalEntries ?? 100_000;
  const { redis } = options;

  let fallbackLogged = false;
  redis?.on("ready", () => {
    fallbackLogged = false;
  });
  const noteFallback = () => {
    if (fallbackLogged) return;
    fallbackLogged = true;
    options.logger.warn("Redis unreachable: conversation affinity is kept per instance until it is back");
  };

  const findLocal = (key: string): AffinityTarget | undefined => {
    const stored = local.get(key);
    if (stored === undefined) return undefined;
    if (stored.expiresAt <= options.now()) {
      local.delete(key);
      return undefined;
    }
    return { channelId: stored.channelId, keyIndex: stored.keyIndex };
  };

  const rememberLocal = (key: string, stored: StoredTarget) => {
    // Re-inserted, so the map's order stays the order of last use and the oldest entry is the first to go.
    local.delete(key);
    if (local.size >= maximumLocalEntries) local.delete(local.keys().next().value as string);
    local.set(key, stored);
  };

  return {
    async find(scope) {
      if (options.ttlMs <= 0) return undefined;
      const key = `${options.keyPrefix}:${hashScope(scope)}`;
      if (!redis) return findLocal(key);
      if (redis.status !== "ready") {
        noteFallback();
        return findLocal(key);
      }
      const answer = await withinBudget(redis.get(key), options.redisBudgetMs);
      if (!answer.answered) {
        noteFallback();
        return findLocal(key);
      }
      const stored = answer.value === null ? undefined : parseStoredTarget(answer.value);
      if (stored === undefined || stored.expiresAt <= options.now()) return undefined;
      return { channelId: stored.channelId, keyIndex: stored.keyIndex };
    },
    async remember(scope, target) {
      if (options.ttlMs <= 0) return;
      const key = `${options.keyPrefix}:${hashScope(scope)}`;
      const stored: StoredTarget = { ...target, expiresAt: options.now() + options.ttlMs };
      rememberLocal(key, stored);
      if (!redis) return;
      if (redis.status !== "ready") {
        noteFallback();
        return;
      }
      const written = redis.set(key, formatStoredTarget(stored), "PX", options.ttlMs);
      const answer = await withinBudget(written, options.redisBudgetMs);
      if (!answer.answered) noteFallback();
    },
  };
}

interface StoredTarget extends AffinityTarget {
  expiresAt: number;
}

/**
 * The conversation key is the client's text (a session id, a user id): hashed, it makes a key of fixed length that
 * says nothing about the client, and the token and model in it keep one user's key from steering another's.
 */
function hashScope(scope: ConversationScope): string {
  return crypto
    .createHash("sha256")
    .update(`${scope.tokenId}\n${scope.model}\n${scope.conversationKey}`)
    .digest("base64url");
}

function formatStoredTarget(stored: StoredTarget): string {
  return `${stored.channelId}:${stored.keyIndex}:${stored.expiresAt}`;
}

function parseStoredTarget(text: string): StoredTarget | undefined {
  const match = /^(\d+):(\d+):(\d+)$/.exec(text);
  if (!match) return undefined;
  return { channelId: Number(match[1]), keyIndex: Number(match[2]), expiresAt: Number(match[3]) };
}
