import type { AdminUser } from '@encore/common/admin.contract';
import { Ban, CircleCheck, KeyRound, MoreHorizontal, ShieldCheck, ShieldOff, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatBytes, formatCount, timeAgo } from './admin-format';
import { AdminSection, SectionState } from './admin-section.component';
import { useAdminUsers, useUserActions } from './admin.queries';

const pill = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1';

// Below 640 px the table lays each user out as a card (the same cells, wrapped): the name and the
// actions on the first line, the role, songs, storage and last seen beneath, nothing off screen.
const cell = 'border-t border-border px-2 py-3 max-sm:border-0 max-sm:p-0';
const detailCell = 'max-sm:order-2 max-sm:text-xs';
/** The column's name, shown beside the value where the table's head is hidden (phones). */
function PhoneLabel({ children }: { children: string }) {
  return <span className="text-muted sm:hidden">{children}: </span>;
}

/** The accounts: role, e-mail and whether it is verified, uploads, storage, last seen; and what an admin may do to each. */
export function UsersPanel() {
  const t = useT();
  const users = useAdminUsers();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  return (
    <AdminSection id="admin-users" icon={<Users aria-hidden />} title={t('adminUsersHeading')}>
      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : (
        <div className="-mx-2 overflow-x-auto max-sm:mx-0">
          <table className="w-full border-separate border-spacing-0 text-sm max-sm:block sm:min-w-[640px]">
            <thead className="max-sm:hidden">
              <tr className="text-start text-xs tracking-wide text-muted uppercase">
                <th className="px-2 pb-2 text-start font-medium">{t('adminColumnUser')}</th>
                <th className="px-2 pb-2 text-start font-medium">{t('adminColumnRole')}</th>
                <th className="px-2 pb-2 text-end font-medium">{t('adminColumnSongs')}</th>
                <th className="px-2 pb-2 text-end font-medium">{t('adminColumnStorage')}</th>
                <th className="px-2 pb-2 text-start font-medium">{t('adminColumnLastSeen')}</th>
                <th className="px-2 pb-2 text-end font-medium">
                  <span className="sr-only">{t('adminColumnActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:flex max-sm:flex-col">
              {users.data.users.map((user) => (
                <UserRow key={user.id} user={user} onDelete={() => setDeleting(user)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </AdminSection>
  );
}

function UserRow({ user, onDelete }: { user: AdminUser; onDelete: () => void }) {
  const t = useT();
  const language = useLanguage();
  const actions = useUserActions();
  const seen = user.lastSeenAt ? (timeAgo(user.lastSeenAt, language) ?? t('adminJustNow')) : t('adminNeverSeen');
  const name = user.userName;
  return (
    <tr
      data-testid="admin-user"
      className={cn(
        'align-middle max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1.5 max-sm:border-t max-sm:border-border max-sm:py-3',
        user.disabled && 'opacity-60',
      )}
    >
      <td className={cn(cell, 'max-sm:w-[calc(100%-3.75rem)]')}>
        <div className="flex min-w-0 flex-col">
          <span className="flex flex-wrap items-center gap-2 font-semibold">
            <bdi className="min-w-0 truncate">{name}</bdi>
            {user.isYou ? <span className={cn(pill, 'text-muted ring-border')}>{t('adminYou')}</span> : null}
            {user.disabled ? <span className={cn(pill, 'text-danger ring-danger/40')}>{t('adminDisabled')}</span> : null}
          </span>
          <span className="flex min-w-0 items-center gap-1.5 text-xs text-muted">
            <bdi className="truncate">{user.email}</bdi>
            <span className={cn('shrink-0', user.emailVerified ? 'text-emerald-300' : 'text-amber-300')}>
              · {user.emailVerified ? t('adminVerified') : t('adminUnverified')}
            </span>
          </span>
        </div>
      </td>
      <td className={cn(cell, detailCell)}>
        <span className={cn(pill, user.role === 'admin' ? 'bg-accent/15 text-fuchsia-200 ring-accent/40' : 'text-muted ring-border')}>
          {user.role === 'admin' ? t('adminRoleAdmin') : t('adminRoleUser')}
        </span>
      </td>
      <td className={cn(cell, detailCell, 'text-end tabular-nums')}>
        <PhoneLabel>{t('adminColumnSongs')}</PhoneLabel>
        <span>{formatCount(user.songs, language)}</span>
      </td>
      <td className={cn(cell, detailCell, 'text-end tabular-nums')}>
        <PhoneLabel>{t('adminColumnStorage')}</PhoneLabel>
        <span>{formatBytes(user.storageBytes)}</span>
      </td>
      <td className={cn(cell, detailCell, 'text-muted')}>
        <PhoneLabel>{t('adminColumnLastSeen')}</PhoneLabel>
        <span>{seen}</span>
      </td>
      <td className={cn(cell, 'text-end max-sm:order-1 max-sm:ms-auto')}>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={t('adminActionsFor', { name })}>
              <MoreHorizontal aria-hidden className="size-4" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            {user.role === 'admin' ? (
              <DropdownMenuItem onSelect={() => actions.setRole.mutate({ id: user.id, role: 'user', name })}>
                <ShieldOff aria-hidden />
                {t('adminRemoveAdmin')}
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem onSelect={() => actions.setRole.mutate({ id: user.id, role: 'admin', name })}>
                <ShieldCheck aria-hidden />
                {t('adminMakeAdmin')}
              </DropdownMenuItem>
            )}
            {user.disabled ? (
              <DropdownMenuItem onSelect={() => actions.setDisabled.mutate({ id: user.id, disabled: false, name })}>
                <CircleCheck aria-hidden />
                {t('adminEnable')}
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem disabled={user.isYou} onSelect={() => actions.setDisabled.mutate({ id: user.id, disabled: true, name })}>
                <Ban aria-hidden />
                {t('adminDisable')}
              </DropdownMenuItem>
            )}
            <DropdownMenuItem onSelect={() => actions.sendReset.mutate({ id: user.id, email: user.email })}>
              <KeyRound aria-hidden />
              {t('adminSendReset')}
            </DropdownMenuItem>
            <DropdownMenuItem tone="danger" onSelect={onDelete}>
              <Trash2 aria-hidden />
              {t('adminDelete')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </td>
    </tr>
  );
}

function DeleteUserDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const t = useT();
  const language = useLanguage();
  const { remove } = useUserActions();
  const [deleteUploads, setDeleteUploads] = useState(false);
  const close = () => {
    setDeleteUploads(false);
    onClose();
  };
  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent closeLabel={t('close')}>
        {user ? (
          <div className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>{t('adminDeleteTitle', { name: user.userName })}</DialogTitle>
              <DialogDescription>{t('adminDeleteBody')}</DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2.5">
              <Checkbox id="admin-delete-uploads" checked={deleteUploads} onCheckedChange={(checked) => setDeleteUploads(checked === true)} />
              <Label htmlFor="admin-delete-uploads" className="cursor-pointer font-normal">
                {t('adminDeleteUploads', { count: formatCount(user.songs, language) })}
              </Label>
            </div>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={close}>
                {t('cancel')}
              </Button>
              <Button
                variant="danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ id: user.id, deleteUploads, name: user.userName }, { onSuccess: close })}
              >
                {remove.isPending ? <Spinner /> : <Trash2 aria-hidden className="size-4" />}
                {t('adminDeleteConfirm')}
              </Button>
            </div>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
