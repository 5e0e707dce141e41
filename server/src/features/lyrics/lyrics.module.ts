import { LYRICS_MESSAGES } from '@encore/common/lyrics.contract';
import type { Config } from '../../config.js';
import { bind, defineModule } from '../../modules/module.js';
import { transcriptionLimit } from '../../platform/limits/user-limits.js';
import { accountsPort } from '../auth/auth.port.js';
import { storageOrigins } from '../../platform/storage/storage-origins.js';
import { songCataloguePort, songEventsPort, songFactsPort } from '../library/library.port.js';
import { EmbeddedLyricsService } from './embedded/embedded-lyrics.service.js';
import { LrclibClient } from './lookup/lrclib.client.js';
import { LyricsLookupService } from './lookup/lyrics-lookup.service.js';
import { embeddedBackfillJob, embeddedLyricsJob, lyricsJobs, transcribeLyricsJob } from './lyrics.jobs.js';
import { songLyricsPort } from './lyrics.port.js';
import { LyricsRepository } from './lyrics.repository.js';
import { lyricsRoutes } from './lyrics.routes.js';
import { lyrics as lyricsTable, lyricsEmbeddedScans, lyricsTranscriptions } from './lyrics.schema.js';
import { LyricsService } from './lyrics.service.js';
import { OpenAiTranscriptionEngine } from './transcription/openai.engine.js';
import { SongAudio } from './transcription/song-audio.js';
import { SongUrlVerifier } from './transcription/song-url.js';
import { TranscriptionClaims } from './transcription/transcription-claims.js';
import type { TranscriptionEngine } from './transcription/transcription-engine.js';
import { transcriptionRoutes } from './transcription/transcription.routes.js';
import { TranscriptionService } from './transcription/transcription.service.js';
import { LocalWhisperEngine } from './transcription/whisper-local.engine.js';

export const lyricsModule = defineModule({
  name: 'lyrics',
  summary: 'Lyrics of songs: edit, import and export (LRC, SRT), look up online, read from the files, transcribe with word timings.',
  requires: [songCataloguePort, songEventsPort, songFactsPort, accountsPort],
  provides: [songLyricsPort],
  tables: [lyricsTable, lyricsTranscriptions, lyricsEmbeddedScans],
  jobs: [transcribeLyricsJob, embeddedLyricsJob, embeddedBackfillJob],
  settings: [
    'LYRICS_LOOKUP_URL',
    'LYRICS_LOOKUP_TIMEOUT_SECONDS',
    'TRANSCRIBE_ENGINE',
    'TRANSCRIBE_MODEL',
    'TRANSCRIBE_MODEL_DIR',
    'TRANSCRIBE_MODEL_HOST',
    'TRANSCRIBE_API_URL',
    'TRANSCRIBE_API_KEY',
    'TRANSCRIBE_TIMEOUT_SECONDS',
    'USER_MAX_TRANSCRIPTIONS',
  ],
  tags: ['lyrics'],
  messages: LYRICS_MESSAGES,
  setup({ platform, logger, publicUrl, use }) {
    const { config, database, storage } = platform;
    const catalogue = use(songCataloguePort);
    const songs = use(songFactsPort);
    const repository = new LyricsRepository(database.db);
    const claims = new TranscriptionClaims({ repository, tasks: platform.tasks });
    const accounts = use(accountsPort);
    // A song of a music folder has no uploader: the instance's owner (its first account) edits its lyrics as an uploader would.
    const songsWithEditor = {
      song: async (songId: number) => {
        const song = await songs.song(songId);
        return song && song.ownerId === null ? { ...song, ownerId: (await accounts.account())?.id ?? null } : song;
      },
    };
    const lyrics = new LyricsService(repository, songsWithEditor, claims);
    const lookupUrl = config.lyricsLookup.baseUrl;
    const lookup = new LyricsLookupService(lyrics, lookupUrl ? new LrclibClient({ baseUrl: lookupUrl, timeoutMs: config.lyricsLookup.timeoutMs }) : undefined);
    const transcription = new TranscriptionService({
      lyrics,
      claims,
      tasks: platform.tasks,
      job: transcribeLyricsJob,
      engine: transcriptionEngine(config),
      audio: new SongAudio({ storage, ffmpeg: platform.ffmpeg }),
      timeoutMs: config.transcription.timeoutMs,
      logger,
      limit: transcriptionLimit(config.limits),
    });
    const embeddedLyrics = new EmbeddedLyricsService({ lyrics, repository, songs, storage, logger });
    const songUrls = new SongUrlVerifier({
      storage,
      publicOrigin: new URL(publicUrl).origin,
      storageOrigins: storageOrigins(config),
      songIdByStorageKey: (key) => catalogue.songIdByStorageKey(key),
    });
    // The tags were read once, by the upload: its lyrics are kept from them at once.
    use(songEventsPort).onSongAdded(
      async ({ songId, tags }) => {
        if (tags) await embeddedLyrics.adopt(songId, tags.lyricsTags, tags.lyricsFile);
      },
      // A music folder's batch: one statement for the songs without lyrics in their tags.
      async (songs) => {
        await embeddedLyrics.adoptMany(songs.flatMap(({ songId, tags }) => (tags ? [{ songId, tags: tags.lyricsTags, lyricsFile: tags.lyricsFile }] : [])));
      },
    );
    return {
      ports: [bind(songLyricsPort, { lyricsFor: async (songId) => (await repository.find(songId))?.document })],
      routes: async (app) => {
        await app.register(lyricsRoutes(lyrics, lookup));
        await app.register(transcriptionRoutes(transcription, songUrls));
      },
      jobs: lyricsJobs(transcription, embeddedLyrics, config.transcription.timeoutMs),
      // Songs uploaded before lyrics were read from files gain theirs once (a no-op afterwards).
      start: async () => {
        await platform.jobs.send(embeddedBackfillJob, {}, { singletonKey: embeddedBackfillJob.name });
      },
      internals: { lyrics, lookup, transcription, embeddedLyrics, songUrls },
    };
  },
});

/** TRANSCRIBE_ENGINE: the local Whisper, an OpenAI-compatible endpoint, or none. */
function transcriptionEngine(config: Config): TranscriptionEngine | null {
  const settings = config.transcription;
  if (settings.engine === 'off') return null;
  if (settings.engine === 'openai') {
    return new OpenAiTranscriptionEngine({ apiUrl: settings.apiUrl, apiKey: settings.apiKey, model: settings.model, requestTimeoutMs: settings.timeoutMs });
  }
  return new LocalWhisperEngine({ model: settings.model, modelDir: settings.modelDir, cacheDir: settings.cacheDir, modelHost: settings.modelHost });
}
