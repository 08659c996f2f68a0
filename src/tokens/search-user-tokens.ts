import type { GatewayContext } from "../gateway-context.js";
import { buildKeySearchMatcher } from "../keys/build-key-search-matcher.js";
import { filterInChunks } from "./filter-in-chunks.js";
import { listAllTokensForUser } from "../store/tokens/list-all-tokens-for-user.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UserRecord } from "../store/users/user-record.js";

export interface TokenSearch {
  keyword?: string;
  token?: string;
}

/** Keys decrypted between two turns of the event loop: about a millisecond of work. */
export const keySearchChunkSize = 100;

/**
 * Keys are stored encrypted, so a partial key match cannot run in SQL: the user's own tokens are decrypted and
 * matched here, at most `keySearchChunkSize` between two turns of the event loop, so searches over a user's
 * (capped, see createTokens) tokens share the process with every other request instead of stalling it. The name
 * filter runs first and costs no decryption.
 */
export async function searchUserTokens(
  context: GatewayContext,
  user: UserRecord,
  search: TokenSearch,
): Promise<TokenRecord[]> {
  const keyword = search.keyword?.trim().toLowerCase() ?? "";
  const keyMatcher = search.token?.trim() ? buildKeySearchMatcher(search.token.trim()) : undefined;
  const tokens = await listAllTokensForUser(context.database.db, user.id);
  const named = keyword === "" ? tokens : tokens.filter((token) => token.name.toLowerCase().includes(keyword));
  if (!keyMatcher) return named;
  return filterInChunks(
    named,
    (token) => keyMatcher(context.keyCipher.decrypt(token.keyEncrypted)),
    keySearchChunkSize,
  );
}
