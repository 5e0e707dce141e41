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
