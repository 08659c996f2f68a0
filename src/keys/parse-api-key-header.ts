const scheme = "bearer";

/**
 * The credential of an `Authorization: Bearer <token>` header, or undefined
 * when the header is missing, uses another scheme or carries no token.
 * The scheme is case-insensitive (RFC 9110); the token is returned as sent,
 * `sk-` prefix included.
 */
export function parseBearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (trimmed.slice(0, scheme.length).toLowerCase() !== scheme) return undefined;
  const rest = trimmed.slice(scheme.length);
  // "Bearerabc" is not the Bearer scheme: a separator must follow the scheme name.
  if (rest !== "" && rest[0] !== " " && rest[0] !== "\t") return undefined;
  const token = rest.trim();
  return token === "" ? undefined : token;
}
