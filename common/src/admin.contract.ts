import { z } from 'zod';
import { emailField, signUpMode, userRole } from './auth.contract.js';
import { defineEndpoint } from './endpoint.js';
import { idField, text as singleLine } from './input.contract.js';
import { musicFolder, scanStatus } from './music-folders.contract.js';

/**
 * The admin page (issue 29): accounts, who may join, the music folders' scans, the job queues
 * and the storage. Every call answers 404 to anyone but an admin, as an unknown address does.
 * Times are ISO 8601.
 */

export const adminUser = z.object({
  id: z.number().int(),
  userName: z.string(),
  email: z.string(),
  role: userRole,
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  /** False for accounts made with Google or single sign-on alone. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
  /** When a session of the account was last used (within minutes); null when never seen since. */
  lastSeenAt: z.string().nullable(),
  /** The songs they uploaded and the bytes those take. */
  songs: z.number().int(),
  storageBytes: z.number(),
  /** The admin looking at the page. */
  isYou: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersResponse = z.object({ users: z.array(adminUser) });
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;

export const userIdParams = z.object({ id: idField('The user id') });
export const setRoleBody = z.object({ role: userRole });
export type SetRoleBody = z.input<typeof setRoleBody>;
export const setDisabledBody = z.object({ disabled: z.boolean({ error: 'disabled must be true or false' }) });
export type SetDisabledBody = z.input<typeof setDisabledBody>;
/** Deleting an account: its uploads stay in the collection (the instance's) unless `deleteUploads` is true. */
export const deleteUserQuery = z.object({
  deleteUploads: z
    .enum(['true', 'false'], { error: 'deleteUploads must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
export type DeleteUserQuery = z.input<typeof deleteUserQuery>;
export const deletedAccountResponse = z.object({
  /** Uploads kept as the instance's, or deleted when asked. */
  songsKept: z.number().int(),
  songsDeleted: z.number().int(),
});
export type DeletedAccountResponse = z.infer<typeof deletedAccountResponse>;

export const messageResponse = z.object({ message: z.string() });

export const invitationState = z.enum(['pending', 'used', 'revoked', 'expired']);
export type InvitationState = z.infer<typeof invitationState>;
export const invitation = z.object({
  id: z.number().int(),
  email: z.string(),
  state: invitationState,
  invitedBy: z.string().nullable(),
  usedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitation>;
export const invitationsResponse = z.object({ invitations: z.array(invitation) });
export type InvitationsResponse = z.infer<typeof invitationsResponse>;
export const createInvitationBody = z.object({ email: emailField });
export type CreateInvitationBody = z.input<typeof createInvitationBody>;
export const invitationIdParams = z.object({ id: idField('The invitation id') });

export const signUpSetting = z.object({
  mode: signUpMode,
  /** SIGNUP is set in the environment: it wins, and the page cannot change it. */
  fromEnvironment: z.boolean(),
});
export type SignUpSetting = z.infer<typeof signUpSetting>;
export const adminSettingsResponse = z.object({ signUp: signUpSetting });
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponse>;
export const updateAdminSettingsBody = z.object({ signUp: signUpMode });
export type UpdateAdminSettingsBody = z.input<typeof updateAdminSettingsBody>;

export const adminMusicFoldersResponse = z.object({
  /** False without MUSIC_FOLDERS: there is nothing to scan. */
  configured: z.boolean(),
  folders: z.array(musicFolder),
  scan: scanStatus,
});
export type AdminMusicFoldersResponse = z.infer<typeof adminMusicFoldersResponse>;

export const queueCounts = z.object({ name: z.string(), waiting: z.number().int(), running: z.number().int(), failed: z.number().int() });
export type QueueCounts = z.infer<typeof queueCounts>;
export const queuedJob = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(['waiting', 'running', 'failed']),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
});
export type QueuedJob = z.infer<typeof queuedJob>;
export const queuesResponse = z.object({ queues: z.array(queueCounts), jobs: z.array(queuedJob) });
export type QueuesResponse = z.infer<typeof queuesResponse>;
export const jobParams = z.object({
  queue: singleLine('The queue', 'The queue is required').max(200),
  id: singleLine('The job id', 'The job id is required').max(100),
});

export const STORAGE_KINDS = ['songs', 'covers', 'clips', 'transcodes'] as const;
export const storageKindUsage = z.object({ kind: z.enum(STORAGE_KINDS), bytes: z.number(), objects: z.number().int() });
export type StorageKindUsage = z.infer<typeof storageKindUsage>;
export const storageResponse = z.object({
  kinds: z.array(storageKindUsage),
  /** Songs of the music folders: read where they are, not in Encore's storage. */
  musicFolderSongs: z.number().int(),
});
export type StorageResponse = z.infer<typeof storageResponse>;

const tags = ['admin'];

export const adminEndpoints = {
  users: defineEndpoint({ method: 'GET', path: '/admin/users', response: adminUsersResponse, summary: 'Every account, with its uploads and last seen', tags }),
  setRole: defineEndpoint({
    method: 'PUT',
    path: '/admin/users/:id/role',
    params: userIdParams,
    body: setRoleBody,
    response: adminUser,
    summary: 'Make an account admin or user (the last admin cannot be demoted)',
    tags,
  }),
  setDisabled: defineEndpoint({
    method: 'PUT',
    path: '/admin/users/:id/disabled',
    params: userIdParams,
    body: setDisabledBody,
    response: adminUser,
    summary: 'Disable an account (its sessions, API keys and app passwords stop at once) or enable it',
    tags,
  }),
  sendPasswordReset: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:id/password-reset',
    params: userIdParams,
    response: messageResponse,
    summary: 'Mail the account a password reset link',
    tags,
  }),
  deleteUser: defineEndpoint({
    method: 'DELETE',
    path: '/admin/users/:id',
    params: userIdParams,
    query: deleteUserQuery,
    response: deletedAccountResponse,
    summary: "Delete an account: its playlists, likes, clips and keys go; its uploads stay the instance's unless deleteUploads",
    tags,
  }),
  invitations: defineEndpoint({
    method: 'GET',
    path: '/admin/invitations',
    response: invitationsResponse,
    summary: 'Invitations sent (pending and recent)',
    tags,
  }),
  createInvitation: defineEndpoint({
    method: 'POST',
    path: '/admin/invitations',
    body: createInvitationBody,
    response: invitation,
    status: 201,
    summary: 'Mail an invitation link (single use, 7 days)',
    tags,
  }),
  revokeInvitation: defineEndpoint({
    method: 'DELETE',
    path: '/admin/invitations/:id',
    params: invitationIdParams,
    status: 204,
    summary: 'Revoke a pending invitation',
    tags,
  }),
  settings: defineEndpoint({ method: 'GET', path: '/admin/settings', response: adminSettingsResponse, summary: 'Who may sign up', tags }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/admin/settings',
    body: updateAdminSettingsBody,
    response: adminSettingsResponse,
    summary: 'Change who may sign up (409 while SIGNUP is set in the environment)',
    tags,
  }),
  musicFolders: defineEndpoint({
    method: 'GET',
    path: '/admin/music-folders',
    response: adminMusicFoldersResponse,
    summary: "The music folders' scan status",
    tags,
  }),
  scanNow: defineEndpoint({ method: 'POST', path: '/admin/music-folders/scan', response: scanStatus, summary: 'Scan the music folders now', tags }),
  queues: defineEndpoint({ method: 'GET', path: '/admin/queues', response: queuesResponse, summary: 'The job queues: waiting, running and failed jobs', tags }),
  retryJob: defineEndpoint({
    method: 'POST',
    path: '/admin/queues/:queue/jobs/:id/retry',
    params: jobParams,
    status: 204,
    summary: 'Run a failed job again',
    tags,
  }),
  cancelJob: defineEndpoint({
    method: 'POST',
    path: '/admin/queues/:queue/jobs/:id/cancel',
    params: jobParams,
    status: 204,
    summary: 'Cancel a waiting or running job',
    tags,
  }),
  storage: defineEndpoint({ method: 'GET', path: '/admin/storage', response: storageResponse, summary: 'Storage used per kind', tags }),
};
