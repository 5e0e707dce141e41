import type { AppCredential, ProfileResponse, PublicUser, SignInResponse } from '@encore/common/auth.contract';
import type { AppCredentialSummary } from './app-credentials.repository.js';
import type { UserRow } from './auth.repository.js';
import type { SignedIn } from './auth.service.js';

/** What the REST contract shows of an account: never its hashes, ids or token version. */
export function toPublicUser(user: UserRow): PublicUser {
  return { userName: user.userName, email: user.email };
}

export function toProfile(user: UserRow): ProfileResponse {
  return { ...toPublicUser(user), emailVerified: user.emailVerifiedAt !== null, role: user.role };
}

export function toSignInResponse({ token, user }: SignedIn): SignInResponse {
  return { token, user: toPublicUser(user) };
}

/** An API key or app password in the list: its name and dates, never the secret. */
export function toAppCredential(credential: AppCredentialSummary): AppCredential {
  return {
    id: credential.id,
    name: credential.name,
    createdAt: credential.createdAt.toISOString(),
    lastUsedAt: credential.lastUsedAt?.toISOString() ?? null,
  };
}
