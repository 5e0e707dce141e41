import { parseNspText, parseSmartRules, toNsp, type SmartRules } from '@encore/common/smart-playlist.rules';
import { SMART_PLAYLIST_MESSAGES } from '@encore/common/smart-playlist.contract';
import { PLAYLIST_DESCRIPTION_MAX, PLAYLIST_NAME_MAX } from '@encore/common/playlists.contract';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { SongCatalogue, SongRecord } from '../library/library.port.js';
import type { SmartPlaylistRow, SmartPlaylistsRepository } from './smart-playlists.repository.js';
import { SMART_PRESETS } from './smart-presets.js';

export interface SmartPlaylistRecord {
  row: SmartPlaylistRow;
  /** How many songs match for the viewer, after the rules' limit. */
  songCount: number;
}

/** A smart playlist with how many songs match for the viewer (after the rules' limit) and their total seconds. */
export interface SmartPlaylistSummary extends SmartPlaylistRecord {
  durationSeconds: number;
}

export interface SmartSongsPageRecord {
  total: number;
  songs: SongRecord[];
}

/** What a `.nsp` file says: a name (its "name", else the fallback), a comment and checked rules. */
export interface NspFile {
  name: string;
  comment: string | null;
  rules: SmartRules;
}

/** A saved playlist's rules; a row written by an older Encore that no longer reads is an empty list, not an error page. */
function rulesOf(row: SmartPlaylistRow): SmartRules | undefined {
  const parsed = parseSmartRules(row.rules);
  return parsed.ok ? parsed.rules : undefined;
}

/** The random sort's order stays the same while the playlist does (pages follow one another). */
const seedOf = (row: SmartPlaylistRow) => `${row.id}:${row.updatedAt.getTime()}`;

export class SmartPlaylistsService {
  constructor(
    private readonly repository: SmartPlaylistsRepository,
    private readonly catalogue: SongCatalogue,
  ) {}

  /** The user's smart playlists; a user's first list is given the presets. */
  async list(ownerId: number): Promise<SmartPlaylistRecord[]> {
    const records: SmartPlaylistRecord[] = [];
    for (const row of await this.rowsOf(ownerId)) records.push(await this.withCount(row, ownerId));
    return records;
  }

  /** The same with how long each plays for the viewer (Subsonic lists it), each in one query. */
  async listWithDurations(ownerId: number): Promise<SmartPlaylistSummary[]> {
    const records: SmartPlaylistSummary[] = [];
    for (const row of await this.rowsOf(ownerId)) records.push({ row, ...(await this.summaryOf(row, ownerId)) });
    return records;
  }

  private async rowsOf(ownerId: number): Promise<SmartPlaylistRow[]> {
    await this.repository.givePresetsOnce(
      ownerId,
      SMART_PRESETS.map((preset) => ({ name: preset.name, comment: preset.comment, rules: preset.rules })),
    );
    return this.repository.listByOwner(ownerId);
  }

  async get(id: number, ownerId: number): Promise<SmartPlaylistRecord> {
    return this.withCount(await this.owned(id, ownerId), ownerId);
  }

  async create(ownerId: number, values: { name: string; comment: string | null; rules: SmartRules }): Promise<SmartPlaylistRecord> {
    const row = await this.repository.create(ownerId, { name: values.name, comment: values.comment, rules: toNsp(values.rules) });
    return this.withCount(row, ownerId);
  }

  async update(id: number, ownerId: number, values: { name: string; comment: string | null; rules: SmartRules }): Promise<SmartPlaylistRecord> {
    const current = await this.owned(id, ownerId);
    if (current.source === 'folder') throw new ForbiddenError(SMART_PLAYLIST_MESSAGES.readOnly);
    const row = await this.repository.update(id, ownerId, { name: values.name, comment: values.comment, rules: toNsp(values.rules) });
    if (!row) throw new NotFoundError('Smart playlist not found');
    return this.withCount(row, ownerId);
  }

  async delete(id: number, ownerId: number): Promise<void> {
    if (!(await this.repository.delete(id, ownerId))) throw new NotFoundError('Smart playlist not found');
  }

  /** A page of the songs that match now for the viewer. */
  async songs(id: number, viewerId: number, page: { offset: number; limit: number }): Promise<SmartSongsPageRecord> {
    const row = await this.owned(id, viewerId);
    const rules = rulesOf(row);
    if (!rules) return { total: 0, songs: [] };
    return this.page(rules, viewerId, page, seedOf(row));
  }

  /** Rules not saved yet: how many songs they match and the first of them (the editor's live count). */
  preview(viewerId: number, rules: SmartRules, limit: number): Promise<SmartSongsPageRecord> {
    return this.page(rules, viewerId, { offset: 0, limit }, String(Date.now()));
  }

  /** Imports a `.nsp` file (its text, or its JSON) as the user's smart playlist. */
  async importNsp(ownerId: number, body: string | Record<string, unknown>): Promise<SmartPlaylistRecord> {
    const file = readNsp(body, 'Imported smart playlist');
    return this.create(ownerId, file);
  }

