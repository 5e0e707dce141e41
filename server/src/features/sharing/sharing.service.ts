import { SHARE_MESSAGES } from '@encore/common/library.contract';
import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import { hashOneTimeToken, newOneTimeToken } from '../../platform/crypto/one-time-token.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { Accounts } from '../auth/auth.port.js';
import type { ShareableSong } from '../library/library.port.js';
import { shareLinkMail } from './share-link.mail.js';
import type { SharingRepository } from './sharing.repository.js';
import { songReferenceFromUrl } from '../library/library.port.js';
import type { ShareTokenBox } from './share-token-box.js';

/** What sharing needs from the music library. */
export interface SongSource {
  shareable(id: number): Promise<ShareableSong | undefined>;
  songIdByStorageKey(storageKey: string): Promise<number | undefined>;
  publicMedia(id: number, expiresInSeconds: number): Promise<{ streamUrl: string; coverUrl: string | null }>;
}

export interface SharingServiceDeps {
  repository: SharingRepository;
  songs: SongSource;
  /** The senders' names (the auth module's users). */
  accounts: Accounts;
  rateLimiter: RateLimiter;
  enqueueMail: (message: MailMessage) => Promise<void>;
  /** The address people reach Encore at; share links point below it. */
  publicUrl: string;
  linkTtlDays: number;
  sendsPerHour: number;
  /** Lifetime of the stream and cover URLs handed to the share page. */
  mediaTtlSeconds: number;
  /** Seals a link's token for its sender (their list of links shows it again). */
  tokens: ShareTokenBox;
}

/** A link that has not expired, and who sent it. */
export interface LiveShareLink {
  songId: number;
  sharedBy: string;
  expiresAt: Date;
}

/** A live share link's song, with URLs that play it without an account. */
export interface SharedSongView {
  song: ShareableSong;
  media: { streamUrl: string; coverUrl: string | null };
  link: LiveShareLink;
}

export interface ShareRequest {
  email: string;
  songUrl?: string | undefined;
  songId?: number | undefined;
}

/**
 * Sharing by e-mail (DECISIONS): the song is identified from the request, a random token
 * (stored only as a SHA-256) makes a public link to it that expires, and only that link is
 * mailed, never an address the client supplied.
 */
export class SharingService {
  private readonly rule: RateLimitRule;

  constructor(private readonly deps: SharingServiceDeps) {
    this.rule = {
      name: 'share-mail',
      limit: deps.sendsPerHour,
      windowSeconds: 3600,
      message: 'You have shared a lot of songs in the last hour. Please try again later.',
    };
  }

  async sendSongLink(sender: { id: number; userName: string }, request: ShareRequest): Promise<void> {
    const song = await this.resolveSong(request);
    await this.deps.rateLimiter.hit(this.rule, String(sender.id));
    const { token, hash } = newOneTimeToken();
    const expiresAt = new Date(Date.now() + this.deps.linkTtlDays * 24 * 3600_000);
    await this.deps.repository.create({
      tokenHash: hash,
      songId: song.id,
      createdBy: sender.id,
      expiresAt,
      sealedToken: this.deps.tokens.encrypt(token, sender.id),
    });
    const link = `${this.deps.publicUrl}/share/${token}`;
    await this.deps.enqueueMail(shareLinkMail({ to: request.email, senderName: sender.userName, songName: song.displayName, link, expiresAt }));
  }

  /** The public share page's data; an unknown, expired or deleted song's link is the same 404. */
  async sharedSong(token: string): Promise<SharedSongView> {
    const found = await this.deps.repository.findLive(hashOneTimeToken(token), new Date());
    // Deleting the sender deletes their links: a name missing now is a link that just went.
    const sharedBy = found && (await this.deps.accounts.userNames([found.createdBy])).get(found.createdBy);
    const song = found && sharedBy !== undefined ? await this.deps.songs.shareable(found.songId) : undefined;
    if (!found || sharedBy === undefined || !song) throw new NotFoundError(SHARE_MESSAGES.linkInvalid);
    const media = await this.deps.songs.publicMedia(song.id, this.deps.mediaTtlSeconds);
    return { song, media, link: { songId: found.songId, sharedBy, expiresAt: found.expiresAt } };
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.deps.repository.pruneExpired(new Date(now.getTime() - 24 * 3600_000));
  }

  private async resolveSong(request: ShareRequest): Promise<ShareableSong> {
    let songId = request.songId;
    if (songId === undefined) {
      const reference = songReferenceFromUrl(request.songUrl);
      songId = reference && ('songId' in reference ? reference.songId : await this.deps.songs.songIdByStorageKey(reference.storageKey));
    }
    const song = songId === undefined ? undefined : await this.deps.songs.shareable(songId);
    if (!song) throw new ValidationError(SHARE_MESSAGES.songMissing);
    return song;
  }
}
