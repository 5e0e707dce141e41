import type { Song } from '@encore/common/library.contract';
import { Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import { formatClockTime } from '../../lib/clock-time.format';
import { formatFileSize } from '../../lib/file-size.format';
import type { MessageKey } from '../../lib/i18n/en.catalogue';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatShortDate } from '../../lib/short-date.format';

function fileTypeLabel(song: Song): string {
  if (song.fileType) return song.fileType;
  const extension = /\.([a-z0-9]+)$/i.exec(song.fileName)?.[1];
  return extension ? extension.toUpperCase() : '';
}

/** "44.1 kHz" from 44100. */
function formatSampleRate(hertz: number): string {
  return `${Number((hertz / 1000).toFixed(1))} kHz`;
}

/** The file information card (SPEC 2): type, upload date and size, then what the tags told. */
export function SongInfoCard({ song }: { song: Song }) {
  const t = useT();
  const language = useLanguage();
  const rows: [MessageKey, ReactNode][] = [
    ['infoType', fileTypeLabel(song)],
    ['infoUploaded', <time dateTime={song.uploadedAt}>{formatShortDate(song.uploadedAt, language)}</time>],
    ['infoSize', formatFileSize(song.size)],
  ];
  const optional: [MessageKey, string | null][] = [
    ['infoDuration', song.durationSeconds ? formatClockTime(song.durationSeconds) : null],
    ['infoBitrate', song.bitrate ? `${Math.round(song.bitrate / 1000)} kbps` : null],
    ['infoSampleRate', song.sampleRate ? formatSampleRate(song.sampleRate) : null],
    ['infoArtist', song.artist],
    ['infoAlbum', song.album],
    ['infoGenre', song.genre],
    ['infoYear', song.year ? String(song.year) : null],
  ];
  for (const [label, value] of optional) if (value) rows.push([label, value]);

  return (
    <Card className="p-5 shadow-none sm:p-6">
      <h2 className="flex items-center gap-2 text-base font-bold">
        <Info aria-hidden className="size-4.5 text-fuchsia-300" />
        {t('infoTitle')}
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className="flex min-w-0 items-baseline justify-between gap-3 border-b border-border/60 pb-2.5 last:border-0 last:pb-0 sm:block sm:border-0 sm:pb-0">
            <dt className="text-xs font-medium tracking-wide text-subtle uppercase">{t(label)}</dt>
            <dd className="truncate text-sm font-medium sm:mt-0.5" title={typeof value === 'string' ? value : undefined}>
              <bdi>{value}</bdi>
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