  /** The rules as a `.nsp` file's JSON, with the name and comment Navidrome reads. */
  async nsp(id: number, ownerId: number): Promise<{ name: string; body: string }> {
    const row = await this.owned(id, ownerId);
    const body = { name: row.name, ...(row.comment ? { comment: row.comment } : {}), ...row.rules };
    return { name: row.name, body: `${JSON.stringify(body, null, 2)}\n` };
  }

  /** The songs that match now as an M3U8 file with signed stream links (a week). */
  async m3u8(id: number, ownerId: number, absolute: (url: string) => string): Promise<{ name: string; body: string }> {
    const row = await this.owned(id, ownerId);
    const rules = rulesOf(row);
    const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(row.name)}`];
    if (rules) {
      const { songs } = await this.page(rules, ownerId, { offset: 0, limit: M3U8_MAX_SONGS }, seedOf(row));
      for (const song of songs) {
        const seconds = song.durationSeconds === null ? -1 : Math.round(song.durationSeconds);
        const title = song.artist && song.title ? `${song.artist} - ${song.title}` : song.displayName;
        lines.push(`#EXTINF:${seconds},${oneLine(title)}`);
        lines.push(absolute(await this.catalogue.streamUrl(song.id, 7 * 24 * 3600)));
      }
    }
    return { name: row.name, body: `${lines.join('\n')}\n` };
  }

  /**
   * The ids of the songs a saved playlist matches now, in order, up to `max` (Subsonic's
   * getPlaylist), with the row, how many match in all and how long they all play.
   */
  async allSongIds(id: number, viewerId: number, max: number): Promise<SmartPlaylistSummary & { ids: number[] }> {
    const row = await this.owned(id, viewerId);
    const rules = rulesOf(row);
    if (!rules) return { row, songCount: 0, durationSeconds: 0, ids: [] };
    const { ids } = await this.repository.matchingSongIds(rules, { viewerId, offset: 0, limit: max, seed: seedOf(row) });
    return { row, ...(await this.summaryOf(row, viewerId)), ids };
  }

  private async summaryOf(row: SmartPlaylistRow, viewerId: number): Promise<{ songCount: number; durationSeconds: number }> {
    const rules = rulesOf(row);
    if (!rules) return { songCount: 0, durationSeconds: 0 };
    const { total, seconds } = await this.repository.matchSummary(rules, { viewerId, seed: seedOf(row) });
    return { songCount: total, durationSeconds: seconds };
  }

  private async page(rules: SmartRules, viewerId: number, page: { offset: number; limit: number }, seed: string): Promise<SmartSongsPageRecord> {
    const { total, ids } = await this.repository.matchingSongIds(rules, { viewerId, ...page, seed });
    const records = ids.length === 0 ? [] : await this.catalogue.songsByIds(ids, viewerId);
    const byId = new Map(records.map((record) => [record.id, record]));
    return {
      total: Math.min(total, rules.limit ?? total),
      songs: ids.flatMap((songId) => {
        const record = byId.get(songId);
        return record ? [record] : [];
      }),
    };
  }

  private async withCount(row: SmartPlaylistRow, viewerId: number): Promise<SmartPlaylistRecord> {
    const rules = rulesOf(row);
    if (!rules) return { row, songCount: 0 };
    const { total } = await this.repository.matchingSongIds(rules, { viewerId, offset: 0, limit: 0, seed: seedOf(row) });
    return { row, songCount: Math.min(total, rules.limit ?? total) };
  }

  private async owned(id: number, ownerId: number): Promise<SmartPlaylistRow> {
    const row = await this.repository.find(id, ownerId);
    if (!row) throw new NotFoundError('Smart playlist not found');
    return row;
  }
}

/** An M3U8 export lists at most this many songs. */
const M3U8_MAX_SONGS = 10_000;

const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

/** A `.nsp` file's name, comment and rules; a validation error that names what is wrong. */
export function readNsp(body: string | Record<string, unknown>, fallbackName: string): NspFile {
  let value: unknown = body;
  if (typeof body === 'string') {
    const parsed = parseNspText(body);
    if (!parsed.ok) throw new ValidationError(parsed.message);
    value = parsed.value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(SMART_PLAYLIST_MESSAGES.notNsp);
  const { name, comment, ...rest } = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key.toLowerCase() === 'name' || key.toLowerCase() === 'comment' ? key.toLowerCase() : key, item]),
  ) as Record<string, unknown>;
  const rules = parseSmartRules(withoutNavidromeExtras(rest));
  if (!rules.ok) throw new ValidationError(rules.message);
  const cleanName = typeof name === 'string' ? oneLine(name).trim().slice(0, PLAYLIST_NAME_MAX) : '';
  const cleanComment = typeof comment === 'string' ? comment.trim().slice(0, PLAYLIST_DESCRIPTION_MAX) : '';
  return { name: cleanName || fallbackName, comment: cleanComment || null, rules: rules.rules };
}

/** Keys of a .nsp file that are not rules (Navidrome's visibility and refresh settings): read past, not refused. */
function withoutNavidromeExtras(value: Record<string, unknown>): Record<string, unknown> {
  const ignored = new Set(['public', 'refreshdelay', 'offset', 'limitpercent']);
  return Object.fromEntries(Object.entries(value).filter(([key]) => !ignored.has(key.toLowerCase())));
}
