import { ownEncoreUrl, startOwnEncore } from './own-encore.js';
import { startOidcProvider, type AccountClaims, type OidcTestProvider } from '../server/test/support/oidc-provider.js';

export const SSO_BUTTON_TEXT = 'Sign in with the test provider';
export const SSO_ADMIN_GROUP = 'encore-admins';

export interface SsoEncore {
  baseUrl: string;
  provider: OidcTestProvider;
  stop(): Promise<void>;
}

/**
 * A second Encore, with single sign-on, for the OpenID Connect journey only: the provider
 * (the `oidc-provider` package, on 127.0.0.1) and an Encore server of the built app configured
 * for it, with a data folder of its own. The shared e2e server is left as it is, so no other
 * journey sees the SSO button. Started and stopped by the journey itself.
 */
export async function startSsoEncore(accounts: Record<string, AccountClaims>): Promise<SsoEncore> {
  const baseUrl = ownEncoreUrl(3);
  const provider = await startOidcProvider({ clientId: 'encore-e2e', clientSecret: 'encore-e2e-secret', redirectUris: [`${baseUrl}/signin`], accounts });
  const encore = await startOwnEncore({
    name: 'SSO',
    baseUrl,
    env: {
      TRANSCRIBE_ENGINE: 'off',
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: 'encore-e2e',
      OIDC_CLIENT_SECRET: 'encore-e2e-secret',
      OIDC_BUTTON_TEXT: SSO_BUTTON_TEXT,
      OIDC_ADMIN_GROUP: SSO_ADMIN_GROUP,
    },
    cleanUp: () => provider.stop(),
  }).catch(async (error: unknown) => {
    await provider.stop();
    throw error;
  });
  return { baseUrl, provider, stop: encore.stop };
}
