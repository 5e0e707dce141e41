import { apiKeys, appPasswords, emailVerificationTokens, instanceSettings, invitations, oidcIdentities, passwordResetTokens, users } from './auth.schema.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import { sendMailJob } from '../../platform/mail/mail.jobs.js';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { bind, defineModule } from '../../modules/module.js';
import { authJobs, passwordResetRequestJob } from './auth.jobs.js';
import { AppCredentialsRepository } from './app-credentials.repository.js';
import { AppCredentialsService } from './app-credentials.service.js';
import { accountAdministrationPort, accountsPort, authenticationPort, clientAuthenticationPort, signUpModePort } from './auth.port.js';
import { AccountAdministrationService } from './account-administration.service.js';
import { SignUpPolicy } from './sign-up-policy.service.js';
import { SignUpRepository } from './sign-up.repository.js';
import { AuthRepository, LAST_SEEN_GRANULARITY_MS } from './auth.repository.js';
import { CredentialCache, CREDENTIALS_CHANNEL } from './credential-cache.js';
import { CredentialCachePeers } from './credential-cache.repository.js';
import { UsageMarks } from './usage-marks.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { OperatorAccounts } from './operator-accounts.service.js';
import { EventSessions } from './event-sessions.js';
import { GoogleVerifier } from './google-verifier.js';
import { argon2Hasher } from './password-hasher.js';
import { SessionTokens } from './session-tokens.js';
import { SSO_SETTINGS, setupSso } from './oidc/sso.setup.js';

export const authModule = defineModule({
  name: 'auth',
  summary:
    'Accounts: sign-up, sign-in (password, Google, or single sign-on: OpenID Connect or a trusted proxy header), sessions, e-mail verification, password reset and change; API keys and app passwords for apps.',
  requires: [],
  provides: [authenticationPort, accountsPort, clientAuthenticationPort, accountAdministrationPort, signUpModePort],
  tables: [users, passwordResetTokens, emailVerificationTokens, apiKeys, appPasswords, invitations, instanceSettings, oidcIdentities],
  jobs: [passwordResetRequestJob],
  settings: [
    'JWT_SECRET',
    'JWT_EXPIRES_IN',
    'JWT_SHORT_EXPIRES_IN',
    'GOOGLE_CLIENT_ID',
    'GOOGLE_JWKS_URL',
    'SIGNIN_LIMIT_PER_IP',
    'SIGNIN_LIMIT_PER_USER',
    'RATE_LIMIT_WINDOW_MINUTES',
    'SESSION_RECHECK_SECONDS',
    'SIGNUP',
    ...SSO_SETTINGS,
  ],
  tags: ['auth'],
  setup({ platform, logger, publicUrl }) {
    const { config, database, jobs, secrets } = platform;
    const enqueueMail = async (message: MailMessage) => {
      await jobs.send(sendMailJob, message);
    };
    const repository = new AuthRepository(database.db);
    const rateLimiter = new RateLimiter(database.db);
    const appCredentialsRepository = new AppCredentialsRepository(database.db);
    const cache = new CredentialCache({
      listen: (onMessage, options) => database.listen(CREDENTIALS_CHANNEL, onMessage, options),
      peers: database.driver === 'postgres' ? new CredentialCachePeers(database.db) : undefined,
      logger,
    });
    const usage = new UsageMarks({
      write: (kind, ids) => (kind === 'user' ? repository.touchLastSeenMany(ids) : appCredentialsRepository.touchMany(kind, ids)),
      resolutionMs: { 'api-key': 60_000, 'app-password': 60_000, user: LAST_SEEN_GRANULARITY_MS },
      logger,
    });
    const credentialsChanged = (userId: number) => cache.settle(userId);
    const signUpPolicy = new SignUpPolicy({
      repository: new SignUpRepository(database.db),
      users: repository,
      environment: config.signUp,
      enqueueMail,
      publicUrl,
    });
    const auth = new AuthService({
      repository,
      tokens: new SessionTokens(secrets.jwtKey, { long: config.jwtExpiresIn, short: config.jwtShortExpiresIn }),
      google: new GoogleVerifier(config.google.clientId, config.google.jwksUrl),
      rateLimiter,
      limits: config.rateLimits,
      enqueueMail,
      enqueueResetRequest: async (request) => {
        await jobs.send(passwordResetRequestJob, request);
      },
      publicUrl,
      signUpPolicy,
      cache,
      usage,
      credentialsChanged,
    });
    const appCredentials = new AppCredentialsService({
      repository: appCredentialsRepository,
      users: repository,
      hasher: argon2Hasher,
      rateLimiter,
      limits: config.rateLimits,
      serverKey: secrets.jwtKey,
      cache,
      usage,
    });
    const streams = new EventSessions({
      tokens: auth.tokens,
      isLive: (session) => auth.isLive(session),
      listen: (channel, onMessage) => database.listen(channel, onMessage),
      recheckMs: config.sessionRecheckMs,
      logger,
    });
    const operatorAccounts = new OperatorAccounts({ repository, signUpPolicy, hasher: argon2Hasher });
    const sso = setupSso({ platform, logger, publicUrl, auth, repository, accounts: signUpPolicy });
    return {
      ports: [
        bind(authenticationPort, {
          authenticate: (token) => auth.authenticate(token),
          streams,
          close: async () => {
            await streams.close();
            await cache.close();
            await usage.flush();
          },
        }),
        bind(clientAuthenticationPort, { authenticate: (credentials, clientAddress) => appCredentials.authenticate(credentials, clientAddress) }),
        bind(accountAdministrationPort, new AccountAdministrationService({ repository, auth, signUpPolicy, hasher: argon2Hasher })),
        bind(signUpModePort, { mode: () => signUpPolicy.modeNow() }),
        bind(accountsPort, {
          userNames: (ids) => repository.userNames(ids),
          account: async (userName) => {
            const row = userName === undefined ? await repository.oldest() : await repository.findByUserName(userName);
            return row && { id: row.id, userName: row.userName };
          },
          isAdmin: (userId) => auth.isAdmin(userId),
          setRole: async (userId, role) => {
            await auth.setRole(userId, role);
          },
        }),
      ],
      routes: async (app) => {
        await app.register(authRoutes(auth, appCredentials));
        await app.register(sso.routes);
      },
      jobs: authJobs(auth),
      maintenance: [{ name: 'expired one-time tokens', run: () => auth.pruneExpired() }],
      internals: {
        auth,
        appCredentials,
        signUpPolicy,
        sso: sso.sso,
        operatorAccounts,
      },
    };
  },
});
