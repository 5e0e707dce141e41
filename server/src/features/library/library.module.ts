import { searchWords, songCounts, songLikes, songSearch, songs } from './library.schema.js';
import { uploadDeadlineMs } from '../../config.js';
import { bind, defineModule } from '../../modules/module.js';
import type { AudioTags } from '../../platform/media/audio-tags.js';
import { accountsPort } from '../auth/auth.port.js';
import { IngestService, PRESIGNED_PUT_TTL_SECONDS } from './ingest/ingest.service.js';
import { FolderImport } from './import/folder-import.js';
import {
  folderSongsPort,
  songCataloguePort,
  songDetailSourcesPort,
  songEventsPort,
  songBrowsePort,
  songFactsPort,
  uploadGatePort,
  type AddedSong,
  type FolderSongs,
  type SongKeys,
} from './library.port.js';
import type { SongDetailExtras } from './library.routes.js';
import { FolderSongsRepository } from './folder-songs.repository.js';
import { LibraryRepository } from './library.repository.js';
import { libraryRoutes } from './library.routes.js';
import { LibraryService } from './library.service.js';
import { SongBrowseRepository } from './song-browse.repository.js';
import { SONGS_CHANNEL, SongBrowseService } from './song-browse.service.js';
import { SongFactsRepository } from './song-facts.repository.js';
import { StorageCleanup } from './storage-cleanup.service.js';
import { songOwnersPort } from './song-owners.port.js';
import { SongOwnersRepository } from './song-owners.repository.js';
import { StorageQuota } from './storage-quota.js';
import { uploadedSongBytes } from './storage-quota.repository.js';
import { uploadRoutes } from './upload.routes.js';
import { Transcodes } from './transcodes.js';
import { setUpResumableUploads } from './tus/resumable-uploads.js';

export const libraryModule = defineModule({
  name: 'library',
  summary: 'The shared collection: upload (tags, covers), browse, search, play, like, download and delete songs.',
  requires: [accountsPort],
  provides: [songCataloguePort, songEventsPort, songDetailSourcesPort, uploadGatePort, songFactsPort, folderSongsPort, songBrowsePort, songOwnersPort],
  tables: [songs, songSearch, searchWords, songLikes, songCounts],
  jobs: [],
  settings: ['MAX_UPLOAD_MB', 'UPLOAD_MIN_KBPS', 'UPLOAD_STALL_SECONDS', 'UPLOADS_PER_USER', 'USER_STORAGE_MB'],
  tags: ['library', 'upload'],
  setup({ platform, logger, use }) {
    const { config, database, storage } = platform;
    const repository = new LibraryRepository(database.db);
    const transcodes = new Transcodes({ storage, ffmpeg: platform.ffmpeg, logger });
    // The browse index reads songs through the library and the library's songs carry the index's ids:
    // the library asks the index (made just below) only once requests come.
    const library = new LibraryService({
      repository,
      accounts: use(accountsPort),
      storage,
      logger,
      transcodes,
      browseKeys: (ids): Promise<Map<number, SongKeys>> => browse.linkKeysOf(ids),
    });
    const browse: SongBrowseService = new SongBrowseService({
      repository: new SongBrowseRepository(database.db),
      songs: library,
      logger,
      // See SongBrowseDeps.listenForChanges: on PostgreSQL every call reads the songs' version.
      ...(database.driver === 'pglite' ? { listenForChanges: (onChange: () => void) => database.listen(SONGS_CHANNEL, onChange) } : {}),
    });
    const listeners: ((song: AddedSong) => Promise<void>)[] = [];
    const batchListeners = new Map<(song: AddedSong) => Promise<void>, (songs: AddedSong[]) => Promise<void>>();
    const announce = async (songId: number, tags: AudioTags | undefined): Promise<void> => {
      await Promise.all(
        listeners.map((listener) => listener({ songId, tags }).catch((error: unknown) => logger.warn({ err: error, songId }, 'a new-song listener failed'))),
      );
    };
    /** Many songs: each batch listener once, each other listener for every song. */
    const announceMany = async (added: AddedSong[]): Promise<void> => {
      if (added.length === 0) return;
      await Promise.all(
        [...batchListeners.values()].map((listener) => listener(added).catch((error: unknown) => logger.warn({ err: error }, 'a new-songs listener failed'))),
      );
      const single = listeners.filter((listener) => !batchListeners.has(listener));
      for (const song of added) {
        await Promise.all(
          single.map((listener) => listener(song).catch((error: unknown) => logger.warn({ err: error, songId: song.songId }, 'a new-song listener failed'))),
        );
      }
    };
    const folderSongRows = new FolderSongsRepository(database.db);
    const folderSongs: FolderSongs = {
      add: (values) => folderSongRows.insert(values),
      announce: announceMany,
      update: (songId, values) => folderSongRows.update(songId, values),
      setMissing: (ids, since) => folderSongRows.setMissing(ids, since),
      remove: (ids) => folderSongRows.remove(ids),
    };
    const ingest = new IngestService({
      repository,
      library,
      storage,
      logger,
      maxUploadBytes: config.maxUploadBytes,
      tagTimeoutMs: 10_000,
      ffmpeg: platform.ffmpeg,
      onSongAdded: announce,
      quota: new StorageQuota(config.limits.storageBytes, (ownerId) => uploadedSongBytes(database.db, ownerId)),
    });
    const folderImport = new FolderImport({
      repository,
      storage,
      logger,
      tagTimeoutMs: 10_000,
      ffmpeg: platform.ffmpeg,
      onSongAdded: announce,
      onSongsAdded: announceMany,
    });
    const storageCleanup = new StorageCleanup({
      repository,
      storage,
      logger,
      uploadGraceMs: PRESIGNED_PUT_TTL_SECONDS * 1000 + uploadDeadlineMs(config) + 60 * 60 * 1000,
      orphanGraceMs: 60 * 60 * 1000,
    });
    const resumable = setUpResumableUploads(config, { storage, logger, ingest });
    const detail: SongDetailExtras = {};
    return {
      ports: [
        bind(songCataloguePort, library),
        bind(songEventsPort, {
          onSongAdded: (listener, batch) => {
            listeners.push(listener);
            if (batch) batchListeners.set(listener, batch);
          },
        }),
        bind(folderSongsPort, folderSongs),
        bind(songOwnersPort, new SongOwnersRepository(database.db)),
        bind(songDetailSourcesPort, {
          provideAnalysis: (source) => {
            detail.analysisOf = source;
          },
          provideReplayGain: (source) => {
            detail.replayGainOf = source;
          },
          providePlays: (source) => {
            detail.playsOf = source;
          },
        }),
        bind(uploadGatePort, { assertUploadOpen: (key) => ingest.assertUploadOpen(key) }),
        bind(songFactsPort, new SongFactsRepository(database.db)),
        bind(songBrowsePort, browse),
      ],
      routes: async (app) => {
        await app.register(libraryRoutes(library, detail));
        await app.register(uploadRoutes(ingest, resumable.routes));
      },
      maintenance: [
        { name: 'unfinished uploads and stray files', run: () => storageCleanup.run() },
        { name: 'expired resumable uploads', run: () => resumable.service.sweep() },
      ],
      internals: { library, ingest, storageCleanup, folderImport, resumable: resumable.service },
    };
  },
});
