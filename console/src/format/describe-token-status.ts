/** The seed's token status values in words. */
export function describeTokenStatus(status: number): string {
  switch (status) {
    case 1:
      return "Enabled";
    case 2:
      return "Disabled";
    case 3:
      return "Expired";
    case 4:
      return "Quota exhausted";
    default:
      return `Status ${status}`;
  }
}
