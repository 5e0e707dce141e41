import { AI_MESSAGES, MORE_LIKE_THIS_SIZE, incompleteAnalysisNote, nearestNote, noMatchMessage } from '@encore/common/discovery.contract';
import { UnprocessableError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SongFactsSource, SongRecord } from '../library/library.port.js';
import type { AiPlaylistSize, GeneratedPlaylists } from '../playlists/playlists.port.js';
import { loadCandidates } from './candidates.js';
import type { Candidate, DiscoveryRepository } from './discovery.repository.js';
import { interpretWithLlm, LlmUnusable, type LlmSettings } from './llm/llm-interpreter.js';
import { normaliseGenre, parsePrompt, type LibraryVocabulary } from './prompt/parse-prompt.js';
import { isEmptyQuery, type PromptQuery } from './prompt/prompt-query.js';
import { describePlaylist, namePlaylist, type PlaylistSource } from './playlist-naming.js';
import { applicableQuery } from './ranking/applicability.js';
import { agreeWithEmbedded } from './llm/agree.js';
import { fillWithNearest, rankSongs, vectorDistance, whyNothingMatches, type RankedSong } from './ranking/rank.js';
import { CandidateCache } from './candidate-cache.js';

/** Song ids asked of the catalogue at once, for "my songs" (a bound on the statement's parameters). */
const OWN_SONGS_PAGE = 5000;

/** What discovery needs from the music library. */
export interface DiscoveryCatalog {
  songsByIds(ids: number[], viewerId: number): Promise<SongRecord[]>;
  get(id: number, viewerId: number): Promise<SongRecord>;
}

export interface DiscoveryServiceDeps {
  repository: DiscoveryRepository;
  catalog: DiscoveryCatalog;
  /** The songs' tags and lyrics' text for ranking, and how many songs the collection holds. */
  songs: Pick<SongFactsSource, 'songs' | 'count'>;
  playlists: GeneratedPlaylists;
  logger: Logger;
  llm: LlmSettings | undefined;
  fetchImpl?: typeof fetch;
}

/** A generated playlist as saved: its songs (full records) with their reasons. */
export interface GeneratedResult {
  id: number;
  name: string;
  description: string;
  prompt: string;
  interpreter: 'embedded' | 'llm';
  note: string | null;
  songs: { record: SongRecord; reason: string; nearest?: boolean }[];
}

/** Prompt → playlist, and "More like this", from the caller's library as analysed. */
export class DiscoveryService {
  private readonly cache: CandidateCache<LibraryVocabulary>;

  constructor(private readonly deps: DiscoveryServiceDeps) {
    const { repository, songs } = deps;
    this.cache = new CandidateCache({ version: () => repository.catalogVersion(), load: () => loadCandidates(repository, songs) }, vocabularyOf);
  }

  async generate(ownerId: number, prompt: string): Promise<GeneratedResult> {
    // Something to read: letters, digits, or an emoji Encore knows (checked by the parser).
    const { candidates, vocabulary, note } = await this.library();
    const interpreted = await this.interpret(prompt, vocabulary);
    const { interpreter } = interpreted;
    let query = interpreted.query;
    if (isEmptyQuery(query) && !/[\p{L}\p{N}]/u.test(prompt)) throw new UnprocessableError(AI_MESSAGES.promptNoWords);
    const applicable = applicableQuery(query, candidates);
    const notes = [...applicable.notes];
    query = applicable.query;
    let allowed: Set<number> | undefined;
    if (query.scope) {
      allowed = await this.ownSongs(ownerId, query.scope, candidates);
      if (allowed.size === 0) {
        notes.push(
          query.scope === 'favourites'
            ? 'None of your favourites is analysed yet, so these are from the collection'
            : 'None of your own songs or favourites is analysed yet, so these are from the collection',
        );
        allowed = undefined;
      }
    }
    const options = allowed ? { allowed } : {};
    const answers = rankSongs(query, candidates, options);
    const ranked = fillWithNearest(query, candidates, answers, options);
    if (ranked.length === 0) throw new UnprocessableError(noMatchMessage(whyNothingMatches(query, candidates, options)));
    if (ranked.length > answers.length) notes.push(nearestNote(answers.length, ranked.length - answers.length));
    const songs = await this.records(ownerId, ranked);
    const source: PlaylistSource = songs.every(({ record }) => record.ownerId === ownerId)
      ? 'library'
      : allowed && songs.every(({ record }) => record.ownerId === ownerId || record.isLiked)
        ? 'favourites'
        : 'collection';
    return this.save(
      ownerId,
      {
        name: namePlaylist(prompt),
        description: describePlaylist(query, source, notes),
        prompt,
        size: sizeOf(query),
        interpreter,
        note: isEmptyQuery(query) ? joinNotes(note, 'no mood, activity, genre or artist recognised: a varied mix') : note,
      },
      songs,
    );
  }

