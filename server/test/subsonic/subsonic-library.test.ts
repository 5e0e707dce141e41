import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { songBrowsePort } from '../../src/features/library/library.port.js';
import { listeningPort, type Listening } from '../../src/features/listening/listening.port.js';
import { SubsonicEntries } from '../../src/features/subsonic/subsonic-entries.js';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);

interface Envelope {
  status: 'ok' | 'failed';
  error?: { code: number; message: string };
  [key: string]: unknown;
}
interface Child {
  id: string;
  title: string;
  albumId: string;
  artistId: string;
  userRating?: number;
  playCount?: number;
  played?: string;
  starred?: string;
  musicBrainzId?: string;
}
interface Album {
  id: string;
  name: string;
  artistId: string;
  playCount?: number;
  played?: string;
  userRating?: number;
  musicBrainzId?: string;
}

/** MusicBrainz ids as Picard writes them (Vorbis comments of a FLAC). */
const MB = {
  recording: '8f3471b5-7e6a-48da-86a9-c1c07a0f47ae',
  album: '1dc4c347-a1db-32aa-b14f-bc9cc507b843',
  albumArtist: '89ad4ac3-39f7-470e-963a-56509c546377',
  artist: 'b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d',
};

let fixtures: AudioFixtures;
let dir: string;
/** A FLAC tagged with MusicBrainz ids, one with a broken id, and one for the music folder. */
let tagged: { mb: string; badMb: string; folder: string };

