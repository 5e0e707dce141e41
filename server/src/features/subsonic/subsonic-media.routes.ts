import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentRange, parseRangeHeader } from '../../platform/storage/http-range.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { SENT } from './subsonic-endpoint.routes.js';
import { notFound } from './subsonic-errors.js';
import { lyricsList, plainLyrics } from './subsonic-lyrics.js';
import { parseId, type SubsonicParams } from './subsonic-params.js';

/** getCoverArt: sizes up to this come from the thumbnails, larger ones are the full cover. */
const THUMB_MAX_SIZE = 300;

export function mediaEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  return [
    { name: 'stream', handle: async ({ params, request, reply, user }) => sendSong(deps, params, request, reply, false, user.id) },
    { name: 'download', handle: async ({ params, request, reply, user }) => sendSong(deps, params, request, reply, true, user.id) },
    {
      name: 'getCoverArt',
      handle: async ({ params, request, reply }) => {
        const songId = await coverSongOf(deps, params.require('id'));
        const size = params.int('size');
        const cover =
          songId === undefined ? undefined : await deps.catalogue.coverOfSong(songId, size !== undefined && size <= THUMB_MAX_SIZE ? 'thumb' : 'full');
        if (!cover) throw notFound('Cover art');
        reply.header('etag', cover.etag).header('cache-control', 'private, max-age=86400');
        if (request.headers['if-none-match'] === cover.etag) {
          await reply.status(304).send();
          return SENT;
        }
        const object = await cover.open();
        reply
          .status(200)
          .header('content-type', object.contentType ?? cover.contentType)
          .header('content-length', object.size);
        await reply.send(object.stream);
        return SENT;
      },
    },
    {
      name: 'getLyricsBySongId',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        if (id.kind !== 'song') throw notFound('Song');
        const song = await deps.catalogue.get(id.id, user.id);
        const document = await deps.lyrics.lyricsFor(song.id);
        return { lyricsList: lyricsList(song, document, params.bool('enhanced')) };
      },
    },
    {
      name: 'getLyrics',
      handle: async ({ params, user }) => {
        const artist = params.get('artist')?.trim() ?? '';
        const title = params.get('title')?.trim() ?? '';
        if (title === '') return { lyrics: {} };
        const found = await deps.browse.search(
          `${artist} ${title}`.trim(),
          { artists: { count: 0, offset: 0 }, albums: { count: 0, offset: 0 }, songs: { count: 20, offset: 0 } },
          user.id,
        );
        const fold = (text: string | null) => (text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
        const song = found.songs.find((candidate) => fold(candidate.title ?? candidate.displayName) === fold(title)) ?? found.songs[0];
        const document = song ? await deps.lyrics.lyricsFor(song.id) : undefined;
        if (!song || !document) return { lyrics: {} };
        return { lyrics: { artist: song.artist ?? artist, title: song.title ?? song.displayName, value: plainLyrics(document) } };
      },
    },
  ];
}

/** The song whose cover an id names: a song's own, an album's or an artist's cover song. */
async function coverSongOf(deps: SubsonicDeps, raw: string): Promise<number | undefined> {
  const id = parseId(raw);
  if (id.kind === 'song') return id.id;
  if (id.kind === 'album') return (await deps.browse.album(id.key))?.coverSongId ?? undefined;
  if (id.kind === 'artist') return (await deps.browse.artist(id.key))?.coverSongId ?? undefined;
  return undefined;
}

/** The original file's bytes, with Range (seeking); a download is offered under the file's name. */
async function sendSong(
  deps: SubsonicDeps,
  params: SubsonicParams,
  request: FastifyRequest,
  reply: FastifyReply,
  attachment: boolean,
  userId: number,
): Promise<typeof SENT> {
  const id = parseId(params.require('id'));
  const file = id.kind === 'song' ? await deps.catalogue.audioFile(id.id) : undefined;
  const stat = file ? await deps.storage.stat(file.storageKey) : null;
  if (!file || !stat) throw notFound('Song');
  const range = parseRangeHeader(request.headers.range, stat.size);
  const object = await deps.storage.get(file.storageKey, range);
  reply.header('content-type', file.fileType).header('accept-ranges', 'bytes').header('cache-control', 'private, no-transform');
  if (attachment) {
    const song = id.kind === 'song' ? await deps.catalogue.get(id.id, userId).catch(() => undefined) : undefined;
    reply.header('content-disposition', contentDisposition(song?.fileName ?? 'song'));
  }
  if (range) reply.status(206).header('content-range', contentRange(range, stat.size));
  else reply.status(200);
  reply.header('content-length', range ? range.end - range.start + 1 : stat.size);
  await reply.send(object.stream);
  return SENT;
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
