import {
  authEndpoints,
  profileResponse,
  type ChangePasswordBody,
  type SignInBody,
  type SignInResponse,
  type SignUpBody,
  type SignUpResponse,
  type UpdateProfileBody,
} from '@encore/common/auth.contract';
import type { z } from 'zod';
import { callEndpoint } from './endpoint-client';
import { translate } from './i18n/i18n.store';

/**
 * The server always says whether the e-mail is verified; a profile without the flag still
 * counts (it is shown as unknown), so it can never end a session.
 */
const profile = profileResponse.partial({ emailVerified: true, role: true });
export type Profile = z.infer<typeof profile>;

/** Only logged, never shown (SPEC 8), so it is not in the catalogue. */
export const AUTO_LOGIN_FAILED = 'Auto login failed';

/** The session's calls of SPEC 7 (the session store loads them on first use). Failures throw `ApiError`. */

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
