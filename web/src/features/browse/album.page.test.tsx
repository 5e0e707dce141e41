import type { AlbumDetail, AlbumPage, ArtistDetail, ArtistPage } from '@encore/common/browse.contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type RecordedRequest } from '../../test/fetch-stub';
import { filesRoute } from '../../test/files-route';
import { makePlaylist, toSummary } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

// Sonner captures the pointer when a toast is pressed; jsdom has no pointer capture.
const elementPrototype = Element.prototype as unknown as Record<string, unknown>;
elementPrototype.setPointerCapture ??= () => {};
elementPrototype.releasePointerCapture ??= () => {};

beforeEach(signInForTest);

const credits = { artist: 'Nina Vale', artistId: 'ar-nina', album: 'Night Drive', albumId: 'al-night' };
const songs = [
  makeSong(11, { displayName: 'Intro', trackNumber: 1, isLiked: true, ...credits }),
  makeSong(12, { displayName: 'Highway', trackNumber: 2, ...credits }),
  makeSong(13, { displayName: 'Outro', trackNumber: 3, ...credits }),
];
const album = (overrides: Partial<AlbumDetail> = {}): AlbumDetail => ({
  id: 'al-night',
  name: 'Night Drive',
  artist: { id: 'ar-nina', name: 'Nina Vale' },
  year: 2021,
  genres: ['Synthwave'],
  songCount: 3,
  durationSeconds: 540,
  coverUrl: null,
  coverKey: null,
  songs,
  ...overrides,
});
const artist: ArtistDetail = {
  id: 'ar-nina',
  name: 'Nina Vale',
  imageUrl: null,
  imageKey: null,
  albums: [album()],
  appearsOn: [],
  topSongs: [],
  similarArtists: [],
};
const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body]);

describe('the album page', () => {
  it('likes every song not yet liked, shows Like pressed, and unlikes them all on a second press', async () => {
    const liked = new Set([11]);
    const { requests } = stubFetch({
      'GET /api/albums/al-night': () => ({ body: album({ songs: songs.map((song) => ({ ...song, isLiked: liked.has(song.id) })) }) }),
      'POST /api/files/12/like': () => (liked.add(12), { body: { id: 12, isLiked: true } }),
      'POST /api/files/13/like': () => (liked.add(13), { body: { id: 13, isLiked: true } }),
      'POST /api/files/11/like': () => (liked.delete(11), { body: { id: 11, isLiked: false } }),
    });
    const user = userEvent.setup();
    renderApp('/albums/al-night');
    const like = await screen.findByRole('button', { name: 'Like' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await user.click(like);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true'));
    expect(posts(requests).map(([path]) => path)).toEqual(['/api/files/12/like', '/api/files/13/like']);

    requests.length = 0;
    stubFetch({
      'GET /api/albums/al-night': () => ({ body: album({ songs: songs.map((song) => ({ ...song, isLiked: false })) }) }),
      'POST /api/files/11/like': { body: { id: 11, isLiked: false } },
      'POST /api/files/12/like': { body: { id: 12, isLiked: false } },
      'POST /api/files/13/like': { body: { id: 13, isLiked: false } },
    });
    await user.click(screen.getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false'));
  });

  it("adds the album's songs to a playlist in order with one call, through the song page's dialog", async () => {
    const focus = makePlaylist(1, [songs[0]!], { name: 'Focus' });
    const { requests } = stubFetch({
      'GET /api/albums/al-night': { body: album() },
      'GET /api/playlists': { body: [toSummary(focus)] },
      'POST /api/playlists/1/songs': { body: makePlaylist(1, songs, { name: 'Focus' }) },
    });
    const user = userEvent.setup();
    renderApp('/albums/al-night');
    await user.click(await screen.findByRole('button', { name: 'Add to Playlist' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to Playlist' });
    expect(within(dialog).getByText('Choose a playlist for "Night Drive", or create a new one.')).toBeInTheDocument();
    // The playlist holds one of the songs, not all: it can still take the album.
    await user.click(await within(dialog).findByRole('button', { name: 'Add to Focus' }));
    expect(await screen.findByText('3 songs added to playlist')).toBeInTheDocument();
    expect(posts(requests)).toEqual([['/api/playlists/1/songs', { songIds: [11, 12, 13] }]]);
  });

  it('has one header for albums and artists: name, facts and buttons', async () => {
    stubFetch({ 'GET /api/albums/al-night': { body: album() }, 'GET /api/artists/ar-nina': { body: artist } });
    const user = userEvent.setup();
    const { router } = renderApp('/albums/al-night');
    expect(await screen.findByRole('heading', { level: 1, name: 'Night Drive' })).toBeInTheDocument();
    for (const name of ['Play', 'Shuffle', 'Play next', 'Add to queue', 'Add to Playlist', 'Like', 'Download']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('link', { name: 'Nina Vale' }));
    expect(currentPath(router)).toBe('/artists/ar-nina');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nina Vale' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play all' })).toBeInTheDocument();
  });
});

describe('song cards link their artist and album', () => {
  it('opens the artist or the album page from a card, the song page from the rest of it, by pointer or keyboard', async () => {
    stubFetch({
      'GET /api/files': filesRoute([songs[1]!, makeSong(20, { displayName: 'Loose', artist: 'Someone' })]),
      'GET /api/artists/ar-nina': { body: artist },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music');
    const card = (await screen.findByText('Highway')).closest('article') as HTMLElement;
    expect(within(card).getByRole('link', { name: 'Highway' })).toHaveAttribute('href', '/music/12');
    expect(within(card).getByRole('link', { name: 'Night Drive' })).toHaveAttribute('href', '/albums/al-night');
    // A song the browse model has not filed yet shows its artist as text.
    const loose = screen.getByText('Loose').closest('article') as HTMLElement;
    expect(within(loose).queryByRole('link', { name: 'Someone' })).not.toBeInTheDocument();
    expect(within(loose).getByText('Someone')).toBeInTheDocument();
    // Tab from the song's own link reaches the artist link next.
    within(card).getByRole('link', { name: 'Highway' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(within(card).getByRole('link', { name: 'Nina Vale' }));
    await user.keyboard('{Enter}');
    expect(currentPath(router)).toBe('/artists/ar-nina');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nina Vale' })).toBeInTheDocument();
  });
});

describe('a search of All Music', () => {
  it('shows the matching artists and albums as groups above the songs, each linking to its page', async () => {
    const artistPage: ArtistPage = {
      items: [{ id: 'ar-nina', name: 'Nina Vale', albumCount: 1, songCount: 3, imageUrl: null, imageKey: null, mosaicKeys: [] }],
      nextCursor: null,
    };
    const albumPage: AlbumPage = { items: [album()], nextCursor: null };
    const { requests } = stubFetch({
      'GET /api/files': filesRoute(songs),
      'GET /api/artists': { body: artistPage },
      'GET /api/albums': { body: albumPage },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music');
    await screen.findByText('Highway');
    expect(screen.queryByTestId('search-groups')).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), 'nina');
    const groups = await screen.findByRole('region', { name: 'Artists and albums matching "nina"' });
    expect(within(groups).getByRole('heading', { name: 'Artists' })).toBeInTheDocument();
    expect(within(groups).getByRole('heading', { name: 'Albums' })).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/artists?q=nina&limit=6', '/api/albums?q=nina&limit=6']));
    // The songs are still there below, as the search finds them.
    expect(screen.getByText('Intro')).toBeInTheDocument();
    await user.click(within(groups).getByRole('link', { name: /Night Drive/ }));
    expect(currentPath(router)).toBe('/albums/al-night');
  });
});
