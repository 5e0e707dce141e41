import { ShieldCheck } from 'lucide-react';
import { PageGlow } from '../../components/page-glow';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { InvitationsPanel } from './invitations-panel.component';
import { MusicFoldersStatus } from './music-folders-status.component';
import { QueuesPanel } from './queues-panel.component';
import { SignUpPanel } from './sign-up-panel.component';
import { StoragePanel } from './storage-panel.component';
import { UsersPanel } from './users-panel.component';

/**
 * /admin (issue 29), for admins only (the router shows others the Not Found page, and every call
 * behind it answers them 404): the users, invitations and who may sign up, the music folders'
 * scan, the job queues and the storage.
 */
export function AdminPage() {
  const t = useT();
  useDocumentTitle('adminTitle');
  return (
    <div className="relative isolate mx-auto w-full max-w-5xl px-4 pt-28 pb-16 sm:px-6">
      <PageGlow className="top-10 h-[320px] max-w-2xl" />
      <div className="flex items-center gap-3">
        <span className="grid size-12 place-items-center rounded-2xl bg-white/5 text-fuchsia-300 ring-1 ring-border">
          <ShieldCheck aria-hidden className="size-6" />
        </span>
        <div className="flex flex-col gap-0.5">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('adminTitle')}</h1>
          <p className="text-sm text-muted">{t('adminSubtitle')}</p>
        </div>
      </div>
      <div className="mt-8 flex flex-col gap-5">
        <UsersPanel />
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
          <InvitationsPanel />
          <div className="flex flex-col gap-5">
            <SignUpPanel />
            <StoragePanel />
          </div>
        </div>
        <MusicFoldersStatus />
        <QueuesPanel />
      </div>
    </div>
  );
}
