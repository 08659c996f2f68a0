/** Google APIs' error envelope `{error: {code, message, status}}`. */
export function createGoogleErrorBody(code: number, message: string, status: string): object {
  return { error: { code, message, status } };
}

export function renderGoogleStatusError(status: number, message?: string): object {
  switch (status) {
    case 401:
      return createGoogleErrorBody(
        401,
        message ??
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        "UNAUTHENTICATED",
      );
    case 403:
      return createGoogleErrorBody(403, message ?? "Permission denied on resource project.", "PERMISSION_DENIED");
    case 404:
      return createGoogleErrorBody(404, message ?? "Requested entity was not found.", "NOT_FOUND");
    case 429:
      return createGoogleErrorBody(429, message ?? "Resource exhausted. Please try again later.", "RESOURCE_EXHAUSTED");
    default:
      return createGoogleErrorBody(
        status,
        message ?? (status >= 500 ? "Internal error encountered." : "Request contains an invalid argument."),
        status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT",
      );
  }
}
