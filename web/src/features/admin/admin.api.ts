import { adminEndpoints } from '@encore/common/admin.contract';
import type { SignUpMode, UserRole } from '@encore/common/auth.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The admin page's calls (issue 29); each is 404 for anyone but an admin. Failures throw ApiError. */

const failed = () => translate('adminActionFailed');

export const fetchUsers = (signal?: AbortSignal) => callEndpoint(adminEndpoints.users, { fallbackMessage: translate('adminLoadFailed'), signal });
export const putRole = (id: number, role: UserRole) => callEndpoint(adminEndpoints.setRole, { params: { id }, body: { role }, fallbackMessage: failed() });
export const putDisabled = (id: number, disabled: boolean) =>
  callEndpoint(adminEndpoints.setDisabled, { params: { id }, body: { disabled }, fallbackMessage: failed() });
export const postPasswordReset = (id: number) => callEndpoint(adminEndpoints.sendPasswordReset, { params: { id }, fallbackMessage: failed() });
export const deleteUser = (id: number, deleteUploads: boolean) =>
  callEndpoint(adminEndpoints.deleteUser, { params: { id }, query: { deleteUploads: deleteUploads ? 'true' : 'false' }, fallbackMessage: failed() });

export const fetchInvitations = (signal?: AbortSignal) => callEndpoint(adminEndpoints.invitations, { fallbackMessage: translate('adminLoadFailed'), signal });
export const postInvitation = (email: string) =>
  callEndpoint(adminEndpoints.createInvitation, { body: { email }, fallbackMessage: translate('adminInviteFailed') });
export const deleteInvitation = (id: number) => callEndpoint(adminEndpoints.revokeInvitation, { params: { id }, fallbackMessage: failed() });

export const fetchSettings = (signal?: AbortSignal) => callEndpoint(adminEndpoints.settings, { fallbackMessage: translate('adminLoadFailed'), signal });
export const putSignUpMode = (signUp: SignUpMode) => callEndpoint(adminEndpoints.updateSettings, { body: { signUp }, fallbackMessage: failed() });

export const fetchMusicFolders = (signal?: AbortSignal) => callEndpoint(adminEndpoints.musicFolders, { fallbackMessage: translate('adminLoadFailed'), signal });
export const postScanNow = () => callEndpoint(adminEndpoints.scanNow, { fallbackMessage: failed() });

export const fetchQueues = (signal?: AbortSignal) => callEndpoint(adminEndpoints.queues, { fallbackMessage: translate('adminLoadFailed'), signal });
export const postRetryJob = (queue: string, id: string) => callEndpoint(adminEndpoints.retryJob, { params: { queue, id }, fallbackMessage: failed() });
export const postCancelJob = (queue: string, id: string) => callEndpoint(adminEndpoints.cancelJob, { params: { queue, id }, fallbackMessage: failed() });

export const fetchStorage = (signal?: AbortSignal) => callEndpoint(adminEndpoints.storage, { fallbackMessage: translate('adminLoadFailed'), signal });
