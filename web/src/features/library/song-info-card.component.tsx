import type { SongListEntry } from '@encore/common/library.contract';
import { Info, Tags } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import { formatClockTime } from '../../lib/clock-time.format';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/file-size.format';
import { formatFileType } from '../../lib/file-type.format';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { formatShortDate } from '../../lib/short-date.format';

/** "44.1 kHz" from 44100. */
function formatSampleRate(hertz: number): string {
  return `${Number((hertz / 1000).toFixed(1))} kHz`;
}

/** Label over value; `wide` rows (long names) take the full width of a two-column list. */
function InfoList({ rows, wide = [] }: { rows: [MessageKey, ReactNode][]; wide?: MessageKey[] }) {
  const t = useT();
  return (
    <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div
          key={label}
          className={cn(
            'flex min-w-0 items-baseline justify-between gap-3 border-b border-border/60 pb-2.5 last:border-0 last:pb-0 sm:block sm:border-0 sm:pb-0',
            wide.includes(label) && 'sm:col-span-2',
          )}
        >
          <dt className="shrink-0 text-xs font-medium tracking-wide text-subtle uppercase rtl:tracking-normal">{t(label)}</dt>
          <dd className="truncate text-sm font-medium sm:mt-0.5" title={typeof value === 'string' ? value : undefined}>
            <bdi>{value}</bdi>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function present(rows: [MessageKey, string | null][]): [MessageKey, string][] {
  return rows.filter((row): row is [MessageKey, string] => Boolean(row[1]));
}

/** The file information card (SPEC 2): type (as users name it), upload date and size, and the sample rate. */
export function SongInfoCard({ song }: { song: SongListEntry }) {
  const t = useT();
  const language = useLanguage();
  const rows: [MessageKey, ReactNode][] = [
    ['infoType', formatFileType(song.fileType, song.fileName)],
    // A music folder's song (folderId from 1) was added by a scan: nobody uploaded it.
    [song.folderId > 0 ? 'infoAdded' : 'infoUploaded', <time dateTime={song.uploadedAt}>{formatShortDate(song.uploadedAt, language)}</time>],
    ['infoSize', formatFileSize(song.size)],
    ...present([['infoSampleRate', song.sampleRate ? formatSampleRate(song.sampleRate) : null]]),
  ];
  return (
    <Card className="p-5 shadow-none sm:p-6">
      <h2 className="flex items-center gap-2 text-base font-bold">
        <Info aria-hidden className="size-4.5 text-fuchsia-300" />
        {t('infoTitle')}
      </h2>
      <InfoList rows={rows} />
    </Card>
  );
}

/** What the tags told, as a music app shows it: artist, album, year, genre, duration, bitrate. Nothing when they told nothing. */
export function SongTagsCard({ song, className }: { song: SongListEntry; className?: string }) {
  const t = useT();
  const rows = present([
    ['infoArtist', song.artist],
    ['infoAlbum', song.album],
    ['infoYear', song.year ? String(song.year) : null],
    ['infoGenre', song.genre],
    ['infoDuration', song.durationSeconds ? formatClockTime(song.durationSeconds) : null],
    ['infoBitrate', song.bitrate ? formatQuantity(Math.round(song.bitrate / 1000), 'kbps') : null],
  ]);
  if (rows.length === 0) return null;
  return (
    <Card className={cn('p-5 shadow-none sm:p-6', className)}>
      <h2 className="flex items-center gap-2 text-base font-bold">
        <Tags aria-hidden className="size-4.5 text-fuchsia-300" />
        {t('songTagsTitle')}
      </h2>
      <InfoList rows={rows} wide={['infoArtist', 'infoAlbum']} />
    </Card>
  );
}
