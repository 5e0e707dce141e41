import type { AdminMusicFoldersResponse, QueuesResponse } from '@encore/common/admin.contract';
import type { SignUpMode, UserRole } from '@encore/common/auth.contract';
import { authMessagesEn } from '@encore/common/messages.en';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-client';
import { toastApiError } from '../../lib/api-error-toast';
import { useT, type Translate } from '../../lib/i18n/i18n.store';
import {
  deleteInvitation,
  deleteUser,
  fetchInvitations,
  fetchMusicFolders,
  fetchQueues,
  fetchSettings,
  fetchStorage,
  fetchUsers,
  postCancelJob,
  postInvitation,
  postPasswordReset,
  postRetryJob,
  postScanNow,
  putDisabled,
  putRole,
  putSignUpMode,
} from './admin.api';

export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  invitations: ['admin', 'invitations'] as const,
  settings: ['admin', 'settings'] as const,
  musicFolders: ['admin', 'music-folders'] as const,
  queues: ['admin', 'queues'] as const,
  storage: ['admin', 'storage'] as const,
};

/** How often the live parts (a running scan, the queues) are asked for again while the page is open. */
export const LIVE_POLL_MS = 5_000;

/** The server's English answers the page has words of its own for, in the reader's language. */
const KNOWN: Record<string, 'lastAdmin' | 'adminCannotDisableSelf' | 'adminSignUpFromEnvironment'> = {
  [authMessagesEn.lastAdmin]: 'lastAdmin',
  'You cannot disable your own account.': 'adminCannotDisableSelf',
  'Sign-up is set by SIGNUP in the environment of this Encore; change it there.': 'adminSignUpFromEnvironment',
};

/** Toasts a failed admin action: the server's reason, in the reader's language where the page knows it. */
export function toastAdminError(error: unknown, t: Translate, fallback = t('adminActionFailed')): void {
  const known = isApiError(error) && error.serverMessage ? KNOWN[error.serverMessage] : undefined;
  if (known) toast.error(t(known));
  else toastApiError(error, { fallback });
}

export const useAdminUsers = () => useQuery({ queryKey: adminKeys.users, queryFn: ({ signal }) => fetchUsers(signal) });
export const useInvitations = () => useQuery({ queryKey: adminKeys.invitations, queryFn: ({ signal }) => fetchInvitations(signal) });
export const useAdminSettings = () => useQuery({ queryKey: adminKeys.settings, queryFn: ({ signal }) => fetchSettings(signal) });
export const useStorage = () => useQuery({ queryKey: adminKeys.storage, queryFn: ({ signal }) => fetchStorage(signal) });

export const useAdminMusicFolders = () =>
  useQuery({
    queryKey: adminKeys.musicFolders,
    queryFn: ({ signal }) => fetchMusicFolders(signal),
    refetchInterval: (query) => ((query.state.data as AdminMusicFoldersResponse | undefined)?.scan.state === 'running' ? 2_000 : false),
  });

export const useQueues = () =>
  useQuery({
    queryKey: adminKeys.queues,
    queryFn: ({ signal }) => fetchQueues(signal),
    refetchInterval: (query) => {
      const data = query.state.data as QueuesResponse | undefined;
      return data && data.queues.some((queue) => queue.waiting + queue.running > 0) ? LIVE_POLL_MS : false;
    },
  });

/** A mutation of the admin page: toasts `success` (or the failure), then refreshes what it changed. */
function useAdminMutation<V, R>(run: (variables: V) => Promise<R>, success: (result: R, variables: V) => string, refresh: readonly (readonly string[])[]) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: run,
    onSuccess: (result, variables) => {
      toast.success(success(result, variables));
    },
    onError: (error) => toastAdminError(error, t),
    onSettled: async () => {
      await Promise.all(refresh.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

export function useUserActions() {
  const t = useT();
  return {
    setRole: useAdminMutation(
      ({ id, role }: { id: number; role: UserRole; name: string }) => putRole(id, role),
      (_user, { role, name }) => t(role === 'admin' ? 'adminRoleGiven' : 'adminRoleTaken', { name }),
      [adminKeys.users],
    ),
    setDisabled: useAdminMutation(
      ({ id, disabled }: { id: number; disabled: boolean; name: string }) => putDisabled(id, disabled),
      (_user, { disabled, name }) => t(disabled ? 'adminDisabledDone' : 'adminEnabledDone', { name }),
      [adminKeys.users],
    ),
    sendReset: useAdminMutation(
      ({ id }: { id: number; email: string }) => postPasswordReset(id),
      (_answer, { email }) => t('adminResetSent', { email }),
      [],
    ),
    remove: useAdminMutation(
      ({ id, deleteUploads }: { id: number; deleteUploads: boolean; name: string }) => deleteUser(id, deleteUploads),
      (_answer, { name }) => t('adminDeleted', { name }),
      [adminKeys.users, adminKeys.storage],
    ),
  };
}

export function useInvitationActions() {
  const t = useT();
  return {
    invite: useAdminMutation(
      (email: string) => postInvitation(email),
      (invitation) => t('adminInviteSent', { email: invitation.email }),
      [adminKeys.invitations],
    ),
    revoke: useAdminMutation(
      (id: number) => deleteInvitation(id),
      () => t('adminRevoked'),
      [adminKeys.invitations],
    ),
  };
}

export function useSetSignUpMode() {
  const t = useT();
  return useAdminMutation(
    (mode: SignUpMode) => putSignUpMode(mode),
    () => t('adminSignUpSaved'),
    [adminKeys.settings, ['client-config']],
  );
}

export function useScanNow() {
  const t = useT();
  return useAdminMutation(
    () => postScanNow(),
    () => t('adminScanStarted'),
    [adminKeys.musicFolders],
  );
}

export function useJobActions() {
  const t = useT();
  return {
    retry: useAdminMutation(
      ({ queue, id }: { queue: string; id: string }) => postRetryJob(queue, id),
      () => t('adminJobRetried'),
      [adminKeys.queues],
    ),
    cancel: useAdminMutation(
      ({ queue, id }: { queue: string; id: string }) => postCancelJob(queue, id),
      () => t('adminJobCancelled'),
      [adminKeys.queues],
    ),
  };
}
