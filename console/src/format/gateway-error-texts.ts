import type { Catalogue } from "../i18n/catalogue.js";

/** A key of the catalogue's `errors.known`. */
export type KnownErrorKey = keyof Catalogue["errors"]["known"] & string;

interface KnownGatewayMessage {
  pattern: RegExp;
  key: KnownErrorKey;
  /** Values the catalogue text shows, taken from the gateway's sentence. */
  values?: (match: RegExpMatchArray) => Record<string, string>;
}

/**
 * Sentences the management API answers with, as its message tables word them (src/*-messages.ts and the sign-in
 * and account code), each with the catalogue text that says the same in the page's language. A sentence not here
 * is shown as the gateway wrote it. test/browser/console-error-texts.test.ts builds every entry from the gateway's
 * own tables, so a reworded message fails there rather than falling back to English silently.
 */
export const knownGatewayMessages: KnownGatewayMessage[] = [
  { pattern: /^Invalid username or password\.$/, key: "invalidCredentials" },
  { pattern: /^Not signed in or the access token is invalid\./, key: "signedOut" },
  {
    pattern: /^Too many failed sign-ins, retry in (\d+) seconds\.$/,
    key: "tooManySignIns",
    values: (match) => ({ seconds: match[1] ?? "" }),
  },
  {
    pattern: /^Too many key retrievals, retry in (\d+) seconds\.$/,
    key: "tooManyKeyRetrievals",
    values: (match) => ({ seconds: match[1] ?? "" }),
  },
  { pattern: /^This operation requires an administrator\.$/, key: "administratorRequired" },
  { pattern: /^Only root can create administrators\.$/, key: "rootCreatesAdministrators" },
  {
    pattern: /^Username (.+) is already taken\.$/,
    key: "usernameTaken",
    values: (match) => ({ name: match[1] ?? "" }),
  },
  {
    pattern: /^name too long: a token name may have at most (\d+) characters$/,
    key: "tokenNameTooLong",
    values: (match) => ({ count: match[1] ?? "" }),
  },
  { pattern: /^Token does not exist\.$/, key: "tokenNotFound" },
  { pattern: /^The token has expired and cannot be enabled/, key: "tokenExpiredCannotEnable" },
  { pattern: /^The token's quota is used up and it cannot be enabled/, key: "tokenExhaustedCannotEnable" },
  {
    pattern: /^A user may hold at most (\d+) tokens; you hold (\d+) and asked for (\d+) more\./,
    key: "tooManyTokens",
    values: (match) => ({ limit: match[1] ?? "", held: match[2] ?? "", requested: match[3] ?? "" }),
  },
  {
    pattern: /^This redemption code is not valid, or it was used already, disabled or expired\.$/,
    key: "codeNotRedeemable",
  },
  { pattern: /^No such user\.$/, key: "userNotFound" },
  { pattern: /^delta must not be 0/, key: "zeroDelta" },
  {
    pattern: /^Cannot take (\d+) units: the wallet holds (\d+) units/,
    key: "withdrawalTooLarge",
    values: (match) => ({ units: match[1] ?? "", balance: match[2] ?? "" }),
  },
  { pattern: /^Only root can change an administrator or root\.$/, key: "rootOnly" },
  { pattern: /^You cannot change your own status, role or wallet limit\.$/, key: "notOnYourself" },
  { pattern: /^Only root can change a user's role\.$/, key: "roleRootOnly" },
  { pattern: /^This is the last enabled root account/, key: "lastRoot" },
  { pattern: /^You cannot delete your own account\.$/, key: "notYourself" },
  { pattern: /^old_password is not your current password\.$/, key: "oldPasswordWrong" },
  {
    pattern: /^Model (.+) has no price\.$/,
    key: "noPrice",
    values: (match) => ({ model: match[1] ?? "" }),
  },
  {
    pattern: /^The price of (.+) comes from the configuration file/,
    key: "priceFromConfig",
    values: (match) => ({ model: match[1] ?? "" }),
  },
  {
    pattern: /^Group (.+) comes from the configuration file/,
    key: "groupFromConfig",
    values: (match) => ({ name: match[1] ?? "" }),
  },
  {
    pattern: /^Group (.+) does not exist\.$/,
    key: "noGroup",
    values: (match) => ({ name: match[1] ?? "" }),
  },
  {
    pattern: /^A group named "(.+)" already exists\.$/,
    key: "groupTaken",
    values: (match) => ({ name: match[1] ?? "" }),
  },
  { pattern: /^The group name "auto" is reserved/, key: "autoReserved" },
];

type StatusKey = keyof Catalogue["errors"]["statuses"] & string;

/** What kind of refusal an HTTP status is, for a message the console does not know word for word. */
export function statusSummaryKey(status: number): StatusKey | undefined {
  if (status >= 500) return "server";
  switch (status) {
    case 400:
      return "invalid";
    case 401:
      return "signedOut";
    case 403:
      return "forbidden";
    case 404:
      return "notFound";
    case 409:
      return "conflict";
    case 413:
      return "tooLarge";
    case 429:
      return "rateLimited";
    default:
      return undefined;
  }
}
