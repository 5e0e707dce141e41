import {
  authEndpoints,
  profileResponse,
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
import { callEndpoint } from '../../lib/endpoint-client';
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
  return callEndpoint(authEndpoints.signIn, { body, fallbackMessage: translate('loginError') });
}

export function postSignUp(body: SignUpBody): Promise<SignUpResponse> {
  return callEndpoint(authEndpoints.signUp, { body, fallbackMessage: translate('signUpError') });
}

export function postGoogleLogin(credential: string): Promise<SignInResponse> {
  return callEndpoint(authEndpoints.googleLogin, { body: { credential }, fallbackMessage: translate('googleLoginFailed') });
}

export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return callEndpoint(authEndpoints.profile, { schema: profile, fallbackMessage: AUTO_LOGIN_FAILED, signal });
}

export function putProfile(body: UpdateProfileBody): Promise<Profile> {
  return callEndpoint(authEndpoints.updateProfile, { body, schema: profile, fallbackMessage: translate('profileUpdateFailed') });
}

/** Changes the password with the current one; answers with a new token for this session. */
export function putPassword(body: ChangePasswordBody): Promise<SignInResponse> {
  return callEndpoint(authEndpoints.changePassword, { body, fallbackMessage: translate('profilePasswordChangeFailed') });
}

export function postForgotPassword(body: ForgotPasswordBody): Promise<SuccessResponse> {
  return callEndpoint(authEndpoints.forgotPassword, { body, fallbackMessage: translate('resetEmailFailed') });
}

export interface ResetPasswordInput {
  email: string;
  token: string;
  newPassword: string;
}

/** SPEC 7 spells this body in PascalCase. */
export function postResetPassword({ email, token, newPassword }: ResetPasswordInput): Promise<SuccessResponse> {
  return callEndpoint(authEndpoints.resetPassword, {
    body: { Email: email, Token: token, NewPassword: newPassword },
    fallbackMessage: translate('resetFailed'),
  });
}

/** Confirms the token of an e-mailed verification link (/verify-email?token=...). */
export function postVerifyEmail(token: string): Promise<SuccessResponse> {
  return callEndpoint(authEndpoints.verifyEmail, { body: { token }, fallbackMessage: translate('verifyEmailFailed') });
}

/** Mails the signed-in user a new verification link. */
export function postResendVerification(): Promise<SuccessResponse> {
  return callEndpoint(authEndpoints.resendVerification, { fallbackMessage: translate('resendVerificationFailed') });
}