  /**
   * Ranks a fresh AI playlist again with its prompt (issue 41), as `generate` ranks it, at the
   * size it was generated with; the songs the user removed never come back, those the user added
   * stay. 'skipped' when it is no longer kept fresh or there is nothing to rank from.
   */
  async refresh(playlistId: number): Promise<'refreshed' | 'skipped'> {
    const playlist = await this.deps.playlists.freshPlaylist(playlistId);
    if (!playlist) return 'skipped';
    const library = await this.library().catch((error: unknown) => {
      if (error instanceof UnprocessableError) return undefined; // nothing analysed (any more): the playlist stays as it is
      throw error;
    });
    if (!library) return 'skipped';
    const { candidates, vocabulary } = library;
    const interpreted = (await this.interpret(playlist.prompt, vocabulary)).query;
    const query: PromptQuery = { ...applicableQuery(interpreted, candidates).query, count: playlist.size.count, minutes: playlist.size.minutes };
    const own = query.scope ? await this.ownSongs(playlist.ownerId, query.scope, candidates) : undefined;
    const leftOut = new Set([...playlist.removed, ...playlist.handPicked]);
    const allowed = new Set(candidates.map((song) => song.id).filter((id) => !leftOut.has(id) && (!own || own.size === 0 || own.has(id))));
    const ranked = fillWithNearest(query, candidates, rankSongs(query, candidates, { allowed }), { allowed });
    return (await this.deps.playlists.replaceGenerated(
      playlistId,
      ranked.map((entry) => entry.candidate.id),
    ))
      ? 'refreshed'
      : 'skipped';
  }

  /** The prompt as a query: the embedded parser's, or an LLM's that agrees with it when one is set up and answers. */
  private async interpret(prompt: string, vocabulary: LibraryVocabulary): Promise<{ query: PromptQuery; interpreter: GeneratedResult['interpreter'] }> {
    const embedded = parsePrompt(prompt, vocabulary);
    if (!this.deps.llm) return { query: embedded, interpreter: 'embedded' };
    try {
      const query = agreeWithEmbedded(
        restrictToLibrary(await interpretWithLlm(this.deps.llm, prompt, this.deps.logger, this.deps.fetchImpl), vocabulary),
        embedded,
      );
      return { query, interpreter: 'llm' };
    } catch (error) {
      if (!(error instanceof LlmUnusable)) throw error;
      this.deps.logger.warn({ reason: error.message }, 'LLM unusable, the embedded parser answers');
      return { query: embedded, interpreter: 'embedded' };
    }
  }

  /** The analysed songs the caller uploaded or liked ("my songs"), or liked only ("my favourites"). */
  private async ownSongs(ownerId: number, scope: NonNullable<PromptQuery['scope']>, candidates: Candidate[]): Promise<Set<number>> {
    const ids = candidates.map((song) => song.id);
    const own = new Set<number>();
    for (let start = 0; start < ids.length; start += OWN_SONGS_PAGE) {
      for (const record of await this.deps.catalog.songsByIds(ids.slice(start, start + OWN_SONGS_PAGE), ownerId)) {
        if (record.isLiked || (scope === 'mine' && record.ownerId === ownerId)) own.add(record.id);
      }
    }
    return own;
  }

