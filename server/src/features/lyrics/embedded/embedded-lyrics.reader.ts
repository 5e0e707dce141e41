import type { ILyricsTag } from 'music-metadata';
import { importLyrics, normaliseLyricsText, type LyricsDocument } from '@encore/common/lyrics-document.rules';
import { looksLikeLrc } from '@encore/common/lyrics-lrc.format';
import { LYRICS_TEXT_MAX } from '@encore/common/lyrics.contract';
import { readLyricsTags } from '../../../platform/media/audio-tags.js';
import type { ClosableSource } from '../../../platform/media/byte-source.js';

/** ID3 SYLT's time stamp format 2: absolute milliseconds (1 is MPEG frames, not usable here). */
const MILLISECONDS = 2;

export interface EmbeddedLyrics {
  document: LyricsDocument;
  kind: 'plain' | 'synced';
  language: string | null;
  /** The file's tags, or the `.lrc` file beside it. */
  source: 'embedded' | 'sidecar';
}

/**
 * The lyrics a file carries: synced (ID3 SYLT in milliseconds, or LRC text in any lyrics tag)
 * preferred over unsynced (ID3 USLT, Vorbis LYRICS, MP4 ©lyr, APEv2 at the end of the file).
 * Undefined when it has none. The file is read where its tags are, not from its start only.
 */
export async function readEmbeddedLyrics(source: ClosableSource, mimeType: string, timeoutMs: number): Promise<EmbeddedLyrics | undefined> {
  return pickLyrics(await readLyricsTags(source, mimeType, timeoutMs));
}

/**
 * The lyrics to keep among the tags and the `.lrc` file beside the song (a music folder's):
 * synced tags first, then the file beside it, then plain tags.
 */
export function pickLyrics(tags: readonly ILyricsTag[], lyricsFile?: string): EmbeddedLyrics | undefined {
  const fromTags = pickFromTags(tags);
  if (fromTags?.kind === 'synced') return fromTags;
  const text = lyricsFile === undefined ? '' : clean(lyricsFile);
  if (!text.trim()) return fromTags;
  if (looksLikeLrc(text)) return { document: importLyrics(text).document, kind: 'synced', language: null, source: 'sidecar' };
  return fromTags ?? { document: { text: normaliseLyricsText(text), lineTimes: null, words: null }, kind: 'plain', language: null, source: 'sidecar' };
}

function pickFromTags(tags: readonly ILyricsTag[]): EmbeddedLyrics | undefined {
  let plain: EmbeddedLyrics | undefined;
  for (const tag of tags) {
    const language = languageOf(tag.language);
    // The type promises syncText, but music-metadata leaves it out of unsynced tags (ID3 USLT).
    const syncText = (tag.syncText as ILyricsTag['syncText'] | undefined) ?? [];
    const timed = syncText.filter((line) => line.timestamp !== undefined);
    if (timed.length > 0 && tag.timeStampFormat === MILLISECONDS) {
      const lines = syncText.map((line) => ({
        text: clean(line.text).replace(/\n/g, ' ').trim(),
        time: line.timestamp === undefined ? null : { start: line.timestamp / 1000, end: null },
      }));
      const ordered = [...lines].sort((a, b) => (a.time?.start ?? 0) - (b.time?.start ?? 0));
      return {
        document: { text: ordered.map((line) => line.text).join('\n'), lineTimes: ordered.map((line) => line.time), words: null },
        kind: 'synced',
        language,
        source: 'embedded',
      };
    }
    const text = clean(tag.text ?? syncText.map((line) => line.text).join('\n'));
    if (!text.trim()) continue;
    if (looksLikeLrc(text)) return { document: importLyrics(text).document, kind: 'synced', language, source: 'embedded' };
    plain ??= { document: { text: normaliseLyricsText(text), lineTimes: null, words: null }, kind: 'plain', language, source: 'embedded' };
  }
  return plain;
}

function clean(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- tags carry NUL padding and stray controls; lyrics keep only tab and line breaks
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .slice(0, LYRICS_TEXT_MAX)
  );
}

/** ID3 gives ISO 639-2 ("eng", "heb"); "XXX" and "und" mean unknown. */
function languageOf(language: string | undefined): string | null {
  const code = language?.trim().toLowerCase();
  if (!code || code === 'xxx' || code === 'und' || !/^[a-z]{2,3}$/.test(code)) return null;
  return (
    (
      {
        eng: 'en',
        heb: 'he',
        spa: 'es',
        fra: 'fr',
        fre: 'fr',
        deu: 'de',
        ger: 'de',
        ita: 'it',
        por: 'pt',
        rus: 'ru',
        ara: 'ar',
        jpn: 'ja',
        zho: 'zh',
        chi: 'zh',
      } as Record<string, string>
    )[code] ?? code
  );
}
