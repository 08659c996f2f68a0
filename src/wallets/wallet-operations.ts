import type { components } from "../../generated/types/management.js";
import { assertAdministrator } from "../channels/assert-administrator.js";
import { InvalidRequestError, NotFoundError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { runInTransaction } from "../store/run-in-transaction.js";
import { findUserById } from "../store/users/find-user-by-id.js";
import { findUserWallet } from "../store/users/find-user-wallet.js";
import type { UserRecord } from "../store/users/user-record.js";
import { adjustWallet } from "../store/wallets/adjust-wallet.js";
import { claimRedemptionCode } from "../store/wallets/claim-redemption-code.js";
import { insertRedemptionCodes } from "../store/wallets/insert-redemption-codes.js";
import type { QuotaChangeRecord } from "../store/wallets/quota-change-record.js";
import { recordAudit } from "../audit/record-audit.js";
import { generateRedemptionCode } from "./generate-redemption-code.js";
import { walletMessages } from "./wallet-messages.js";

type WalletContext = Pick<GatewayContext, "database" | "keyCipher" | "now">;
type AdjustQuotaRequest = components["schemas"]["AdjustQuotaRequest"];
type CreateRedemptionCodesRequest = components["schemas"]["CreateRedemptionCodesRequest"];

/** POST /api/user/{id}/quota: an administrator's signed change, with its reason, in the user's ledger. */
export async function adjustUserQuota(
  context: WalletContext,
  actor: UserRecord,
  userId: number,
  request: AdjustQuotaRequest,
): Promise<QuotaChangeRecord> {
  assertAdministrator(actor);
  if (request.delta === 0) throw new InvalidRequestError(walletMessages.zeroDelta, { param: "delta" });
  const change = await runInTransaction(context.database.db, (transaction) =>
    adjustWallet(transaction, {
      userId,
      delta: request.delta,
      source: "admin",
      reason: request.reason,
      actorUserId: actor.id,
      redemptionCodeId: null,
      createdTime: context.now(),
    }),
  );
  if (change) {
    await recordAudit(context, actor, {
      action: "wallet.adjust",
      target: `user:${userId}`,
      before: { quota: change.balanceAfter - change.delta },
      after: { quota: change.balanceAfter, delta: change.delta, reason: change.reason },
    });
    return change;
  }
  const wallet = await findUserWallet(context.database.db, userId);
  if (!wallet) throw new NotFoundError(walletMessages.userNotFound);
  throw new InvalidRequestError(walletMessages.withdrawalTooLarge(request.delta, wallet.quota), { param: "delta" });
}

/** POST /api/redemption/: a batch of one-time codes; the codes leave the gateway only in this answer. */
export async function createRedemptionCodes(
  context: WalletContext,
  actor: UserRecord,
  request: CreateRedemptionCodesRequest,
): Promise<string[]> {
  assertAdministrator(actor);
  const codes = Array.from({ length: request.count ?? 1 }, generateRedemptionCode);
  await insertRedemptionCodes(context.database.db, {
    codeHashes: codes.map((code) => context.keyCipher.hash(code)),
    name: request.name,
    quota: request.quota,
    expiresTime: request.expires_time ?? -1,
    createdBy: actor.id,
    createdTime: context.now(),
  });
  // The codes themselves stay out of the audit log: whoever reads it could redeem them.
  await recordAudit(context, actor, {
    action: "redemption.create",
    target: `redemption:${request.name}`,
    after: { name: request.name, quota: request.quota, count: codes.length, expires_time: request.expires_time ?? -1 },
  });
  return codes;
}

/**
 * POST /api/user/self/redeem: the code's claim (a conditional update only one caller wins, on any instance) and the
 * wallet's credit commit together, so a code is credited exactly once and never claimed without its credit.
 */
export async function redeemCode(context: WalletContext, user: UserRecord, code: string): Promise<QuotaChangeRecord> {
  const now = context.now();
  const change = await runInTransaction(context.database.db, async (transaction) => {
    const claimed = await claimRedemptionCode(transaction, {
      codeHash: context.keyCipher.hash(code),
      userId: user.id,
      now,
    });
    if (!claimed) return null;
    return adjustWallet(transaction, {
      userId: user.id,
      delta: claimed.quota,
      source: "redemption",
      reason: claimed.name,
      actorUserId: null,
      redemptionCodeId: claimed.id,
      createdTime: now,
    });
  });
  if (!change) throw new InvalidRequestError(walletMessages.codeNotRedeemable, { param: "code" });
  return change;
}

/** The user as stored now (administrators' reads of another user). */
export async function findUserOrThrow(context: WalletContext, userId: number): Promise<UserRecord> {
  const user = await findUserById(context.database.db, userId);
  if (!user) throw new NotFoundError(walletMessages.userNotFound);
  return user;
}
