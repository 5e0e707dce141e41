import { PLAYLIST_DESCRIPTION_MAX, PLAYLIST_NAME_MAX } from '@encore/common/playlists.contract';
import type { PromptQuery } from './prompt/prompt-query.js';

const NAME_WORDS = 8;

/** The playlist's name: the prompt's first words in title case ("Chill Coding Beats"). */
export function namePlaylist(prompt: string): string {
  const words = prompt.replace(/\s+/gu, ' ').trim().split(' ');
  const head = words.slice(0, NAME_WORDS).join(' ');
  const titled = head.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
  const name = words.length > NAME_WORDS ? `${titled}…` : titled;
  return name.length > PLAYLIST_NAME_MAX ? `${name.slice(0, PLAYLIST_NAME_MAX - 1)}…` : name;
}

/** The description: the prompt, what Encore understood of it, and the size. */
export function describePlaylist(prompt: string, query: PromptQuery, songCount: number): string {
  const understood = query.terms.length > 0 ? ` Matched on: ${[...new Set(query.terms)].slice(0, 12).join(', ')}.` : '';
  const text = `${songCount} ${songCount === 1 ? 'song' : 'songs'} from your library for “${prompt.replace(/\s+/gu, ' ').trim()}”.${understood}`;
  return text.length > PLAYLIST_DESCRIPTION_MAX ? `${text.slice(0, PLAYLIST_DESCRIPTION_MAX - 1)}…` : text;
}
