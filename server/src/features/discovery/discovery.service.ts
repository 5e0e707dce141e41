import { AI_MESSAGES, MORE_LIKE_THIS_SIZE, incompleteAnalysisNote } from '@encore/common/discovery.contract';
import { UnprocessableError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SongFactsSource, SongRecord } from '../library/library.port.js';
import type { GeneratedPlaylists } from '../playlists/playlists.port.js';
import { loadCandidates } from './candidates.js';
import type { Candidate, DiscoveryRepository } from './discovery.repository.js';
import { interpretWithLlm, LlmUnusable, type LlmSettings } from './llm/llm-interpreter.js';
import { parsePrompt, type LibraryVocabulary } from './prompt/parse-prompt.js';
import { isEmptyQuery, type PromptQuery } from './prompt/prompt-query.js';
import { describePlaylist, namePlaylist } from './playlist-naming.js';
import { rankSongs, vectorDistance, type RankedSong } from './ranking/rank.js';
import { CandidateCache } from './candidate-cache.js';

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
  songs: { record: SongRecord; reason: string }[];
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
    let interpreter: GeneratedResult['interpreter'] = 'embedded';
    let query = parsePrompt(prompt, vocabulary);
    if (this.deps.llm) {
      try {
        query = restrictToLibrary(await interpretWithLlm(this.deps.llm, prompt, this.deps.logger, this.deps.fetchImpl), vocabulary);
        interpreter = 'llm';
      } catch (error) {
        if (!(error instanceof LlmUnusable)) throw error;
        this.deps.logger.warn({ reason: error.message }, 'LLM unusable, the embedded parser answers');
      }
    }
    if (isEmptyQuery(query) && !/[\p{L}\p{N}]/u.test(prompt)) throw new UnprocessableError(AI_MESSAGES.promptNoWords);
    const ranked = rankSongs(query, candidates);
    if (ranked.length === 0) throw new UnprocessableError(AI_MESSAGES.noMatch);
    const name = namePlaylist(prompt);
    const description = describePlaylist(prompt, query, ranked.length);
    return this.save(
      ownerId,
      {
        name,
        description,
        prompt,
        interpreter,
        note: isEmptyQuery(query) ? joinNotes(note, 'no mood, activity, genre or artist recognised: a varied mix') : note,
      },
      ranked,
    );
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
    return this.save(
      ownerId,
      {
        name: `More like ${label}`.slice(0, 100),
        description: `Songs that sound like ${label}: nearest by tempo, energy, key, brightness and texture.`,
        prompt,
        interpreter: 'embedded',
        note,
      },
      ranked,
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

  private async save(ownerId: number, meta: Omit<GeneratedResult, 'id' | 'songs'>, ranked: RankedSong[]): Promise<GeneratedResult> {
    const id = await this.deps.playlists.createGenerated(ownerId, {
      name: meta.name,
      description: meta.description,
      prompt: meta.prompt,
      songIds: ranked.map((entry) => entry.candidate.id),
    });
    const records = await this.deps.catalog.songsByIds(
      ranked.map((entry) => entry.candidate.id),
      ownerId,
    );
    const byId = new Map(records.map((record) => [record.id, record]));
    const songs = ranked.flatMap((entry) => {
      const record = byId.get(entry.candidate.id);
      return record ? [{ record, reason: entry.reason }] : [];
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

/** An LLM's names count only when the library has them (case-insensitively); others are dropped. */
function restrictToLibrary(query: PromptQuery, vocabulary: LibraryVocabulary): PromptQuery {
  const within = (names: string[], library: string[]) => names.flatMap((name) => library.filter((known) => known.toLowerCase() === name.toLowerCase()));
  const genres = (names: string[]) =>
    names.map((name) => name.toLowerCase()).filter((name) => vocabulary.genres.some((genre) => genre.toLowerCase().includes(name)));
  return {
    ...query,
    artists: within(query.artists, vocabulary.artists),
    excludeArtists: within(query.excludeArtists, vocabulary.artists),
    albums: within(query.albums, vocabulary.albums),
    genres: genres(query.genres),
    excludeGenres: query.excludeGenres.map((name) => name.toLowerCase()),
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

function joinNotes(a: string | null, b: string): string {
  return a ? `${a}; ${b}` : b;
}
