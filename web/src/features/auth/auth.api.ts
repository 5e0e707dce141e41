import {
  profileResponse,
  signInResponse,
  signUpResponse,
  successResponse,
  type ChangePasswordBody,
  type ForgotPasswordBody,
  type SignInBody,
  type SignInResponse,
  type SignUpBody,
  type SignUpResponse,
  type SuccessResponse,
  type UpdateProfileBody,
} from '@encore/common/auth.contract';
import type { z } from 'zod';
import { apiRequest } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';

/**
 * The server always says whether the e-mail is verified; a profile without the flag still
 * counts (it is shown as unknown), so it can never end a session.
 */
const profile = profileResponse.partial({ emailVerified: true });
export type Profile = z.infer<typeof profile>;

/** Only logged, never shown (SPEC 8), so it is not in the catalogue. */
export const AUTO_LOGIN_FAILED = 'Auto login failed';

/** The auth and e-mail calls of SPEC 7. Failures throw `ApiError`; callers decide what to show. */

export function postSignIn(body: SignInBody): Promise<SignInResponse> {
  return apiRequest('auth/signin', {
    method: 'POST',
    body,
    schema: signInResponse,
    fallbackMessage: translate('loginError'),
  });
}

export function postSignUp(body: SignUpBody): Promise<SignUpResponse> {
  return apiRequest('auth/signup', {
    method: 'POST',
    body,
    schema: signUpResponse,
    fallbackMessage: translate('signUpError'),
  });
}

export function postGoogleLogin(credential: string): Promise<SignInResponse> {
  return apiRequest('auth/google-login', {
    method: 'POST',
    body: { credential },
    schema: signInResponse,
    fallbackMessage: translate('googleLoginFailed'),
  });
}

export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return apiRequest('auth/profile', { schema: profile, fallbackMessage: AUTO_LOGIN_FAILED, signal });
}

export function putProfile(body: UpdateProfileBody): Promise<Profile> {
  return apiRequest('auth/profile', {
    method: 'PUT',
    body,
    schema: profile,
    fallbackMessage: translate('profileUpdateFailed'),
  });
}

/** Changes the password with the current one; answers with a new token for this session. */
export function putPassword(body: ChangePasswordBody): Promise<SignInResponse> {
  return apiRequest('auth/password', {
    method: 'PUT',
    body,
    schema: signInResponse,
    fallbackMessage: translate('profilePasswordChangeFailed'),
  });
}

export function postForgotPassword(body: ForgotPasswordBody): Promise<SuccessResponse> {
  return apiRequest('email/forgot-password', {
    method: 'POST',
    body,
    schema: successResponse,
    fallbackMessage: translate('resetEmailFailed'),
  });
}

export interface ResetPasswordInput {
  email: string;
  token: string;
  newPassword: string;
}

/** SPEC 7 spells this body in PascalCase. */
export function postResetPassword({ email, token, newPassword }: ResetPasswordInput): Promise<SuccessResponse> {
  return apiRequest('email/reset-password', {
    method: 'POST',
    body: { Email: email, Token: token, NewPassword: newPassword },
    schema: successResponse,
    fallbackMessage: translate('resetFailed'),
  });
}

/** Confirms the token of an e-mailed verification link (/verify-email?token=...). */
export function postVerifyEmail(token: string): Promise<SuccessResponse> {
  return apiRequest('auth/verify-email', {
    method: 'POST',
    body: { token },
    schema: successResponse,
    fallbackMessage: translate('verifyEmailFailed'),
  });
}

/** Mails the signed-in user a new verification link. */
export function postResendVerification(): Promise<SuccessResponse> {
  return apiRequest('auth/resend-verification', {
    method: 'POST',
    schema: successResponse,
    fallbackMessage: translate('resendVerificationFailed'),
  });
}
