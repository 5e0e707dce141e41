import type { SongListEntry } from '@encore/common/library.contract';
import { toast } from 'sonner';
import { apiErrorText } from '../../lib/api-error-toast';
import { translate } from '../../lib/i18n/i18n.store';
import { saveBlob } from '../../lib/save-blob';
import { fetchSongFile } from './library.api';

/**
 * Downloads the original file. The call needs the bearer header, which a plain link cannot
 * send, so it is fetched and saved from memory. Toasts 'Download started', or 'Download failed'
 * with 'Song not available for download.' (SPEC 5, 8).
 */
export async function downloadSong(song: SongListEntry | null | undefined): Promise<void> {
  const unavailable = translate('songNotAvailableForDownload');
  if (!song) {
    toast.error(translate('downloadFailed'), { description: unavailable });
    return;
  }
  try {
    const { blob, fileName } = await fetchSongFile(song.id);
    saveBlob(blob, fileName ?? song.fileName);
    toast.success(translate('downloadStarted'));
  } catch (error) {
    console.error('Download failed', error);
    toast.error(translate('downloadFailed'), {
      description: apiErrorText(error, { fallback: unavailable, serverMessage: [403, 404, 410, 429] }),
    });
  }
}
