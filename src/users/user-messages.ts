/** What the user administration answers when it refuses; the spec's examples use exactly these. */
export const userMessages = {
  roleRootOnly: "Only root can change a user's role.",
  lastRoot: "This is the last enabled root account: it keeps its role and status, and cannot be deleted.",
  notYourself: "You cannot delete your own account.",
  resetOwnPassword: "Change your own password with PUT /api/user/self (it asks for the current one).",
  oldPasswordRequired: "old_password is required to change the password.",
  oldPasswordWrong: "old_password is not your current password.",
} as const;
