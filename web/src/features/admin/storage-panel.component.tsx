import { HardDrive } from 'lucide-react';
import { Spinner } from '../../components/ui/spinner';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { formatBytes } from './admin-format';
import { AdminSection, SectionState } from './admin-section.component';
import { useStorage } from './admin.queries';

const KIND_KEYS = { songs: 'adminStorageSongs', covers: 'adminStorageCovers', clips: 'adminStorageClips', transcodes: 'adminStorageTranscodes' } as const;

/** Storage used per kind: songs, covers, clips, transcodes, with a bar of each one's share. */
export function StoragePanel() {
  const t = useT();
  const storage = useStorage();
  return (
    <AdminSection id="admin-storage" icon={<HardDrive aria-hidden />} title={t('adminStorageHeading')}>
      {storage.isPending ? (
        <Spinner />
      ) : storage.isError ? (
        <SectionState>{t('adminLoadFailed')}</SectionState>
      ) : (
        <StorageBars kinds={storage.data.kinds} musicFolderSongs={storage.data.musicFolderSongs} t={t} />
      )}
    </AdminSection>
  );
}

function StorageBars({
  kinds,
  musicFolderSongs,
  t,
}: {
  kinds: { kind: keyof typeof KIND_KEYS; bytes: number; objects: number }[];
  musicFolderSongs: number;
  t: ReturnType<typeof useT>;
}) {
  const tCount = useTCount();
  const total = kinds.reduce((sum, kind) => sum + kind.bytes, 0);
  return (
    <div className="flex flex-col gap-3 text-sm">
      <dl className="flex flex-col gap-2.5">
        {kinds.map((kind) => (
          <div key={kind.kind} data-testid={`admin-storage-${kind.kind}`} className="flex flex-col gap-1">
            <div className="flex items-baseline justify-between gap-3">
              <dt className="font-medium">{t(KIND_KEYS[kind.kind])}</dt>
              <dd className="flex items-baseline gap-2 tabular-nums">
                <span className="text-xs text-muted">{tCount('adminStorageFiles', kind.objects)}</span>
                <span className="font-semibold" dir="ltr">
                  {formatBytes(kind.bytes)}
                </span>
              </dd>
            </div>
            <div className="h-1.5 overflow-hidden rounded-full bg-white/5" aria-hidden>
              <div className="h-full rounded-full bg-accent-gradient" style={{ width: `${total > 0 ? Math.max(1, (kind.bytes / total) * 100) : 0}%` }} />
            </div>
          </div>
        ))}
      </dl>
      <p className="flex items-baseline justify-between border-t border-border pt-2.5 font-semibold">
        <span>{t('adminStorageTotal')}</span>
        <span className="tabular-nums" dir="ltr">
          {formatBytes(total)}
        </span>
      </p>
      {musicFolderSongs > 0 ? <p className="text-xs text-muted">{tCount('adminStorageFolders', musicFolderSongs)}</p> : null}
    </div>
  );
}
