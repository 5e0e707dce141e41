import { authEndpoints, type AppCredential } from '@encore/common/auth.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The API keys and app passwords apps (Subsonic clients) sign in with; failures throw `ApiError`. */
export type AppCredentialKind = 'app-password' | 'api-key';

/** A credential just made: its secret is in this answer only. */
export interface CreatedAppCredential {
  id: number;
  name: string;
  secret: string;
}

export const appCredentialsQueryKey = (kind: AppCredentialKind) => ['auth', kind] as const;

export function fetchAppCredentials(kind: AppCredentialKind, signal?: AbortSignal): Promise<AppCredential[]> {
  const endpoint = kind === 'api-key' ? authEndpoints.apiKeys : authEndpoints.appPasswords;
  return callEndpoint(endpoint, { fallbackMessage: translate('appCredentialsLoadFailed'), signal });
}

export async function createAppCredential(kind: AppCredentialKind, name: string): Promise<CreatedAppCredential> {
  if (kind === 'api-key') {
    const created = await callEndpoint(authEndpoints.createApiKey, { body: { name }, fallbackMessage: translate('apiKeyCreateFailed') });
    return { id: created.id, name: created.name, secret: created.key };
  }
  const created = await callEndpoint(authEndpoints.createAppPassword, { body: { name }, fallbackMessage: translate('appPasswordCreateFailed') });
  return { id: created.id, name: created.name, secret: created.password };
}

export async function revokeAppCredential(kind: AppCredentialKind, id: number): Promise<void> {
  const endpoint = kind === 'api-key' ? authEndpoints.revokeApiKey : authEndpoints.revokeAppPassword;
  await callEndpoint(endpoint, { params: { id }, fallbackMessage: translate('appCredentialRevokeFailed') });
}
