import type { SignInResponse } from '@encore/common/auth.contract';
import { ssoEndpoints, type OidcStartResponse, type SsoSignInResponse } from '@encore/common/sso.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** Begins an OpenID Connect sign-in: the provider's address to open (the answer sets the attempt's cookie). */
export function postOidcStart(next: string, rememberMe: boolean): Promise<OidcStartResponse> {
  return callEndpoint(ssoEndpoints.oidcStart, { body: { next, rememberMe }, fallbackMessage: translate('ssoFailed') });
}

/** Hands the provider's answer (the query string /signin was opened with) to the server. */
export function postOidcCallback(query: string): Promise<SsoSignInResponse> {
  return callEndpoint(ssoEndpoints.oidcCallback, { body: { query }, fallbackMessage: translate('ssoFailed') });
}

/** Signs in as the user a trusted reverse proxy names; 401 when the page was not reached through it. */
export function postProxySignIn(): Promise<SignInResponse> {
  return callEndpoint(ssoEndpoints.proxySignIn, { fallbackMessage: translate('ssoFailed') });
}
