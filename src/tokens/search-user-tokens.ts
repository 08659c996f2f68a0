import type { GatewayContext } from "../gateway-context.js";
import { buildKeySearchMatcher } from "../keys/build-key-search-matcher.js";
import { listAllTokensForUser } from "../store/tokens/list-all-tokens-for-user.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UserRecord } from "../store/users/user-record.js";

export interface TokenSearch {
  keyword?: string;
  token?: string;
}

/**
 * Keys are stored encrypted, so a partial key match cannot run in SQL: the user's own tokens are decrypted and
 * matched here. A user holds tens to thousands of tokens, which keeps this cheap.
 */
export async function searchUserTokens(
  context: GatewayContext,
  user: UserRecord,
  search: TokenSearch,
): Promise<TokenRecord[]> {
  const keyword = search.keyword?.trim().toLowerCase() ?? "";
  const keyMatcher = search.token?.trim() ? buildKeySearchMatcher(search.token.trim()) : undefined;
  const tokens = await listAllTokensForUser(context.database.db, user.id);
  return tokens.filter(
    (token) =>
      (keyword === "" || token.name.toLowerCase().includes(keyword)) &&
      (!keyMatcher || keyMatcher(context.keyCipher.decrypt(token.keyEncrypted))),
  );
}
