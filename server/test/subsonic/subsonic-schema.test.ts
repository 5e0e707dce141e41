import { readdir, readFile } from 'node:fs/promises';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { putLyrics } from '../lyrics/lyrics-test-kit.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/** The OpenSubsonic OpenAPI files (see the README in that folder: origin and licence). */
const SPEC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'opensubsonic-openapi');
const BASE = 'https://opensubsonic.spec/openapi/';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

type Json = Record<string, unknown>;
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Json;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The validator of an endpoint's JSON answer: its path item's `get` 200 response, whose schema
 * is given in place or through a response file of `responses/` (the empty answers).
 */
async function answerSchemas(): Promise<{ validatorOf(endpoint: string): Promise<ValidateFunction>; endpoints: string[] }> {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('float', true);
  // Every schema file under its URL, so that relative $refs resolve as in the specification.
  for (const file of [...(await filesUnder(path.join(SPEC, 'schemas'))), ...(await filesUnder(path.join(SPEC, 'endpoints')))]) {
    const relative = path.relative(SPEC, file).split(path.sep).join('/');
    if (/^endpoints\/[^/]+\.json$/.test(relative)) continue; // path items, not schemas
    ajv.addSchema({ ...(await readJson(file)), $id: `${BASE}${relative}` });
  }
  const endpoints = (await readdir(path.join(SPEC, 'endpoints'))).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  return {
    endpoints,
    async validatorOf(endpoint) {
      const item = await readJson(path.join(SPEC, 'endpoints', `${endpoint}.json`));
      const ok = ((item['get'] as Json)['responses'] as Json)['200'] as Json;
      let where = `endpoints/${endpoint}.json`;
      let response = ok;
      if (typeof ok['$ref'] === 'string') {
        where = new URL(ok['$ref'], `${BASE}${where}`).href.slice(BASE.length);
        response = await readJson(path.join(SPEC, where));
      }
      const schema = ((response['content'] as Json)['application/json'] as Json)['schema'] as Json;
      const ref = new URL(String(schema['$ref']), `${BASE}${where}`).href;
      return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    },
  };
}

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(engines)('Subsonic answers against the OpenSubsonic OpenAPI schema (%s)', (engine) => {
  let t: TestApp;
  let musicDir: string;
  let key: string;
  let tagged: Song;
  let flac: Song;
  let plain: Song;
  let schemas: Awaited<ReturnType<typeof answerSchemas>>;

  beforeAll(async () => {
    schemas = await answerSchemas();
    musicDir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-schema-'));
    await copyFile(fixtures.opus, path.join(musicDir, 'Folder Song.ogg'));
    t = await startTestApp(engine, { MUSIC_FOLDERS: musicDir, MUSIC_WATCH: 'off' });
    const token = await account(t, 'ada');
    key = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    tagged = (await upload(t, token, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song;
    flac = (await upload(t, token, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song;
    plain = (await upload(t, token, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
    const words = [
      { text: 'First', start: 0.2, end: 0.5 },
      { text: 'line', start: 0.5, end: 0.9 },
    ];
    expect((await putLyrics(t, token, tagged.id, { words })).statusCode).toBeLessThan(300);
    await vi.waitFor(
      async () => {
        const songs = (await t.app.inject({ url: '/api/files', headers: bearer(token) })).json<Song[]>();
        if (!songs.some((song) => song.uploadedBy === '')) throw new Error('the music folder is not scanned yet');
      },
      { timeout: 15_000, interval: 50 },
    );
  });
  afterAll(async () => {
    await t?.close();
    if (musicDir) await rm(musicDir, { recursive: true, force: true });
  });

  const call = async (method: string, query = '') => {
    const response = await t.app.inject({ url: `/rest/${method}?${query}&apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json` });
    expect(response.statusCode).toBe(200);
    return response.json<Json>();
  };
  const inner = (answer: Json) => answer['subsonic-response'] as Json;

  it('answers every endpoint it serves as the schema describes (filled lists, listening, lyrics cues, errors)', async () => {
    // Listening, favourites, a playlist, a queue and a song playing now, so that the lists are not empty.
    await call('scrobble', `id=${tagged.id}`);
    await call('scrobble', `id=${flac.id}&submission=false`);
    await call('setRating', `id=${tagged.id}&rating=4`);
    await call('star', `id=${flac.id}`);
    await call('savePlayQueue', `id=${tagged.id}&id=${plain.id}&current=${plain.id}&position=1000`);
    const song = inner(await call('getSong', `id=${tagged.id}`))['song'] as Json;
    const albumId = String(song['albumId']);
    const artistId = String(song['artistId']);
    const playlistId = String((inner(await call('createPlaylist', `name=Trip&songId=${tagged.id}&songId=${flac.id}`))['playlist'] as Json)['id']);
    const spare = String((inner(await call('createPlaylist', 'name=Spare'))['playlist'] as Json)['id']);
    const shares = inner(await call('createShare', `id=${tagged.id}`))['shares'] as Json;
    const shareId = String(((shares['share'] as Json[])[0] as Json)['id']);
    await call('createInternetRadioStation', 'name=Loop&streamUrl=http%3A%2F%2F127.0.0.1%3A9%2Fstream');
    const stations = (inner(await call('getInternetRadioStations'))['internetRadioStations'] as Json)['internetRadioStation'] as Json[];
    const stationId = String((stations[0] as Json)['id']);

    const calls: [endpoint: string, query: string][] = [
      ['ping', ''],
      ['getLicense', ''],
      ['getOpenSubsonicExtensions', ''],
      ['getMusicFolders', ''],
      ['getScanStatus', ''],
      ['startScan', ''],
      ['getUser', 'username=ada'],
      ['getArtists', ''],
      ['getArtist', `id=${artistId}`],
      ['getAlbum', `id=${albumId}`],
      ['getSong', `id=${tagged.id}`],
      ['getIndexes', ''],
      ['getMusicDirectory', `id=${albumId}`],
      ['getGenres', ''],
      ['getAlbumList', 'type=newest'],
      ['getAlbumList2', 'type=frequent'],
      ['getRandomSongs', 'size=10'],
      ['getSongsByGenre', `genre=${TAGGED.genre}`],
      ['search2', 'query='],
      ['search3', 'query='],
      ['getTopSongs', `artist=${encodeURIComponent(TAGGED.albumArtist)}`],
      ['getSimilarSongs', `id=${tagged.id}`],
      ['getSimilarSongs2', `id=${tagged.id}`],
      ['getArtistInfo', `id=${artistId}`],
      ['getArtistInfo2', `id=${artistId}`],
      ['getStarred', ''],
      ['getStarred2', ''],
      ['getNowPlaying', ''],
      ['getLyrics', `title=${encodeURIComponent(TAGGED.title)}`],
      ['getLyricsBySongId', `id=${tagged.id}&enhanced=true`],
      ['star', `id=${plain.id}`],
      ['unstar', `id=${plain.id}`],
      ['setRating', `id=${plain.id}&rating=2`],
      ['scrobble', `id=${plain.id}`],
      ['getPlaylists', ''],
      ['getPlaylist', `id=${playlistId}`],
      ['createPlaylist', `playlistId=${playlistId}&songId=${plain.id}`],
      ['updatePlaylist', `playlistId=${playlistId}&comment=ok`],
      ['deletePlaylist', `id=${spare}`],
      ['getPlayQueue', ''],
      ['savePlayQueue', `id=${tagged.id}`],
      ['createBookmark', `id=${tagged.id}&position=5000&comment=here`],
      ['getBookmarks', ''],
      ['deleteBookmark', `id=${tagged.id}`],
      ['savePlayQueueByIndex', `id=${tagged.id}&id=${plain.id}&id=${tagged.id}&currentIndex=2&position=10`],
      ['getPlayQueueByIndex', ''],
      ['createShare', `id=${plain.id}&description=Listen&expires=${Date.now() + 3600_000}`],
      ['getShares', ''],
      ['updateShare', `id=${shareId}&description=Again`],
      ['deleteShare', `id=${shareId}`],
      ['getAlbumInfo', `id=${albumId}`],
      ['getAlbumInfo2', `id=${tagged.id}`],
      ['tokenInfo', ''],
      ['createUser', `username=carol&password=${encodeURIComponent('carol password 1')}&email=carol%40example.com`],
      ['getUsers', ''],
      ['updateUser', 'username=carol&adminRole=true'],
      ['changePassword', `username=carol&password=${encodeURIComponent('carol password 2')}`],
      ['deleteUser', 'username=carol'],
      ['createInternetRadioStation', 'name=Second&streamUrl=https%3A%2F%2Fradio.example%2Flive'],
      ['getInternetRadioStations', ''],
      ['updateInternetRadioStation', `id=${stationId}&name=Loop%202&streamUrl=http%3A%2F%2F127.0.0.1%3A9%2Fother`],
      ['deleteInternetRadioStation', `id=${stationId}`],
    ];
    const failures: { endpoint: string; errors: unknown }[] = [];
    for (const [endpoint, query] of calls) {
      const answer = await call(endpoint, query);
      expect(inner(answer)['status'], `${endpoint}: ${JSON.stringify(inner(answer)['error'])}`).toBe('ok');
      const validate = await schemas.validatorOf(endpoint);
      // The failure branch of each answer's oneOf says only that this is no failure: left out.
      const errors = (validate(answer) ? [] : (validate.errors ?? [])).filter(
        (error) =>
          error.keyword !== 'oneOf' &&
          !(error.instancePath === '/subsonic-response' && error.params['missingProperty'] === 'error') &&
          error.instancePath !== '/subsonic-response/status',
      );
      if (!validate(answer))
        failures.push({ endpoint, errors: errors.slice(0, 6).map((error) => `${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`) });
    }
    expect(failures).toEqual([]);
    // Every endpoint of the specification's files here is exercised.
    expect(schemas.endpoints.filter((endpoint) => !calls.some(([name]) => name === endpoint))).toEqual([]);
    // The lists checked are not empty (an empty list validates against anything).
    const search = inner(await call('search3', 'query='))['searchResult3'] as Json;
    expect((search['song'] as unknown[]).length).toBe(4);
    expect((inner(await call('getAlbumList2', 'type=frequent'))['albumList2'] as Json)['album']).toHaveLength(2);
  });

  it("answers errors as the schema's failure response", async () => {
    for (const [endpoint, query] of [
      ['getSong', 'id=999999'],
      ['getAlbum', ''],
      ['getAlbumList2', 'type=sideways'],
      ['getArtists', 'musicFolderId=9'],
      ['getPlaylist', 'id=abc'],
    ] as const) {
      const answer = await call(endpoint, query);
      expect(inner(answer)['status']).toBe('failed');
      const validate = await schemas.validatorOf(endpoint);
      expect(validate(answer), `${endpoint}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // And the schema does catch what is wrong: a song without its id fails it.
    const answer = await call('getSong', `id=${tagged.id}`);
    delete ((answer['subsonic-response'] as Json)['song'] as Json)['id'];
    expect((await schemas.validatorOf('getSong'))(answer)).toBe(false);
  });
});
