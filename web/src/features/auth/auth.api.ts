import { authEndpoints, type ForgotPasswordBody, type SuccessResponse } from '@encore/common/auth.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The password-reset and e-mail calls of SPEC 7 (sign-in and the profile: lib/session.api.ts). Failures throw `ApiError`. */

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

/** The address an invitation link was mailed to, while the link is valid (404 otherwise). */
export function postInvitationLookup(token: string): Promise<{ email: string }> {
  return callEndpoint(authEndpoints.invitation, { body: { token }, fallbackMessage: translate('invitationInvalid') });
}

/** Deletes the signed-in user's account, the password asked again (or the user name, for an account without one). */
export function deleteOwnAccount(body: { password?: string; userName?: string }): Promise<void> {
  return callEndpoint(authEndpoints.deleteAccount, { body, fallbackMessage: translate('deleteAccountFailed') });
}
