/** Default messages for injected error statuses, worded like the native API's own. */
export function describeFaultStatus(httpStatus: number): string {
  switch (httpStatus) {
    case 400:
      return "Request contains an invalid argument.";
    case 401:
      return "Request had invalid authentication credentials.";
    case 403:
      return "The caller does not have permission.";
    case 404:
      return "Requested entity was not found.";
    case 429:
      return "Resource has been exhausted (e.g. check quota).";
    case 500:
      return "An internal error has occurred. Please retry or report the problem.";
    case 503:
      return "The model is overloaded. Please try again later.";
    case 504:
      return "The request timed out. Please try again.";
    default:
      return `Injected upstream failure with HTTP ${httpStatus}.`;
  }
}
