/** Dispatched on window when the gateway refuses the access token (401): the app goes back to sign-in. */
export const signedOutEvent = "console-signed-out";
