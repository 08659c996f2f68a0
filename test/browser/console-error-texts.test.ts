import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiFailure } from "../../console/src/api/api-failure.js";
import { describeError } from "../../console/src/format/describe-error.js";
import { en } from "../../console/src/i18n/catalogue-en.js";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import { pricingMessages } from "../../src/pricing/pricing-messages.js";
import { tokenMessages } from "../../src/tokens/token-messages.js";
import { userMessages } from "../../src/users/user-messages.js";
import { walletMessages } from "../../src/wallets/wallet-messages.js";

// The gateway's own refusals in the console's words: each sentence built from the gateway's message tables (so a
// reworded message fails here), answered with its catalogue text in English and in Chinese.
const gatewaySentences: Array<[status: number, message: string, key: keyof typeof en.errors.known]> = [
  [401, "Invalid username or password.", "invalidCredentials"],
  [401, "Not signed in or the access token is invalid. Send Authorization: Bearer <USER_TOKEN>.", "signedOut"],
  [429, "Too many failed sign-ins, retry in 42 seconds.", "tooManySignIns"],
  [429, "Too many key retrievals, retry in 7 seconds.", "tooManyKeyRetrievals"],
  [403, "This operation requires an administrator.", "administratorRequired"],
  [403, "Only root can create administrators.", "rootCreatesAdministrators"],
  [409, "Username alice is already taken.", "usernameTaken"],
  [400, tokenMessages.nameTooLong, "tokenNameTooLong"],
  [404, tokenMessages.notFound, "tokenNotFound"],
  [400, tokenMessages.expiredCannotEnable, "tokenExpiredCannotEnable"],
  [400, tokenMessages.exhaustedCannotEnable, "tokenExhaustedCannotEnable"],
  [400, tokenMessages.tooManyTokens(50, 48, 3), "tooManyTokens"],
  [400, walletMessages.codeNotRedeemable, "codeNotRedeemable"],
  [404, walletMessages.userNotFound, "userNotFound"],
  [400, walletMessages.zeroDelta, "zeroDelta"],
  [400, walletMessages.withdrawalTooLarge(-700, 500), "withdrawalTooLarge"],
  [403, walletMessages.rootOnly, "rootOnly"],
  [403, walletMessages.notOnYourself, "notOnYourself"],
  [403, userMessages.roleRootOnly, "roleRootOnly"],
  [403, userMessages.lastRoot, "lastRoot"],
  [403, userMessages.notYourself, "notYourself"],
  [400, userMessages.oldPasswordWrong, "oldPasswordWrong"],
  [404, pricingMessages.noPrice("gpt-x"), "noPrice"],
  [403, pricingMessages.priceFromConfig("gpt-x"), "priceFromConfig"],
  [403, pricingMessages.groupFromConfig("vip"), "groupFromConfig"],
  [404, pricingMessages.noGroup("vip"), "noGroup"],
  [400, pricingMessages.groupTaken("vip"), "groupTaken"],
  [400, pricingMessages.autoReserved, "autoReserved"],
];

describe("the gateway's error texts in the console", () => {
  const translators: Record<"en" | "zh-CN", TFunction> = {} as never;
  beforeAll(async () => {
    for (const language of ["en", "zh-CN"] as const) {
      const instance = i18next.createInstance();
      await instance.init({
        resources: { en: { translation: en }, "zh-CN": { translation: zhCn } },
        lng: language,
        fallbackLng: "en",
        interpolation: { escapeValue: false },
      });
      translators[language] = instance.t;
    }
  });

  it("says every known refusal in the page's language, with the values the gateway named", () => {
    for (const [status, message, key] of gatewaySentences) {
      const chinese = describeError(new ApiFailure(message, status), translators["zh-CN"]);
      const english = describeError(new ApiFailure(message, status), translators.en);
      expect([key, chinese]).not.toEqual([key, message]);
      // No English sentence is left in the Chinese text (model and group names, numbers and "auto" may stay).
      expect([key, /[A-Za-z]{3,} [A-Za-z]{3,}/.test(chinese)]).toEqual([key, false]);
      const template = zhCn.errors.known[key];
      expect([key, chinese.startsWith(template.split("{{")[0]!)]).toEqual([key, true]);
      expect([key, english.startsWith(en.errors.known[key].split("{{")[0]!)]).toEqual([key, true]);
    }
    expect(describeError(new ApiFailure(tokenMessages.tooManyTokens(50, 48, 3), 400), translators["zh-CN"])).toBe(
      "你最多可持有 50 个令牌：已持有 48 个，又申请了 3 个。请先删除不再使用的令牌。",
    );
    expect(describeError(new ApiFailure(pricingMessages.noGroup("vip"), 404), translators["zh-CN"])).toBe(
      "分组 vip 不存在。",
    );
  });

  it("falls back to the gateway's sentence, after a summary in Chinese, for one it does not know", () => {
    const message = "request/body/name must NOT have more than 30 characters";
    expect(describeError(new ApiFailure(message, 400), translators.en)).toBe(message);
    expect(describeError(new ApiFailure(message, 400), translators["zh-CN"])).toBe(
      `${zhCn.errors.statuses.invalid}网关原文：${message}`,
    );
    expect(describeError(new ApiFailure("", 502), translators["zh-CN"])).toBe("网关拒绝了请求（HTTP 502）。");
    expect(describeError(new TypeError("Failed to fetch"), translators["zh-CN"])).toBe(zhCn.errors.unreachable);
  });
});
