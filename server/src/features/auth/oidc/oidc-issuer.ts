import * as client from 'openid-client';
import { ssoMessagesEn } from '@encore/common/sso.contract';
import type { OidcConfig } from '../../../config.js';
import { ServiceUnavailableError, UnauthorizedError, ValidationError } from '../../../platform/errors/app-errors.js';
import type { Logger } from '../../../platform/logger.js';
import type { PendingSignIn } from './oidc-state-cookie.js';

/** Who the provider says signed in: its subject, and what it shares about them. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** The provider's `email_verified`: only true counts. */
  emailVerified: boolean;
  preferredUsername: string | undefined;
  name: string | undefined;
  /** The `groups` claim (strings only); empty without one. */
  groups: string[];
}

/** One request to the provider may take this long (discovery, token, keys, userinfo). */
const REQUEST_TIMEOUT_MS = 10_000;

const timedFetch: client.CustomFetch = (url, options) => fetch(url, { ...options, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/**
 * The OpenID Connect provider, through openid-client: discovered at first use (and again at
 * the next use after a failed discovery, so a provider that was down at Encore's start does
 * not need a restart), the authorization code flow with PKCE (S256), state and nonce.
 */
export class OidcIssuer {
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcConfig,
    /** Where the provider sends the browser back: the web app's /signin. */
    readonly redirectUri: string,
    private readonly logger: Logger,
  ) {}

  /** A new attempt: the provider's address to open, and what the browser keeps until it comes back. */
  async begin(next: string, remember: boolean): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.configuration();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      next,
      remember,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes.join(' '),
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /**
   * Checks the provider's answer (the query string it sent the browser back with) against the
   * attempt, exchanges the code (with the PKCE verifier) and reads the identity from the ID
   * token, completed by the userinfo endpoint where the provider keeps claims there.
   */
  async complete(query: string, pending: PendingSignIn): Promise<OidcIdentity> {
    const answer = new URL(this.redirectUri);
    answer.search = query.startsWith('?') ? query : `?${query}`;
    const params = answer.searchParams;
    if (params.get('state') !== pending.state) throw new ValidationError(ssoMessagesEn.stateMismatch);
    const refusal = params.get('error');
    if (refusal !== null) throw new UnauthorizedError(ssoMessagesEn.refused.replace('{reason}', params.get('error_description') || refusal));
    const config = await this.configuration();
    try {
      const tokens = await client.authorizationCodeGrant(config, answer, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new UnauthorizedError(ssoMessagesEn.invalidAnswer);
      const userInfo = await this.userInfo(config, tokens.access_token, idToken.sub);
      // The ID token is signed; userinfo only fills in what it leaves out.
      const claims: Record<string, unknown> = { ...userInfo, ...idToken };
      return {
        issuer: idToken.iss,
        subject: idToken.sub,
        email: nonEmpty(claims['email']),
        emailVerified: claims['email_verified'] === true || claims['email_verified'] === 'true',
        preferredUsername: nonEmpty(claims['preferred_username']),
        name: nonEmpty(claims['name']),
        groups: Array.isArray(claims['groups']) ? claims['groups'].filter((group): group is string => typeof group === 'string') : [],
      };
    } catch (error) {
      throw this.failure(error);
    }
  }

  private async userInfo(config: client.Configuration, accessToken: string, subject: string): Promise<Record<string, unknown>> {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    try {
      return await client.fetchUserInfo(config, accessToken, subject);
    } catch (error) {
      // The ID token alone still identifies the user; say why the rest is missing.
      this.logger.warn({ err: error }, 'OIDC userinfo could not be read; using the ID token claims only');
      return {};
    }
  }

  private configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = undefined;
      this.logger.warn({ err: error, issuer: this.settings.issuerUrl }, 'OIDC discovery failed; the next sign-in tries again');
      throw new ServiceUnavailableError(ssoMessagesEn.unavailable);
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.settings.issuerUrl);
    const secret = this.settings.clientSecret;
    return client.discovery(issuer, this.settings.clientId, secret === undefined ? undefined : { client_secret: secret }, clientAuthentication(secret), {
      [client.customFetch]: timedFetch,
      // A provider on plain HTTP (a home lab's internal address, the tests' loopback one).
      execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
    });
  }

  /** An AppError for what went wrong while completing the sign-in. */
  private failure(error: unknown): Error {
    if (error instanceof UnauthorizedError || error instanceof ValidationError || error instanceof ServiceUnavailableError) return error;
    if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') return new UnauthorizedError(ssoMessagesEn.codeRejected);
    if (error instanceof client.AuthorizationResponseError) {
      return new UnauthorizedError(ssoMessagesEn.refused.replace('{reason}', error.error_description ?? error.error));
    }
    const unreachable =
      error instanceof TypeError ||
      (error instanceof client.ClientError && ['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM'].includes(error.code ?? ''));
    this.logger.warn({ err: error }, 'OIDC sign-in could not be completed');
    return unreachable ? new ServiceUnavailableError(ssoMessagesEn.unavailable) : new UnauthorizedError(ssoMessagesEn.invalidAnswer);
  }
}

/**
 * client_secret_basic, the protocol's default, unless the provider lists only
 * client_secret_post (Authelia refuses a method the client was not registered with); a
 * client without a secret is public and proves itself with PKCE alone.
 */
function clientAuthentication(secret: string | undefined): client.ClientAuth {
  if (secret === undefined) return client.None();
  return (as, metadata, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const postOnly = methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
    (postOnly ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret))(as, metadata, body, headers);
  };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
