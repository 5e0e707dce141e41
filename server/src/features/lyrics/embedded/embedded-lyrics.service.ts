import type { Logger } from '../../../platform/logger.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { SongFactsSource } from '../../library/library.port.js';
import type { LyricsRepository } from '../lyrics.repository.js';
import type { LyricsService } from '../lyrics.service.js';
import type { ILyricsTag } from 'music-metadata';
import { pickLyrics, readEmbeddedLyrics } from './embedded-lyrics.reader.js';
import { storageSource } from '../../../platform/media/byte-source.js';

/** Song ids read per page of the backfill; only those never scanned are read. */
const BACKFILL_PAGE = 500;
const TAG_TIMEOUT_MS = 15_000;

/**
 * Lyrics from the file itself: read after each upload, and once for every song that was in
 * the library before (the backfill job, sent at start; a no-op once every song was read).
 * Embedded lyrics never replace lyrics someone stored.
 */
export class EmbeddedLyricsService {
  constructor(
    private readonly deps: {
      lyrics: LyricsService;
      repository: LyricsRepository;
      songs: Pick<SongFactsSource, 'song' | 'idsAfter'>;
      storage: Storage;
      logger: Logger;
    },
  ) {}

  async scan(songId: number): Promise<{ found: 'none' | 'plain' | 'synced' }> {
    const song = await this.deps.songs.song(songId);
    if (!song) return { found: 'none' };
    const stat = await this.deps.storage.stat(song.storageKey);
    if (!stat) throw new Error(`the song's file ${song.storageKey} is not in storage`);
    const file = storageSource(this.deps.storage, song.storageKey, stat.size);
    const embedded = await readEmbeddedLyrics(file, song.fileType, TAG_TIMEOUT_MS).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, songId }, 'could not read embedded lyrics');
      return undefined;
    });
    let found: 'none' | 'plain' | 'synced' = 'none';
    if (embedded && embedded.document.text !== '') {
      await this.deps.lyrics.store(songId, null, embedded.document, embedded.source, embedded.language);
      found = embedded.kind;
    } else if (song.transcript?.trim()) {
      // Lyrics kept on the song before the lyrics table existed.
      await this.deps.lyrics.store(songId, null, { text: song.transcript.trim(), lineTimes: null, words: null }, 'embedded', null);
      found = 'plain';
    }
    await this.deps.repository.markScanned(songId, found);
    return { found };
  }

  /**
   * A new song's lyrics from the tags the upload already read: kept without reading the file
   * again. The song counts as read (the backfill passes it by), with lyrics or without.
   */
  async adopt(songId: number, tags: readonly ILyricsTag[], lyricsFile?: string): Promise<{ found: 'none' | 'plain' | 'synced' }> {
    const embedded = pickLyrics(tags, lyricsFile);
    let found: 'none' | 'plain' | 'synced' = 'none';
    if (embedded && embedded.document.text !== '') {
      await this.deps.lyrics.store(songId, null, embedded.document, embedded.source, embedded.language);
      found = embedded.kind;
    }
    await this.deps.repository.markScanned(songId, found);
    return { found };
  }

  /** Many new songs at once: those with lyrics in their tags are adopted one by one, the others marked in one statement. */
  async adoptMany(songs: readonly { songId: number; tags: readonly ILyricsTag[]; lyricsFile?: string | undefined }[]): Promise<void> {
    const without: number[] = [];
    for (const song of songs) {
      if (song.tags.length > 0 || song.lyricsFile !== undefined) await this.adopt(song.songId, song.tags, song.lyricsFile);
      else without.push(song.songId);
    }
    await this.deps.repository.markScannedWithout(without);
  }

  /** Resumable: every song read is marked, and each run walks the ids skipping the marked ones. */
  async backfill(): Promise<{ scanned: number }> {
    let scanned = 0;
    let cursor = 0;
    for (;;) {
      const page = await this.deps.songs.idsAfter(cursor, BACKFILL_PAGE);
      if (page.length === 0) return { scanned };
      cursor = page[page.length - 1]!;
      const done = await this.deps.repository.scannedAmong(page);
      for (const id of page.filter((songId) => !done.has(songId))) {
        try {
          await this.scan(id);
        } catch (error) {
          // A file that cannot be read now (storage down) is not read again by this backfill.
          this.deps.logger.warn({ err: error, songId: id }, 'embedded lyrics backfill: song skipped');
          await this.deps.repository.markScanned(id, 'none');
        }
        scanned += 1;
      }
    }
  }
}
