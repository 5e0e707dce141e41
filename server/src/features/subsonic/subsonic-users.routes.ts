import type { AccountAdministration, AccountRecord, AuthenticatedUser } from '../auth/auth.port.js';
import type { AccountRemovalPort } from '../admin/admin.port.js';
import { emailField, signUpBody } from '@encore/common/auth.contract';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { notFound, SubsonicError } from './subsonic-errors.js';
import type { SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';
import { musicFolders } from './subsonic-system.routes.js';

const ADMINS_ONLY = 'Only an admin can do that';

/** A password parameter: as written, or `enc:` + its UTF-8 bytes in hex (Subsonic's light obfuscation). */
function passwordParam(raw: string): string {
  if (!raw.startsWith('enc:')) return raw;
  const hex = raw.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new SubsonicError(0, 'Parameter password is not valid enc: hex');
  return Buffer.from(hex, 'hex').toString('utf8');
}

/** The sign-up form's rule for a field, checked before anything is written; error 0 with the rule's words. */
function checked(result: { success: true } | { success: false; error: { issues: readonly { message: string }[] } }): void {
  if (!result.success) throw new SubsonicError(0, result.error.issues.map((issue) => issue.message).join(' '));
}

/**
 * Users, by the web admin's rules: everyone reads their own user; admins list, create, change
 * and delete accounts (the last admin can be neither demoted nor deleted; deleting keeps the
 * account's uploads as the instance's, as the admin page does). Encore has two roles, admin and
 * user: the other Subsonic roles are fixed by what Encore lets everyone do, and asking to
 * change them changes nothing. Passwords set here are account passwords (the web sign-in):
 * apps still sign in with an API key or app password.
 */
export function userEndpoints(deps: SubsonicDeps, accounts: AccountAdministration, removal: AccountRemovalPort): SubsonicEndpoint[] {
  const folders = musicFolders(deps.musicFolders).map((folder) => folder.id);
  const element = (account: AccountRecord): SubsonicObject => ({
    username: account.userName,
    email: account.email,
    scrobblingEnabled: true,
    maxBitRate: 0,
    adminRole: account.role === 'admin',
    settingsRole: true,
    downloadRole: true,
    uploadRole: false,
    playlistRole: true,
    coverArtRole: false,
    commentRole: false,
    podcastRole: false,
    streamRole: true,
    jukeboxRole: false,
    shareRole: true,
    videoConversionRole: false,
    folder: folders,
  });

  const assertAdmin = async (user: AuthenticatedUser): Promise<void> => {
    if (!(await deps.accounts.isAdmin(user.id))) throw new SubsonicError(50, ADMINS_ONLY);
  };

  /** The account named `username` (any case); 70 when there is none. */
  const accountNamed = async (params: SubsonicParams): Promise<AccountRecord> => {
    const found = await deps.accounts.account(params.require('username'));
    const account = found && (await accounts.get(found.id));
    if (!account) throw notFound('User');
    return account;
  };

  /** A role flag: absent → undefined; `true`/`false` (any case) → the boolean; anything else is error 0. */
  const flag = (params: SubsonicParams, name: string): boolean | undefined => {
    const raw = params.get(name);
    if (raw === undefined || raw === '') return undefined;
    const lower = raw.toLowerCase();
    if (lower !== 'true' && lower !== 'false') throw new SubsonicError(0, `Parameter ${name} must be true or false`);
    return lower === 'true';
  };

  return [
    {
      name: 'getUser',
      handle: async ({ params, user }) => {
        const asked = params.get('username') ?? user.userName;
        if (asked.toLowerCase() !== user.userName.toLowerCase() && !(await deps.accounts.isAdmin(user.id))) {
          throw new SubsonicError(50, 'You can only see your own user');
        }
        const found = await deps.accounts.account(asked);
        const account = found && (await accounts.get(found.id));
        if (!account) throw notFound('User');
        return { user: element(account) };
      },
    },
    {
      name: 'getUsers',
      handle: async ({ user }) => {
        await assertAdmin(user);
        return { users: { user: (await accounts.list()).map(element) } };
      },
    },
    {
      name: 'createUser',
      handle: async ({ params, user }) => {
        await assertAdmin(user);
        const userName = params.require('username');
        const password = passwordParam(params.require('password'));
        const email = params.require('email');
        await accounts.create({ userName, email, password, admin: flag(params, 'adminRole') ?? false });
        return {};
      },
    },
    {
      name: 'updateUser',
      handle: async ({ params, user }) => {
        await assertAdmin(user);
        const account = await accountNamed(params);
        const admin = flag(params, 'adminRole');
        const rawPassword = params.get('password');
        const password = rawPassword === undefined || rawPassword === '' ? undefined : passwordParam(rawPassword);
        const email = params.get('email') || undefined;
        // The fields' rules first: a bad password leaves the e-mail and the role as they were.
        if (password !== undefined) checked(signUpBody.shape.password.safeParse(password));
        if (email !== undefined) checked(emailField.safeParse(email));
        if (admin !== undefined && admin !== (account.role === 'admin')) await accounts.setRole(account.id, admin ? 'admin' : 'user');
        if (email !== undefined && email.trim().toLowerCase() !== account.email.toLowerCase()) await accounts.setEmail(account.id, email);
        if (password !== undefined) await accounts.setPassword(account.id, password);
        return {};
      },
    },
    {
      name: 'deleteUser',
      handle: async ({ params, user }) => {
        await assertAdmin(user);
        const account = await accountNamed(params);
        await removal.remove(account.id, { deleteUploads: false });
        return {};
      },
    },
    {
      name: 'changePassword',
      handle: async ({ params, user }) => {
        // An app's key must not become the account: only an admin sets passwords here; others use the profile page.
        if (!(await deps.accounts.isAdmin(user.id))) throw new SubsonicError(50, 'Change your password on your profile page in Encore');
        const account = await accountNamed(params);
        await accounts.setPassword(account.id, passwordParam(params.require('password')));
        return {};
      },
    },
  ];
}
