import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import { newOneTimeToken } from '../../platform/crypto/one-time-token.js';
import type { ShareLinkRecord, ShareLinks } from './sharing.port.js';
import type { OwnShareLinkRow, SharingRepository } from './sharing.repository.js';
import type { SongSource } from './sharing.service.js';
import type { ShareTokenBox } from './share-token-box.js';

const DAY_MS = 24 * 3600_000;
/** The most characters of a link's description. */
export const MAX_SHARE_DESCRIPTION = 1000;
const LINK_NOT_FOUND = 'Share not found';

export interface ShareLinksDeps {
  repository: SharingRepository;
  songs: Pick<SongSource, 'shareable'>;
  tokens: ShareTokenBox;
  publicUrl: string;
  /** A new link's lifetime when none is asked (30 days, as mailed links). */
  linkTtlDays: number;
  /** The longest a link may live: links always expire (DECISIONS). */
  maxTtlDays: number;
  now?: () => Date;
}

/** A user's own share links, as Subsonic apps make them: the same public page as mailed links. */
export class ShareLinksService implements ShareLinks {
  private readonly now: () => Date;

  constructor(private readonly deps: ShareLinksDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async list(userId: number): Promise<ShareLinkRecord[]> {
    return (await this.deps.repository.listOwn(userId, this.now())).map((row) => this.record(userId, row));
  }

  async create(userId: number, songId: number, options: { description?: string | undefined; expiresAt?: Date | undefined }): Promise<ShareLinkRecord> {
    const description = this.description(options.description);
    const expiresAt = options.expiresAt === undefined ? new Date(this.now().getTime() + this.deps.linkTtlDays * DAY_MS) : this.expiry(options.expiresAt);
    if (!(await this.deps.songs.shareable(songId))) throw new NotFoundError('Song not found');
    const { token, hash } = newOneTimeToken();
    const row = await this.deps.repository.create({
      tokenHash: hash,
      songId,
      createdBy: userId,
      expiresAt,
      sealedToken: this.deps.tokens.encrypt(token, userId),
      description: description ?? null,
    });
    return this.record(userId, row);
  }

  async update(userId: number, id: number, changes: { description?: string | undefined; expiresAt?: Date | null | undefined }): Promise<ShareLinkRecord> {
    const description = this.description(changes.description);
    const expiresAt =
      changes.expiresAt === undefined
        ? undefined
        : changes.expiresAt === null
          ? new Date(this.now().getTime() + this.deps.maxTtlDays * DAY_MS)
          : this.expiry(changes.expiresAt);
    const row = await this.deps.repository.updateOwn(
      userId,
      id,
      { ...(description !== undefined ? { description: description === '' ? null : description } : {}), ...(expiresAt ? { expiresAt } : {}) },
      this.now(),
    );
    if (!row) throw new NotFoundError(LINK_NOT_FOUND);
    return this.record(userId, row);
  }

  async delete(userId: number, id: number): Promise<void> {
    if (!(await this.deps.repository.deleteOwn(userId, id))) throw new NotFoundError(LINK_NOT_FOUND);
  }

  private description(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    if (text.length > MAX_SHARE_DESCRIPTION) throw new ValidationError(`A share's description holds at most ${MAX_SHARE_DESCRIPTION} characters`);
    return text.trim();
  }

  private expiry(at: Date): Date {
    const now = this.now().getTime();
    if (Number.isNaN(at.getTime()) || at.getTime() <= now) throw new ValidationError('A share must expire in the future');
    if (at.getTime() > now + this.deps.maxTtlDays * DAY_MS) throw new ValidationError(`A share expires within ${this.deps.maxTtlDays} days`);
    return at;
  }

  private record(userId: number, row: OwnShareLinkRow): ShareLinkRecord {
    const token = row.sealedToken === null ? undefined : this.deps.tokens.decrypt(row.sealedToken, userId);
    return {
      id: row.id,
      songId: row.songId,
      url: token === undefined ? null : `${this.deps.publicUrl}/share/${token}`,
      description: row.description,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      lastVisitedAt: row.lastVisitedAt,
      visitCount: row.visitCount,
    };
  }
}
