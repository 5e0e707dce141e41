import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { filesRoute } from '../../test/files-route';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSong, makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const cards = () => screen.getAllByRole('article');
const cardTitles = () => cards().map((card) => within(card).getAllByRole('link')[0]?.textContent);

describe('music collection', () => {
  it.each([
    ['/music', 'Music Collection', '/api/files?limit=8'],
    ['/music?owner=true', 'My Music', '/api/files?owner=true&limit=8'],
    ['/music?owner=true&favorites=true', 'My Favorites', '/api/files?owner=true&favorites=true&limit=8'],
    ['/music?favorites=true', 'My Favorites', '/api/files?favorites=true&limit=8'],
  ])('titles %s "%s" and asks the server for the first page of that list', async (path, title, request) => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)) });
    renderApp(path);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(await screen.findByText('Song 1')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain(request);
    expect(document.title).toBe(`${title} · Encore`);
  });

  it('switches title and list when a Library menu entry is chosen', async () => {
    const { requests } = stubFetch({
      'GET /api/files': (request) => ({
        body: request.path.includes('favorites') ? [makeSong(9, { displayName: 'Loved', isLiked: true })] : makeSongs(3),
      }),
    });
    const user = userEvent.setup();
    renderApp('/music');
    expect(await screen.findByText('Song 3')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Library' })[0]!);
    await user.click(await screen.findByRole('link', { name: /Favorites/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'My Favorites' })).toBeInTheDocument();
    expect(await screen.findByText('Loved')).toBeInTheDocument();
    expect(screen.queryByText('Song 3')).not.toBeInTheDocument();
    expect(requests.at(-1)?.path).toBe('/api/files?owner=true&favorites=true&limit=8');
  });

  it('shows 8 songs a page in the grid and 12 in the compact view, with Previous, numbers and Next', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(20)) });
    const user = userEvent.setup();
    renderApp('/music');
    await screen.findByText('Song 1');
    expect(cards()).toHaveLength(8);
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(within(pages).getByRole('button', { name: 'Page 3' })).toBeInTheDocument();

    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(cardTitles()[0]).toBe('Song 9'));
    // The new page is read from its top: the focus moves to the list, not left on a page button.
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Music Collection' }));
    expect(within(pages).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Compact view' }));
    expect(screen.getByRole('button', { name: 'Compact view' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(cards()).toHaveLength(12));
    expect(cardTitles()[0]).toBe('Song 1');
    expect(within(screen.getByRole('navigation', { name: 'Pages' })).queryByRole('button', { name: 'Page 3' })).not.toBeInTheDocument();
  });

  it('sorts on the server by the chosen order, from page 1, and keeps the order in the URL', async () => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(20)) });
    const user = userEvent.setup();
    const { router } = renderApp('/music?owner=true');
    await screen.findByText('Song 1');
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('recent');
    expect(
      within(sort)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Recently added', 'Title', 'Artist', 'Album']);
    await user.click(within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page'),
    );
    await user.selectOptions(sort, 'artist');
    await waitFor(() => expect(requests.map((r) => r.path)).toContain('/api/files?owner=true&sort=artist&limit=8'));
    expect(within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(currentPath(router)).toBe('/music?owner=true&sort=artist');
  });

  it('opens in the order the URL names', async () => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)) });
    renderApp('/music?sort=title');
    await screen.findByText('Song 1');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('title');
    expect(requests.map((r) => r.path)).toContain('/api/files?sort=title&limit=8');
  });

  it('shows each card with its cover placeholder, title, artist, duration, size and date, linking to the song', async () => {
    stubFetch({
      'GET /api/files': {
        // A tagged song is named "Artist - Title"; the card says the artist once, on its own line.
        body: [makeSong(7, { displayName: 'Nova - Blue Hour', artist: 'Nova', durationSeconds: 125, size: 3_670_016, uploadedAt: '2026-01-09T10:00:00Z' })],
      },
    });
    renderApp('/music');
    const card = (await screen.findByText('Blue Hour')).closest('article')!;
    expect(within(card).getByRole('link', { name: 'Blue Hour' })).toHaveAttribute('href', '/music/7');
    expect(within(card).getByText('Nova')).toBeInTheDocument();
    expect(within(card).getByText('2:05 · 3.5 MB')).toBeInTheDocument();
    expect(within(card).getByText('Jan 9')).toBeInTheDocument();
  });

  it('searches display name, artist and album on the server, and goes back to page 1', async () => {
    const { requests } = stubFetch({
      'GET /api/files': filesRoute(makeSongs(20, (id) => (id === 20 ? { artist: 'The Tide', album: 'Moonlit' } : {}))),
    });
    const user = userEvent.setup();
    renderApp('/music');
    await screen.findByText('Song 1');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(cardTitles()[0]).toBe('Song 9'));

    const search = screen.getByRole('searchbox', { name: 'Search songs' });
    await user.type(search, 'SONG 1');
    // Song 1 and Song 10-19: eleven matches, from the first page (the server searches).
    await waitFor(() => expect(cardTitles()).toEqual(['Song 1', 'Song 10', 'Song 11', 'Song 12', 'Song 13', 'Song 14', 'Song 15', 'Song 16']));
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(requests.map((r) => r.path)).toContain('/api/files?q=SONG+1&limit=8');

    await user.clear(search);
    await user.type(search, 'moonLIT');
    await waitFor(() => expect(cardTitles()).toEqual(['Song 20']));
    await user.clear(search);
    await user.type(search, 'tide');
    await waitFor(() => expect(cardTitles()).toEqual(['Song 20']));

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(search).toHaveValue('');
    await waitFor(() => expect(cards()).toHaveLength(8));
  });

  it('says when nothing matches, and Clear Search brings the list back', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(3)) });
    const user = userEvent.setup();
    renderApp('/music');
    await screen.findByText('Song 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), 'zzz');
    expect(await screen.findByRole('heading', { name: 'No Results Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear Search' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
  });

  it('shows the loading state while the list is on its way', async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    stubFetch({ 'GET /api/files': () => new Promise((resolve) => (answer = resolve)) });
    renderApp('/music');
    expect(await screen.findByText('Loading your music collection...')).toBeInTheDocument();
    answer({ body: makeSongs(1) });
    expect(await screen.findByText('Song 1')).toBeInTheDocument();
    expect(screen.queryByText('Loading your music collection...')).not.toBeInTheDocument();
  });

  it('shows the error state with Try Again, which fetches again', async () => {
    let fail = true;
    stubFetch({
      'GET /api/files': () => (fail ? { status: 500, body: { message: 'Database unavailable' } } : { body: makeSongs(2) }),
    });
    const user = userEvent.setup();
    renderApp('/music');
    expect(await screen.findByRole('heading', { name: 'Error Loading Music' })).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Song 2')).toBeInTheDocument();
  });

  it('shows the empty library with an Upload Music button', async () => {
    stubFetch({ 'GET /api/files': filesRoute([]) });
    renderApp('/music?owner=true');
    expect(await screen.findByRole('heading', { name: 'Your Music Collection is Empty' })).toBeInTheDocument();
    const uploads = screen.getAllByRole('link', { name: 'Upload Music' });
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    for (const link of uploads) expect(link).toHaveAttribute('href', '/upload');
  });

  it('says "No favourites yet" on empty favorites, with a way to browse All Music', async () => {
    stubFetch({ 'GET /api/files': filesRoute([]) });
    renderApp('/music?owner=true&favorites=true');
    expect(await screen.findByRole('heading', { name: 'No favourites yet' })).toBeInTheDocument();
    expect(screen.getByText('Songs you like show up here. Tap the heart on any song to add it.')).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'My Favorites' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([['Browse All Music', '/music']]);
  });

  it('plays a card in the player bar, which closes with its close button', async () => {
    const { requests } = stubFetch({
      'GET /api/files': filesRoute(makeSongs(3)),
      'GET /api/files/2/play': { body: { url: '/api/stream/2?sig=abc' } },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await screen.findByText('Song 2');
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play Song 2' }));
    const bar = await screen.findByRole('region', { name: 'Player' });
    expect(within(bar).getByText('Song 2')).toBeInTheDocument();
    await waitFor(() => expect(requests.map((r) => r.path)).toContain('/api/files/2/play?format=browser'));
    // Controls wait for the metadata; a list of three offers both neighbours.
    expect(within(bar).getByRole('button', { name: 'Play' })).toBeDisabled();
    expect(within(bar).getByRole('button', { name: 'Next' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Previous' })).toBeInTheDocument();
    expect(within(bar).getByRole('slider', { name: 'Volume' })).toHaveValue('0.8');

    await user.click(within(bar).getByRole('button', { name: 'Close player' }));
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
  });

  it('toggles a like on a card', async () => {
    const { requests } = stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'POST /api/files/2/like': { body: { id: 2, isLiked: true } },
    });
    const user = userEvent.setup();
    renderApp('/music');
    const like = await screen.findByRole('button', { name: 'Like Song 2' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await user.click(like);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like Song 2' })).toHaveAttribute('aria-pressed', 'true'));
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/files/2/like')).toBe(true);
  });

  it('removes a song from Favorites as soon as it is unliked there', async () => {
    stubFetch({
      'GET /api/files': { body: [makeSong(1, { isLiked: true }), makeSong(2, { isLiked: true })] },
      'POST /api/files/2/like': { body: { id: 2, isLiked: false } },
    });
    const user = userEvent.setup();
    renderApp('/music?owner=true&favorites=true');
    await user.click(await screen.findByRole('button', { name: 'Like Song 2' }));
    await waitFor(() => expect(screen.queryByText('Song 2')).not.toBeInTheDocument());
    expect(cardTitles()).toEqual(['Song 1']);
  });

  it("toasts the server's message when a like fails", async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(1)),
      'POST /api/files/1/like': { status: 500, text: 'oops' },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Like Song 1' }));
    expect(await screen.findByText('Failed to toggle like status')).toBeInTheDocument();
  });
});
