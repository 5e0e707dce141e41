import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from '../../../platform/logger.js';
import type { Platform } from '../../../platform/platform.js';
import type { AuthRepository } from '../auth.repository.js';
import { ACCOUNT_DISABLED_MESSAGE, type AuthService } from '../auth.service.js';
import { OidcIdentitiesRepository } from './oidc-identities.repository.js';
import { OidcIssuer } from './oidc-issuer.js';
import { OidcStateCookie } from './oidc-state-cookie.js';
import { ssoRoutes } from './sso.routes.js';
import { SsoService, type AccountCreation } from './sso.service.js';
import { TrustedProxies } from './trusted-proxy.js';

/** The settings of single sign-on, for the auth module's manifest. */
export const SSO_SETTINGS = [
  'OIDC_ISSUER_URL',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_BUTTON_TEXT',
  'OIDC_AUTO_REGISTER',
  'OIDC_ADMIN_GROUP',
  'OIDC_SCOPES',
  'TRUSTED_AUTH_HEADER',
  'TRUSTED_AUTH_EMAIL_HEADER',
  'TRUSTED_PROXY_IPS',
] as const;

export interface SsoSetup {
  platform: Platform;
  logger: Logger;
  publicUrl: string;
  auth: AuthService;
  repository: AuthRepository;
  accounts: AccountCreation;
}

/** Single sign-on's service and routes, built on the auth module's own pieces. */
export function setupSso({ platform, logger, publicUrl, auth, repository, accounts }: SsoSetup): { sso: SsoService; routes: FastifyPluginAsyncZod } {
  const { config, database, secrets } = platform;
  const sso = new SsoService({
    users: repository,
    identities: new OidcIdentitiesRepository(database.db),
    tokens: auth.tokens,
    // The provider sends the browser back to the auth screen, which hands the answer to the callback.
    issuer: config.oidc && new OidcIssuer(config.oidc, `${publicUrl}/signin`, logger),
    stateCookie: new OidcStateCookie(secrets.jwtKey, publicUrl.startsWith('https:')),
    oidc: { autoRegister: config.oidc?.autoRegister ?? false, adminGroup: config.oidc?.adminGroup },
    accounts,
    setRole: async (userId, role) => {
      await auth.setRole(userId, role);
    },
    offerReset: (user) => auth.passwordReset.offerResetToAddressOwner(user),
    refusal: (user) => (user.disabledAt ? ACCOUNT_DISABLED_MESSAGE : undefined),
  });
  const proxies = config.trustedAuth && new TrustedProxies(config.trustedAuth);
  return { sso, routes: ssoRoutes(sso, proxies) };
}
