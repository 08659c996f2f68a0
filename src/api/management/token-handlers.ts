import type { operations } from "../../../generated/types/management.js";
import { NotFoundError } from "../../errors/gateway-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { countTokensForUser } from "../../store/tokens/count-tokens-for-user.js";
import { deleteTokenForUser } from "../../store/tokens/delete-token-for-user.js";
import { deleteTokensForUser } from "../../store/tokens/delete-tokens-for-user.js";
import { findTokenByIdForUser } from "../../store/tokens/find-token-by-id-for-user.js";
import { listTokensForUser } from "../../store/tokens/list-tokens-for-user.js";
import { createTokens } from "../../tokens/create-tokens.js";
import { consumeKeyRevealBudget, revealTokenKeys } from "../../tokens/reveal-token-keys.js";
import { searchUserTokens } from "../../tokens/search-user-tokens.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { toTokenView } from "../../tokens/to-token-view.js";
import { tokenMessages } from "../../tokens/token-messages.js";
import { updateUserToken } from "../../tokens/update-user-token.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

type TokenOperationId =
  | "listTokens"
  | "searchTokens"
  | "getToken"
  | "createToken"
  | "updateToken"
  | "deleteToken"
  | "batchDeleteTokens"
  | "revealTokenKey"
  | "revealTokenKeys";

/** The nine token operations of the management API: typed input → token service → envelope. */
export function createTokenHandlers(context: GatewayContext): Record<TokenOperationId, OperationHandler> {
  const { db } = context.database;
  const view = (token: Parameters<typeof toTokenView>[0]) => toTokenView(token, context.keyCipher);
  return {
    async listTokens(request, response) {
      const user = getAuthenticatedUser(response);
      const { page, size } = readPageQuery(request);
      const [tokens, total] = await Promise.all([
        listTokensForUser(db, user.id, toPageWindow(page, size)),
        countTokensForUser(db, user.id),
      ]);
      sendSuccess(response, { items: tokens.map(view), total, page, page_size: size });
    },
    async searchTokens(request, response) {
      const user = getAuthenticatedUser(response);
      const { page, size } = readPageQuery(request);
      const keyword = typeof request.query.keyword === "string" ? request.query.keyword : undefined;
      const token = typeof request.query.token === "string" ? request.query.token : undefined;
      const matches = await searchUserTokens(context, user, { keyword, token });
      const window = toPageWindow(page, size);
      sendSuccess(response, {
        items: matches.slice(window.offset, window.offset + window.limit).map(view),
        total: matches.length,
        page,
        page_size: size,
      });
    },
    async getToken(request, response) {
      const user = getAuthenticatedUser(response);
      const token = await findTokenByIdForUser(db, Number(readPathParameter(request, "id")), user.id);
      if (!token) throw new NotFoundError(tokenMessages.notFound);
      sendSuccess(response, view(token));
    },
    async createToken(request, response) {
      const body = request.body as JsonRequestBody<operations["createToken"]>;
      await createTokens(context, getAuthenticatedUser(response), body);
      sendSuccess(response);
    },
    async updateToken(request, response) {
      const body = request.body as JsonRequestBody<operations["updateToken"]>;
      const statusOnly = String(request.query.status_only) === "true";
      const token = await updateUserToken(context, getAuthenticatedUser(response), body, statusOnly);
      context.tokenCache.invalidateToken(token.id);
      sendSuccess(response, view(token));
    },
    async deleteToken(request, response) {
      const tokenId = Number(readPathParameter(request, "id"));
      const deleted = await deleteTokenForUser(db, tokenId, getAuthenticatedUser(response).id);
      if (!deleted) throw new NotFoundError(tokenMessages.notFound);
      context.tokenCache.invalidateToken(tokenId);
      sendSuccess(response);
    },
    async batchDeleteTokens(request, response) {
      const body = request.body as JsonRequestBody<operations["batchDeleteTokens"]>;
      const deleted = await deleteTokensForUser(db, body.ids, getAuthenticatedUser(response).id);
      for (const tokenId of body.ids) context.tokenCache.invalidateToken(tokenId);
      sendSuccess(response, deleted);
    },
    async revealTokenKey(request, response) {
      const user = getAuthenticatedUser(response);
      await consumeKeyRevealBudget(context, user);
      const token = await findTokenByIdForUser(db, Number(readPathParameter(request, "id")), user.id);
      if (!token) throw new NotFoundError(tokenMessages.notFound);
      response.setHeader("Cache-Control", "no-store");
      sendSuccess(response, { key: context.keyCipher.decrypt(token.keyEncrypted) });
    },
    async revealTokenKeys(request, response) {
      const user = getAuthenticatedUser(response);
      const body = request.body as JsonRequestBody<operations["revealTokenKeys"]>;
      await consumeKeyRevealBudget(context, user);
      response.setHeader("Cache-Control", "no-store");
      sendSuccess(response, { keys: await revealTokenKeys(context, user, body.ids) });
    },
  };
}
