/** The canonical status name the native envelope carries for an HTTP status. */
export function nativeErrorStatus(status: number): string {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 402:
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 405:
    case 501:
      return "UNIMPLEMENTED";
    case 409:
      return "ABORTED";
    case 502:
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}
