import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from './constants.js';
import { hasControlCharacters } from './input.rules.js';
import type { RuleMessageKey } from './messages.en.js';

/**
 * Field rules of SPEC section 5. Each returns the key of the message to show, or null when the
 * value passes. The web app runs them on blur; the server runs the same ones on every request.
 */
export type RuleResult = RuleMessageKey | null;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailShaped(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function checkUserName(value: string): RuleResult {
  if (hasControlCharacters(value)) return 'textControlCharacters';
  const trimmed = value.trim();
  if (!trimmed) return 'usernameRequired';
  if (trimmed.length > USERNAME_MAX_LENGTH) return 'usernameTooLong';
  return null;
}

export function checkSignInPassword(value: string): RuleResult {
  if (hasControlCharacters(value)) return 'textControlCharacters';
  if (!value) return 'passwordRequired';
  if (value.length > PASSWORD_MAX_LENGTH) return 'passwordTooLong';
  return null;
}

export function checkEmail(value: string): RuleResult {
  if (hasControlCharacters(value)) return 'textControlCharacters';
  const trimmed = value.trim();
  if (!trimmed) return 'emailRequired';
  if (trimmed.length > EMAIL_MAX_LENGTH) return 'emailTooLong';
  if (!isEmailShaped(trimmed)) return 'emailInvalid';
  return null;
}

export function checkNewPassword(value: string): RuleResult {
  if (hasControlCharacters(value)) return 'textControlCharacters';
  if (value.length < PASSWORD_MIN_LENGTH) return 'passwordTooShort';
  if (value.length > PASSWORD_MAX_LENGTH) return 'passwordTooLong';
  return null;
}

export function checkTerms(accepted: boolean): RuleResult {
  return accepted ? null : 'termsRequired';
}

export function checkForgotPassword(email: string, userName: string): RuleResult {
  if (hasControlCharacters(email) || hasControlCharacters(userName)) return 'textControlCharacters';
  if (!email.trim() || !userName.trim()) return 'forgotBothRequired';
  if (!isEmailShaped(email)) return 'forgotEmailInvalid';
  return null;
}

export function checkResetPassword(password: string, confirmation: string): RuleResult {
  if (hasControlCharacters(password)) return 'textControlCharacters';
  if (!password) return 'resetPasswordRequired';
  if (password !== confirmation) return 'resetPasswordMismatch';
  if (password.length < PASSWORD_MIN_LENGTH) return 'resetPasswordTooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'passwordTooLong';
  return null;
}

export type PasswordStrengthLabel = 'Weak' | 'Fair' | 'Good' | 'Strong';

/** Four points: length >= 8, an uppercase letter, a digit, a symbol (SPEC 5). */
export function passwordStrength(password: string): { score: number; label: PasswordStrengthLabel } {
  let score = 0;
  if (password.length >= PASSWORD_MIN_LENGTH) score += 1;
  if (/[A-Z]/.test(password)) score += 1;
  if (/[0-9]/.test(password)) score += 1;
  if (/[^A-Za-z0-9]/.test(password)) score += 1;
  const labels: PasswordStrengthLabel[] = ['Weak', 'Weak', 'Fair', 'Good', 'Strong'];
  return { score, label: labels[score] ?? 'Weak' };
}