  /** A playlist of the songs nearest this one by their feature vectors. */
  async moreLikeThis(ownerId: number, songId: number): Promise<GeneratedResult> {
    const seed = await this.deps.catalog.get(songId, ownerId); // 404 when it does not exist
    const analysis = await this.deps.repository.findAnalysis(songId);
    if (!analysis) throw new UnprocessableError(AI_MESSAGES.songNotAnalysed);
    if (analysis.status === 'failed') throw new UnprocessableError(AI_MESSAGES.songNotAnalysable);
    const { candidates, note } = await this.library();
    const vector = analysis.vector as number[];
    const seedTitle = (seed.title ?? seed.displayName).toLowerCase();
    const nearest = candidates
      .filter((song) => song.id !== songId && (song.title ?? song.displayName).toLowerCase() !== seedTitle)
      .map((song) => ({ song, distance: vectorDistance(vector, song.vector) }))
      .filter((entry) => entry.distance < 0.9)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, MORE_LIKE_THIS_SIZE - 1);
    if (nearest.length === 0) throw new UnprocessableError(AI_MESSAGES.noSimilar);
    const label = seed.title ?? seed.displayName;
    const ranked: RankedSong[] = [
      { candidate: { ...candidates.find((song) => song.id === songId)!, id: songId }, score: 1, reason: 'the song you started from' },
      ...nearest.map(({ song, distance }) => ({ candidate: song, score: 1 - distance, reason: similarityReason(vector, song) })),
    ].filter((entry) => entry.candidate.features !== undefined);
    const prompt = `More like ${label}`;
    const songs = await this.records(ownerId, ranked);
    return this.save(
      ownerId,
      {
        name: `More like ${label}`.slice(0, 100),
        description: `Songs that sound like ${label}: nearest by tempo, energy, key, brightness and texture.`,
        prompt,
        interpreter: 'embedded',
        note,
      },
      songs,
    );
  }

  private async library(): Promise<{ candidates: Candidate[]; vocabulary: LibraryVocabulary; note: string | null }> {
    const [total, counts] = await Promise.all([this.deps.songs.count(), this.deps.repository.counts()]);
    if (total === 0) throw new UnprocessableError(AI_MESSAGES.libraryEmpty);
    const { candidates, derived: vocabulary } = await this.cache.get();
    if (candidates.length === 0) throw new UnprocessableError(AI_MESSAGES.nothingAnalysed);
    const analysable = total - counts.failed;
    return { candidates, vocabulary, note: candidates.length < analysable ? incompleteAnalysisNote(candidates.length, analysable) : null };
  }

  /** The ranked songs as the caller sees them, in order; a song deleted meanwhile is left out. */
  private async records(ownerId: number, ranked: RankedSong[]): Promise<GeneratedResult['songs']> {
    const records = await this.deps.catalog.songsByIds(
      ranked.map((entry) => entry.candidate.id),
      ownerId,
    );
    const byId = new Map(records.map((record) => [record.id, record]));
    return ranked.flatMap((entry) => {
      const record = byId.get(entry.candidate.id);
      return record ? [{ record, reason: entry.reason, ...(entry.nearest ? { nearest: true } : {}) }] : [];
    });
  }

  private async save(
    ownerId: number,
    { size, ...meta }: Omit<GeneratedResult, 'id' | 'songs'> & { size?: AiPlaylistSize },
    songs: GeneratedResult['songs'],
  ): Promise<GeneratedResult> {
    const id = await this.deps.playlists.createGenerated(ownerId, {
      name: meta.name,
      description: meta.description,
      prompt: meta.prompt,
      ...(size ? { size } : {}),
      songIds: songs.map(({ record }) => record.id),
    });
    return { id, ...meta, songs };
  }
}

export function vocabularyOf(candidates: Candidate[]): LibraryVocabulary {
  const pick = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => !!value && value.trim().length > 0))];
  return {
    artists: pick(candidates.map((song) => song.artist)),
    albums: pick(candidates.map((song) => song.album)),
    genres: pick(candidates.map((song) => song.genre)),
  };
}

/** An LLM's names count only when the library has them (case-insensitively); others are dropped, a genre the library lacks is said to be missing. */
function restrictToLibrary(query: PromptQuery, vocabulary: LibraryVocabulary): PromptQuery {
  const within = (names: string[], library: string[]) => names.flatMap((name) => library.filter((known) => known.toLowerCase() === name.toLowerCase()));
  const tags = vocabulary.genres.map((genre) => ` ${normaliseGenre(genre)} `);
  const inLibrary = (name: string) => tags.some((tag) => tag.includes(` ${normaliseGenre(name)} `));
  const asked = query.genres.map(normaliseGenre).filter((name) => name.length > 0);
  return {
    ...query,
    artists: within(query.artists, vocabulary.artists),
    excludeArtists: within(query.excludeArtists, vocabulary.artists),
    albums: within(query.albums, vocabulary.albums),
    genres: asked.filter(inLibrary),
    missingGenres: [...new Set([...query.missingGenres.map(normaliseGenre), ...asked.filter((name) => !inLibrary(name))])],
    excludeGenres: query.excludeGenres.map(normaliseGenre),
  };
}

function similarityReason(seed: number[], song: Candidate): string {
  const f = song.features;
  const close: string[] = [];
  if (Math.abs((seed[0] ?? 0) - (song.vector[0] ?? 0)) < 0.05) close.push(`similar tempo (${Math.round(f.bpm)} BPM)`);
  if (Math.abs((seed[1] ?? 0) - f.energy) < 0.1) close.push(`${f.energyLevel} energy`);
  if ((seed[9] ?? 0) > 0 === (f.mode === 'major')) close.push(`${f.mode} key`);
  if (Math.abs((seed[3] ?? 0) - f.brightness) < 0.1) close.push(f.brightness >= 0.5 ? 'bright like it' : 'warm like it');
  return close.length > 0 ? close.slice(0, 3).join(', ') : `${Math.round(f.bpm)} BPM, ${f.key} ${f.mode}, ${f.energyLevel} energy`;
}

/** The size the prompt asked for, kept with the playlist: its re-rankings keep it (issue 41). */
function sizeOf(query: PromptQuery): AiPlaylistSize {
  return { ...(query.count !== undefined ? { count: query.count } : {}), ...(query.minutes !== undefined ? { minutes: query.minutes } : {}) };
}

function joinNotes(a: string | null, b: string): string {
  return a ? `${a}; ${b}` : b;
}
