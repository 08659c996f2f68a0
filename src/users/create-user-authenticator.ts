import type { RequestHandler } from "express";
import { AuthenticationError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { operationRequiresAuthentication } from "../http/operation-requires-authentication.js";
import { parseBearerToken } from "../keys/parse-api-key-header.js";
import { findUserByAccessTokenHash } from "../store/users/find-user-by-access-token-hash.js";
import { setAuthenticatedUser } from "./authenticated-request.js";

const signInMessage = "Not signed in or the access token is invalid. Send Authorization: Bearer <USER_TOKEN>.";

/** `/api` authentication: the user access token, looked up by its keyed hash. */
export function createUserAuthenticator(context: GatewayContext): RequestHandler {
  return async (request, response, next) => {
    if (!operationRequiresAuthentication(request)) return next();
    const accessToken = parseBearerToken(request.headers.authorization);
    if (!accessToken) throw new AuthenticationError(signInMessage);
    const user = await findUserByAccessTokenHash(context.database.db, context.keyCipher.hash(accessToken));
    if (!user || user.status !== 1) throw new AuthenticationError(signInMessage);
    setAuthenticatedUser(response, user);
    next();
  };
}
