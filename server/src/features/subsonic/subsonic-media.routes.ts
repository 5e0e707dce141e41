import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AudioFile } from '../library/library.port.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { contentRange, parseRangeHeader } from '../../platform/storage/http-range.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { SENT } from './subsonic-endpoint.routes.js';
import { notFound } from './subsonic-errors.js';
import { SubsonicCovers } from './subsonic-covers.js';
import { lyricsList, plainLyrics } from './subsonic-lyrics.js';
import { parseId } from './subsonic-params.js';
import { MAX_TRANSCODES, StreamTranscoder, streamPlan, TRANSCODE_TYPES, type StreamPlan, type TranscodeSlots } from './subsonic-transcode.js';

export function mediaEndpoints(deps: SubsonicDeps, ffmpeg: Ffmpeg, slots: Omit<TranscodeSlots, 'perProcess'>): SubsonicEndpoint[] {
  const transcoder = new StreamTranscoder(ffmpeg, { perProcess: MAX_TRANSCODES, ...slots });
  const covers = new SubsonicCovers(deps.catalogue, deps.storage, deps.logger);
  return [
    {
      name: 'stream',
      handle: async ({ params, request, reply, user }) => {
        const id = parseId(params.require('id'));
        // One lean read: what the file is and where (not the song's whole record).
        const song = id.kind === 'song' ? await deps.catalogue.audioFile(id.id) : undefined;
        if (!song) throw notFound('Song');
        const plan = streamPlan(song, params);
        if (plan.kind === 'original') return sendFile(deps, song, request, reply, undefined);
        return sendTranscode(deps, transcoder, user.id, song, plan, reply);
      },
    },
    {
      name: 'download',
      handle: async ({ params, request, reply }) => {
        const id = parseId(params.require('id'));
        const song = id.kind === 'song' ? await deps.catalogue.audioFile(id.id) : undefined;
        if (!song) throw notFound('Song');
        return sendFile(deps, song, request, reply, song.fileName);
      },
    },
    {
      name: 'getCoverArt',
      handle: async ({ params, request, reply }) => {
        const songId = await coverSongOf(deps, params.require('id'));
        const cover = songId === undefined ? undefined : await covers.cover(songId, params.int('size'));
        if (!cover) throw notFound('Cover art');
        reply.header('etag', cover.etag).header('cache-control', 'private, max-age=86400');
        if (request.headers['if-none-match'] === cover.etag) {
          await reply.status(304).send();
          return SENT;
        }
        const object = await cover.open();
        reply
          .status(200)
          .header('content-type', object.contentType ?? 'image/jpeg')
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

/** The original file's bytes, with Range (seeking); a download is offered under `attachmentName`. */
async function sendFile(
  deps: SubsonicDeps,
  file: AudioFile,
  request: FastifyRequest,
  reply: FastifyReply,
  attachmentName: string | undefined,
): Promise<typeof SENT> {
  const stat = await deps.storage.stat(file.storageKey);
  if (!stat) throw notFound('Song');
  const range = parseRangeHeader(request.headers.range, stat.size);
  const object = await deps.storage.get(file.storageKey, range);
  reply.header('content-type', file.fileType).header('accept-ranges', 'bytes').header('cache-control', 'private, no-transform');
  if (attachmentName !== undefined) reply.header('content-disposition', contentDisposition(attachmentName));
  if (range) reply.status(206).header('content-range', contentRange(range, stat.size));
  else reply.status(200);
  reply.header('content-length', range ? range.end - range.start + 1 : stat.size);
  await reply.send(object.stream);
  return SENT;
}

/**
 * ffmpeg's output as it comes (no Range: `Accept-Ranges: none`, chunked), its duration in
 * `X-Content-Duration`; ffmpeg is stopped when the client goes away, or reads nothing for a while.
 */
async function sendTranscode(
  deps: SubsonicDeps,
  transcoder: StreamTranscoder,
  userId: number,
  song: { storageKey: string; durationSeconds: number | null },
  plan: Extract<StreamPlan, { kind: 'transcode' }>,
  reply: FastifyReply,
): Promise<typeof SENT> {
  const gone = new AbortController();
  const socket = reply.request.raw.socket;
  // The response closes when it is finished or when the connection drops; either way ffmpeg is done
  // with. A half-closed connection would otherwise wait, unfinished, for the server's timeouts.
  let complete = false;
  reply.raw.once('close', () => {
    gone.abort(new Error('the client went away'));
    if (!complete) socket.destroy();
  });
  await deps.storage.withLocalFile(song.storageKey, (file) =>
    transcoder.run(userId, file, plan, gone.signal, (output) => {
      reply.status(200).header('content-type', TRANSCODE_TYPES[plan.codec]).header('accept-ranges', 'none').header('cache-control', 'private, no-transform');
      if (song.durationSeconds !== null) reply.header('x-content-duration', Math.max(song.durationSeconds - plan.offsetSeconds, 0).toFixed(2));
      output.once('end', () => (complete = true));
      void reply.send(output);
      return reply.raw;
    }),
  );
  return SENT;
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
