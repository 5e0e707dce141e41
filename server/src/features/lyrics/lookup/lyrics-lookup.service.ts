import { importLyrics, normaliseLyricsText } from '@encore/common/lyrics-document.rules';
import { LYRICS_MESSAGES, type ApplyCandidateBody, type LyricsCandidate, type LyricsCandidates } from '@encore/common/lyrics.contract';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../../platform/errors/app-errors.js';
import type { LyricsService, LyricsSong, LyricsView } from '../lyrics.service.js';
import type { LrclibClient, LrclibQuery, LrclibRecord } from './lrclib.client.js';

const MAX_CANDIDATES = 10;
const PREVIEW_LINES = 4;

/**
 * "Find lyrics online": candidates from LRCLIB for the song's title, artist, album and
 * duration (the exact match first, then the search's nearest durations), and applying one.
 * Same rule as every write: anyone for a song without lyrics, only the uploader otherwise.
 */
export class LyricsLookupService {
  constructor(
    private readonly lyrics: LyricsService,
    private readonly client: LrclibClient | undefined,
  ) {}

  async candidates(songId: number, viewerId: number): Promise<LyricsCandidates> {
    const client = this.requireClient();
    const { song } = await this.lyrics.writable(songId, viewerId);
    const query = queryOf(song);
    const [exact, found] = await Promise.all([client.get(query), client.search(query)]);
    const seen = new Set<number>();
    const records = [...(exact ? [exact] : []), ...sortByDuration(found, query.durationSeconds)].filter((record) => {
      if (seen.has(record.id)) return false;
      seen.add(record.id);
      return true;
    });
    return { query, candidates: records.slice(0, MAX_CANDIDATES).map(toCandidate) };
  }

  async apply(songId: number, viewerId: number, body: ApplyCandidateBody): Promise<LyricsView> {
    const client = this.requireClient();
    await this.lyrics.writable(songId, viewerId);
    const record = await client.byId(body.candidateId);
    const kind = body.kind ?? (record.syncedLyrics?.trim() ? 'synced' : 'plain');
    const source = kind === 'synced' ? record.syncedLyrics : record.plainLyrics;
    if (record.instrumental || !source?.trim())
      throw new ValidationError(record.instrumental ? LYRICS_MESSAGES.candidateInstrumental : LYRICS_MESSAGES.candidateMissing);
    const document = kind === 'synced' ? importLyrics(source).document : { text: normaliseLyricsText(source), lineTimes: null, words: null };
    // The uploader replaces; anyone else only fills a song that still has none.
    if (!(await this.lyrics.store(songId, viewerId, document, 'lookup', null))) throw new NotFoundError(LYRICS_MESSAGES.notFound);
    return this.lyrics.view(songId, viewerId);
  }

  private requireClient(): LrclibClient {
    if (!this.client) throw new ServiceUnavailableError(LYRICS_MESSAGES.lookupOff);
    return this.client;
  }
}

function queryOf(song: LyricsSong): LrclibQuery {
  // Without a title tag, "Artist - Title" display names are split back; else the name is the title.
  let title = song.title;
  let artist = song.artist;
  if (!title) {
    const parts = song.displayName.split(' - ');
    if (parts.length >= 2 && !artist) {
      artist = parts[0]!.trim();
      title = parts.slice(1).join(' - ').trim();
    } else title = song.displayName;
  }
  return { title, artist, album: song.album, durationSeconds: song.durationSeconds };
}

function sortByDuration(records: LrclibRecord[], duration: number | null): LrclibRecord[] {
  const distance = (record: LrclibRecord) => (record.duration === null || duration === null ? Number.POSITIVE_INFINITY : Math.abs(record.duration - duration));
  const rank = (record: LrclibRecord) => (record.instrumental ? 2 : record.syncedLyrics?.trim() ? 0 : 1);
  return [...records].sort((a, b) => rank(a) - rank(b) || distance(a) - distance(b));
}

function toCandidate(record: LrclibRecord): LyricsCandidate {
  const kind = record.instrumental ? 'instrumental' : record.syncedLyrics?.trim() ? 'synced' : 'plain';
  const text = record.plainLyrics?.trim()
    ? normaliseLyricsText(record.plainLyrics)
    : record.syncedLyrics
      ? importLyrics(record.syncedLyrics).document.text
      : '';
  const lines = text === '' ? [] : text.split('\n');
  return {
    id: record.id,
    trackName: record.trackName ?? '',
    artistName: record.artistName ?? '',
    albumName: record.albumName,
    durationSeconds: record.duration,
    kind,
    preview: lines
      .filter((line) => line.trim() !== '')
      .slice(0, PREVIEW_LINES)
      .join('\n'),
    lineCount: lines.filter((line) => line.trim() !== '').length,
  };
}