async function flac(file: string, tags: Record<string, string>, frequency: number): Promise<string> {
  const metadata = Object.entries(tags).flatMap(([name, value]) => ['-metadata', `${name}=${value}`]);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=2`,
    ...metadata,
    '-c:a',
    'flac',
    file,
  ]);
  return file;
}

beforeAll(async () => {
  fixtures = await buildAudioFixtures();
  dir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-library-'));
  tagged = {
    mb: await flac(
      path.join(dir, 'mb.flac'),
      {
        title: 'Picard Song',
        artist: 'Picard Artist',
        album: 'Picard Album',
        album_artist: 'Picard Band',
        genre: 'Ambient',
        MUSICBRAINZ_TRACKID: MB.recording,
        MUSICBRAINZ_ALBUMID: MB.album.toUpperCase(),
        MUSICBRAINZ_ALBUMARTISTID: MB.albumArtist,
        MUSICBRAINZ_ARTISTID: MB.artist,
      },
      330,
    ),
    badMb: await flac(path.join(dir, 'bad-mb.flac'), { title: 'Bad Id Song', artist: 'Picard Artist', MUSICBRAINZ_TRACKID: 'not-a-uuid' }, 350),
    folder: await flac(path.join(dir, 'folder.flac'), { title: 'Shelf Song', artist: 'Shelf Artist', album: 'Shelf Album', genre: 'Ambient' }, 370),
  };
});
afterAll(async () => {
  await fixtures?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('Subsonic listening on every element, album lists by plays, MusicBrainz ids and music folders (%s)', (engine) => {
  let t: TestApp;
  let musicDir: string;
  let adaToken: string;
  let adaKey: string;
  let bobKey: string;
  let taggedSong: Song;
  let flacSong: Song;
  let plainSong: Song;
  let mbSong: Song;
  let badMbSong: Song;
  let shelfSongId: string;

  beforeAll(async () => {
    musicDir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-shelf-'));
    await copyFile(tagged.folder, path.join(musicDir, 'Shelf Song.flac'));
    t = await startTestApp(engine, { MUSIC_FOLDERS: musicDir });
    adaToken = await account(t, 'ada');
    const bobToken = await account(t, 'bob');
    const keyOf = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    adaKey = await keyOf(adaToken);
    bobKey = await keyOf(bobToken);
    taggedSong = (await upload(t, adaToken, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song;
    flacSong = (await upload(t, adaToken, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song;
    plainSong = (await upload(t, bobToken, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
    mbSong = (await upload(t, adaToken, tagged.mb, { fileName: 'mb.flac', contentType: 'audio/flac' })).song;
    badMbSong = (await upload(t, adaToken, tagged.badMb, { fileName: 'bad-mb.flac', contentType: 'audio/flac' })).song;
    // The folder's scan runs in the background from the start.
    shelfSongId = await vi.waitFor(
      async () => {
        const found = (await t.app.inject({ url: '/api/files', headers: bearer(adaToken) })).json<Song[]>().find((song) => song.uploadedBy === '');
        if (!found) throw new Error('the music folder is not scanned yet');
        return String(found.id);
      },
      { timeout: 15_000, interval: 50 },
    );
  });
  afterAll(async () => {
    await t?.close();
    if (musicDir) await rm(musicDir, { recursive: true, force: true });
  });

  const call = async (query: string, key = adaKey): Promise<Envelope> => {
    const response = await t.app.inject({ url: `/rest/${query}${query.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json` });
    expect(response.statusCode).toBe(200);
    return response.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  };
  const ok = async (query: string, key = adaKey): Promise<Envelope> => {
    const answer = await call(query, key);
    expect(answer.status, `${query}: ${JSON.stringify(answer.error)}`).toBe('ok');
    return answer;
  };
  const songsOf = (answer: Envelope, name: string, list = 'song'): Child[] => ((answer[name] as Record<string, Child[] | undefined>)[list] ?? []) as Child[];
  const albumsOf = (answer: Envelope, name: string): Album[] => ((answer[name] as { album?: Album[] }).album ?? []) as Album[];

  it('shows the viewer’s rating, play count and last play on the song elements of every endpoint, each user their own', async () => {
    const earlier = Date.now() - 3_600_000;
    await ok(`scrobble?id=${taggedSong.id}&time=${earlier}`);
    await ok(`scrobble?id=${taggedSong.id}&time=${earlier + 60_000}`);
    await ok(`setRating?id=${taggedSong.id}&rating=4`);
    await ok(`star?id=${taggedSong.id}`);
    const albumId = (await ok(`getSong?id=${taggedSong.id}`))['song'] as Child;
    const playlist = (await ok(`createPlaylist?name=Mix&songId=${taggedSong.id}&songId=${flacSong.id}`))['playlist'] as { id: string };
    await ok(`savePlayQueue?id=${taggedSong.id}&id=${plainSong.id}`);
    await ok(`scrobble?id=${taggedSong.id}&submission=false`);

    const views: [string, (answer: Envelope) => Child[]][] = [
      ['search3?query=', (answer) => songsOf(answer, 'searchResult3')],
      ['search2?query=', (answer) => songsOf(answer, 'searchResult2')],
      [`search3?query=${encodeURIComponent(TAGGED.title)}`, (answer) => songsOf(answer, 'searchResult3')],
      [`getAlbum?id=${albumId.albumId}`, (answer) => songsOf(answer, 'album')],
      [`getMusicDirectory?id=${albumId.albumId}`, (answer) => songsOf(answer, 'directory', 'child')],
      [`getSong?id=${taggedSong.id}`, (answer) => [answer['song'] as Child]],
      ['getRandomSongs?size=50', (answer) => songsOf(answer, 'randomSongs')],
      [`getSongsByGenre?genre=${TAGGED.genre}`, (answer) => songsOf(answer, 'songsByGenre')],
      [`getPlaylist?id=${playlist.id}`, (answer) => songsOf(answer, 'playlist', 'entry')],
      ['getStarred2', (answer) => songsOf(answer, 'starred2')],
      ['getStarred', (answer) => songsOf(answer, 'starred')],
      [`getTopSongs?artist=${encodeURIComponent(TAGGED.albumArtist)}`, (answer) => songsOf(answer, 'topSongs')],
      ['getPlayQueue', (answer) => songsOf(answer, 'playQueue', 'entry')],
      ['getNowPlaying', (answer) => songsOf(answer, 'nowPlaying', 'entry')],
    ];
    for (const [query, songs] of views) {
      const answer = await ok(query);
      const mine = songs(answer).find((song) => song.id === String(taggedSong.id));
      expect(mine, query).toMatchObject({ userRating: 4, playCount: 2 });
      expect(new Date(mine?.played ?? 0).getTime(), query).toBe(earlier + 60_000);
      expect(mine?.starred, query).toBeDefined();
      for (const other of songs(answer).filter((song) => song.id !== String(taggedSong.id))) {
        expect(other, query).toMatchObject({ playCount: 0 });
        expect(other.userRating, query).toBeUndefined();
        expect(other.played, query).toBeUndefined();
      }
    }
    // Bob's view of the same song: his own (none).
    const bobs = songsOf(await ok('search3?query=', bobKey), 'searchResult3').find((song) => song.id === String(taggedSong.id));
    expect(bobs).toMatchObject({ playCount: 0 });
    expect(bobs?.userRating).toBeUndefined();
    expect(bobs?.starred).toBeUndefined();
    await ok(`unstar?id=${taggedSong.id}`);
    await ok(`deletePlaylist?id=${playlist.id}`);
  });

  it('reads the listening of a whole answer in one query, not one per song', async () => {
    const browse = t.app.encore.modules.port(songBrowsePort);
    const listening = t.app.encore.modules.port(listeningPort);
    let reads = 0;
    const counted: Pick<Listening, 'listeningOf'> = {
      listeningOf: (userId, ids) => {
        reads += 1;
        return listening.listeningOf(userId, ids);
      },
    };
    const entries = new SubsonicEntries(browse, counted);
    const found = await browse.search('', { artists: { count: 0, offset: 0 }, albums: { count: 50, offset: 0 }, songs: { count: 50, offset: 0 } }, 1);
    expect(found.songs.length).toBeGreaterThanOrEqual(5);
    const { songs, albums } = await entries.elements(1, { songs: found.songs, albums: found.albums });
    expect(reads).toBe(1);
    expect(songs).toHaveLength(found.songs.length);
    expect(albums).toHaveLength(found.albums.length);
    expect(songs.every((song) => typeof song['playCount'] === 'number')).toBe(true);
    await entries.elements(1, {});
    expect(reads).toBe(1);
  });

  it('lists albums by plays (frequent), last plays (recent) and ratings then likes (highest), with their plays and ratings', async () => {
    const now = Date.now();
    // The FLAC's album played most (4; the tagged song has 2 + 1), the tagged one's last, the plain song's not at all but liked.
    for (const minutes of [300, 290, 280, 270]) await ok(`scrobble?id=${flacSong.id}&time=${now - minutes * 60_000}`);
    await ok(`scrobble?id=${taggedSong.id}&time=${now - 60_000}`);
    await ok(`setRating?id=${flacSong.id}&rating=2`);
    await ok(`setRating?id=${taggedSong.id}&rating=5`);
    await ok(`star?id=${plainSong.id}`);
    const albumOf = async (songId: number) => ((await ok(`getSong?id=${songId}`))['song'] as Child).albumId;
    const [taggedAlbum, flacAlbum, plainAlbum] = await Promise.all([albumOf(taggedSong.id), albumOf(flacSong.id), albumOf(plainSong.id)]);
    const list = async (query: string, key = adaKey) => albumsOf(await ok(`getAlbumList2?${query}`, key), 'albumList2');

    const frequent = await list('type=frequent');
    expect(frequent.map((album) => album.id)).toEqual([flacAlbum, taggedAlbum]);
    expect(frequent[0]).toMatchObject({ playCount: 4, userRating: 2 });
    expect(frequent[1]).toMatchObject({ playCount: 3, userRating: 5 });
    expect((await list('type=recent')).map((album) => album.id)).toEqual([taggedAlbum, flacAlbum]);
    expect(new Date((await list('type=recent'))[0]?.played ?? 0).getTime()).toBe(now - 60_000);
    expect((await list('type=highest')).map((album) => album.id)).toEqual([taggedAlbum, flacAlbum, plainAlbum]);
    // Pages, and the old getAlbumList with the same lists.
    expect((await list('type=highest&size=1&offset=1')).map((album) => album.id)).toEqual([flacAlbum]);
    expect(albumsOf(await ok('getAlbumList?type=frequent&size=1'), 'albumList').map((album) => album.id)).toEqual([flacAlbum]);
    // Another user's lists are their own; a music folder narrows them.
    expect(await list('type=frequent', bobKey)).toEqual([]);
    expect(await list('type=highest', bobKey)).toEqual([]);
    expect(await list('type=frequent&musicFolderId=1')).toEqual([]);
    // Album elements elsewhere carry the same figures; an album never played has a count of 0.
    const album = (await ok(`getAlbum?id=${taggedAlbum}`))['album'] as Album;
    expect(album).toMatchObject({ playCount: 3, userRating: 5 });
    const newest = await list('type=newest&size=50');
    expect(newest.find((one) => one.id === plainAlbum)).toMatchObject({ playCount: 0 });
    expect(newest.find((one) => one.id === plainAlbum)?.userRating).toBeUndefined();
    await ok(`unstar?id=${plainSong.id}`);
  });

  it('gives the MusicBrainz ids the tags carry, on songs, albums and artists, and none for a broken one', async () => {
    const song = (await ok(`getSong?id=${mbSong.id}`))['song'] as Child;
    expect(song.musicBrainzId).toBe(MB.recording);
    const album = (await ok(`getAlbum?id=${song.albumId}`))['album'] as Album;
    // Lower case, as MusicBrainz writes them.
    expect(album.musicBrainzId).toBe(MB.album);
    const artist = (await ok(`getArtist?id=${song.artistId}`))['artist'] as { name: string; musicBrainzId?: string };
    expect(artist).toMatchObject({ name: 'Picard Band', musicBrainzId: MB.albumArtist });
    expect(((await ok(`getSong?id=${badMbSong.id}`))['song'] as Child).musicBrainzId).toBeUndefined();
    expect(((await ok(`getSong?id=${taggedSong.id}`))['song'] as Child).musicBrainzId).toBeUndefined();
  });

  it('narrows artists, indexes, album lists, random songs, genres, searches and starred to the uploads or a music folder', async () => {
    const artistNames = (answer: Envelope, name: string) =>
      ((answer[name] as { index?: { artist?: { name: string }[] }[] }).index ?? []).flatMap((index) => (index.artist ?? []).map((artist) => artist.name));
    expect(artistNames(await ok('getArtists?musicFolderId=1'), 'artists')).toEqual(['Shelf Artist']);
    expect(artistNames(await ok('getIndexes?musicFolderId=1'), 'indexes')).toEqual(['Shelf Artist']);
    expect(artistNames(await ok('getArtists?musicFolderId=0'), 'artists')).not.toContain('Shelf Artist');
    expect(artistNames(await ok('getArtists'), 'artists')).toContain('Shelf Artist');
    expect(albumsOf(await ok('getAlbumList2?type=newest&musicFolderId=1'), 'albumList2').map((album) => album.name)).toEqual(['Shelf Album']);
    expect(albumsOf(await ok('getAlbumList2?type=alphabeticalByName&musicFolderId=0&size=50'), 'albumList2').map((album) => album.name)).not.toContain(
      'Shelf Album',
    );
    expect(songsOf(await ok('getRandomSongs?size=50&musicFolderId=1'), 'randomSongs').map((song) => song.id)).toEqual([shelfSongId]);
    expect(songsOf(await ok('getSongsByGenre?genre=ambient&musicFolderId=1'), 'songsByGenre').map((song) => song.id)).toEqual([shelfSongId]);
    expect(songsOf(await ok('getSongsByGenre?genre=ambient&musicFolderId=0'), 'songsByGenre').map((song) => song.id)).toEqual([String(mbSong.id)]);
    const everything = (await ok('search3?query=&musicFolderId=1'))['searchResult3'] as { song: Child[]; album: Album[]; artist: { name: string }[] };
    expect(everything.song.map((song) => song.id)).toEqual([shelfSongId]);
    expect(everything.album.map((album) => album.name)).toEqual(['Shelf Album']);
    expect(everything.artist.map((artist) => artist.name)).toEqual(['Shelf Artist']);
    expect(songsOf(await ok('search2?query=song&musicFolderId=1'), 'searchResult2').map((song) => song.id)).toEqual([shelfSongId]);
    expect(songsOf(await ok('search3?query=shelf&musicFolderId=0'), 'searchResult3')).toEqual([]);
    await ok(`star?id=${shelfSongId}&id=${flacSong.id}`);
    expect(songsOf(await ok('getStarred2?musicFolderId=1'), 'starred2').map((song) => song.id)).toEqual([shelfSongId]);
    expect(songsOf(await ok('getStarred2?musicFolderId=0'), 'starred2').map((song) => song.id)).toEqual([String(flacSong.id)]);
    await ok(`unstar?id=${shelfSongId}&id=${flacSong.id}`);
    // Bad folder ids: not a number is error 0, a folder that does not exist 70.
    for (const [query, code] of [
      ['getArtists?musicFolderId=abc', 0],
      ['getArtists?musicFolderId=2', 70],
      ['getIndexes?musicFolderId=-1', 70],
      ['getAlbumList2?type=newest&musicFolderId=99', 70],
      ['getRandomSongs?musicFolderId=1.5', 0],
      ['getSongsByGenre?genre=x&musicFolderId=7', 70],
      ['search3?query=&musicFolderId=99999999999', 70],
      ['getStarred2?musicFolderId=9', 70],
    ] as const) {
      expect((await call(query)).error?.code, query).toBe(code);
    }
  });
});
