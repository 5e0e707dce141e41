/**
 * The English texts of rules that both sides check. The web app's catalogues translate the
 * same keys; the server answers in English.
 */
export const ruleMessagesEn = {
  usernameRequired: 'Username is required',
  usernameTooLong: 'Username must be at most 50 characters',
  passwordRequired: 'Password is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  emailTooLong: 'Email must be at most 254 characters',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 256 characters',
  termsRequired: 'You must accept the terms and conditions',
  signupEmailRequired: 'Email is required for signing up.',
  forgotBothRequired: 'Please enter both email and username',
  forgotEmailInvalid: 'Please enter a valid email address',
  resetPasswordRequired: 'Please enter a new password',
  resetPasswordMismatch: 'Passwords do not match',
  resetPasswordTooShort: 'Password must be at least 8 characters long',
  textControlCharacters: 'Remove the invisible control characters from this field',
} as const;

export type RuleMessageKey = keyof typeof ruleMessagesEn;

/**
 * English texts of account answers the server gives and the web app shows in the user's
 * language (its catalogues translate the same keys).
 */
export const authMessagesEn = {
  googleEmailUnverified:
    "An account with this e-mail address already exists, but its address has not been verified, so Google sign-in cannot use it yet. We have e-mailed this address a link to reset that account's password (it names the account): resetting it proves the address is yours, verifies it and signs everyone else out of the account. Then continue with Google. If you know the account's password, you can instead sign in with it and verify the address from your profile.",
  emailVerified: 'Your e-mail address is verified.',
  verifyLinkInvalid: 'This verification link is invalid, expired or already used.',
  verificationSent: 'A verification link is on its way to {email}.',
  emailAlreadyVerified: 'Your e-mail address is already verified.',
  signUpInviteOnly: 'Sign-up on this Encore is by invitation only. Ask its administrator to send you an invitation.',
  signUpClosed: 'Sign-up is closed on this Encore. Ask its administrator for an account.',
  invitationInvalid: 'This invitation link is invalid, expired or already used. Ask the administrator for a new one.',
  invitationOtherEmail:
    'This invitation was sent to another e-mail address. Sign up with the address it was sent to, or ask the administrator to invite this one.',
  accountDisabled: 'This account has been disabled. Ask the administrator of this Encore.',
  lastAdmin: 'The last admin cannot be demoted or deleted. Make another account admin first.',
} as const;

export type AuthMessageKey = keyof typeof authMessagesEn;
