import { LISTENBRAINZ_MESSAGES } from '@encore/common/listening.contract';
import { ServiceUnavailableError, ValidationError } from '../../../platform/errors/app-errors.js';
import { TaskFailure } from '../../../platform/jobs/jobs.types.js';
import type { Logger } from '../../../platform/logger.js';
import type { SongCatalogue } from '../../library/library.port.js';
import type { ListeningRepository } from '../listening.repository.js';
import type { CountedPlayEvent } from '../listening.service.js';
import { ListenBrainzError, type ListenBrainzClient } from './listenbrainz.client.js';
import type { TokenCipher } from './token-cipher.js';

/** A user's link to ListenBrainz as the profile page shows it. */
export interface ListenBrainzLinkStatus {
  linked: boolean;
  userName: string | null;
  lastSubmittedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/** What the submit job carries: whose play of which song, started when (ISO). */
export interface ListenPayload {
  userId: number;
  songId: number;
  listenedAt: string;
}

export interface ListenBrainzDeps {
  repository: Pick<ListeningRepository, 'listenBrainzLink' | 'saveListenBrainzLink' | 'deleteListenBrainzLink' | 'noteListenSubmitted' | 'noteListenFailed'>;
  cipher: TokenCipher;
  /** Undefined when LISTENBRAINZ_URL is off. */
  client: ListenBrainzClient | undefined;
  catalogue: Pick<SongCatalogue, 'get'>;
  /** Queues a listen for the submit job. */
  enqueue(listen: ListenPayload): Promise<void>;
  logger: Pick<Logger, 'info' | 'warn'>;
  now?: () => Date;
}

const OFF = 'ListenBrainz is turned off on this server (LISTENBRAINZ_URL=off)';

/**
 * Scrobbling to ListenBrainz: a user links their user token (checked with ListenBrainz, kept
 * encrypted); each play counted afterwards is queued as a job that submits it as a listen, tried
 * again later when ListenBrainz is busy or down, given up when it refuses the token or the listen.
 */
export class ListenBrainzService {
  constructor(private readonly deps: ListenBrainzDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async status(userId: number): Promise<ListenBrainzLinkStatus> {
    const row = await this.deps.repository.listenBrainzLink(userId);
    if (!row) return { linked: false, userName: null, lastSubmittedAt: null, lastError: null, lastErrorAt: null };
    return { linked: true, userName: row.userName, lastSubmittedAt: row.lastSubmittedAt, lastError: row.lastError, lastErrorAt: row.lastErrorAt };
  }

  /** Checks the token with ListenBrainz and keeps it: a validation error when ListenBrainz refuses it. */
  async link(userId: number, token: string): Promise<ListenBrainzLinkStatus> {
    const { client } = this.deps;
    if (!client) throw new ServiceUnavailableError(OFF);
    let userName: string;
    try {
      userName = await client.validateToken(token);
    } catch (error) {
      if (error instanceof ListenBrainzError && error.failure.kind !== 'try-later') throw new ValidationError(LISTENBRAINZ_MESSAGES.tokenRefused);
      throw new ServiceUnavailableError(LISTENBRAINZ_MESSAGES.unreachable);
    }
    await this.deps.repository.saveListenBrainzLink(userId, this.deps.cipher.encrypt(token, userId), userName, this.now());
    return this.status(userId);
  }

  async unlink(userId: number): Promise<void> {
    await this.deps.repository.deleteListenBrainzLink(userId);
  }

  /** A counted play of a linked user becomes a listen to submit. */
  async playCounted(play: CountedPlayEvent): Promise<void> {
    if (!this.deps.client) return;
    if (!(await this.deps.repository.listenBrainzLink(play.userId))) return;
    await this.deps.enqueue({ userId: play.userId, songId: play.song.id, listenedAt: play.startedAt.toISOString() });
  }

  /**
   * The submit job: sends the listen with the user's token as linked now. Nothing to do when the
   * user unlinked meanwhile or the song is gone. ListenBrainz busy or down: the failure is noted
   * and thrown for the job's retries; a refused token or listen: noted, and not tried again.
   */
  async submit(listen: ListenPayload): Promise<'submitted' | 'skipped'> {
    const { client, repository } = this.deps;
    const link = await repository.listenBrainzLink(listen.userId);
    if (!client || !link) return 'skipped';
    const token = this.deps.cipher.decrypt(link.tokenEncrypted, listen.userId);
    if (token === undefined) {
      const message = 'The stored token could not be read (the server secret changed): link ListenBrainz again';
      await repository.noteListenFailed(listen.userId, link.tokenEncrypted, message, this.now());
      throw new TaskFailure(message, { retry: false });
    }
    const song = await this.deps.catalogue.get(listen.songId, listen.userId).catch(() => undefined);
    const artistName = song?.artist?.trim() || song?.albumArtist?.trim();
    if (!song || !artistName) {
      // ListenBrainz needs an artist: a song without one (or deleted) cannot be a listen.
      this.deps.logger.info(
        { songId: listen.songId },
        song ? 'a play of a song without an artist is not sent to ListenBrainz' : 'the song of a listen is gone',
      );
      return 'skipped';
    }
    try {
      await client.submitListen(token, new Date(listen.listenedAt), {
        artistName,
        trackName: song.title?.trim() || song.displayName,
        releaseName: song.album?.trim() || null,
        durationSeconds: song.durationSeconds,
        trackNumber: song.trackNumber,
      });
    } catch (error) {
      if (!(error instanceof ListenBrainzError)) throw error;
      const retry = error.failure.kind === 'try-later';
      await repository.noteListenFailed(listen.userId, link.tokenEncrypted, retry ? `${error.message} (will try again)` : error.message, this.now());
      throw new TaskFailure(error.message, { retry, cause: error });
    }
    await repository.noteListenSubmitted(listen.userId, link.tokenEncrypted, this.now());
    return 'submitted';
  }
}
