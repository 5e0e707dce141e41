import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist, toSummary } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';
import { sessionStore } from '../../lib/session.store';

beforeEach(signInForTest);

const summaries = [
  toSummary(makePlaylist(1, makeSongs(3), { name: 'Morning Run', description: 'Fast and loud' })),
  toSummary(makePlaylist(2, makeSongs(1), { name: 'Focus' })),
  toSummary(makePlaylist(3, [], { name: 'Rainy Day', description: 'Soft piano for the MORNING' })),
];

const cardNames = () => screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);

describe('My Playlists', () => {
  it('shows a card per playlist with its name, description and song count, opening the playlist', async () => {
    stubFetch({ 'GET /api/playlists': { body: summaries } });
    const user = userEvent.setup();
    const { router } = renderApp('/playlists');
    expect(screen.getByRole('heading', { level: 1, name: 'My Playlists' })).toBeInTheDocument();
    expect(document.title).toBe('My Playlists · Encore');
    expect(screen.getByText('Loading your playlists...')).toBeInTheDocument();

    const card = (await screen.findByRole('link', { name: 'Morning Run' })).closest('article')!;
    expect(within(card).getByText('Fast and loud')).toBeInTheDocument();
    expect(within(card).getByText('3 songs')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: 'Focus' }).closest('article')!).getByText('1 song')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: 'Rainy Day' }).closest('article')!).getByText('0 songs')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Playlist' })).toHaveAttribute('href', '/create-playlist');

    stubFetch({ 'GET /api/playlists/1': { body: makePlaylist(1, makeSongs(3), { name: 'Morning Run' }) } });
    await user.click(screen.getByRole('link', { name: 'Morning Run' }));
    expect(currentPath(router)).toBe('/playlists/1');
  });

  it('searches names and descriptions ignoring case; No Matching Playlists offers Clear Search', async () => {
    stubFetch({ 'GET /api/playlists': { body: summaries } });
    const user = userEvent.setup();
    renderApp('/playlists');
    await screen.findByText('Morning Run');
    const search = screen.getByRole('searchbox', { name: 'Search playlists' });

    await user.type(search, 'MORNING');
    expect(cardNames()).toEqual(['Morning Run', 'Rainy Day']);
    await user.clear(search);
    await user.type(search, 'focus');
    expect(cardNames()).toEqual(['Focus']);

    await user.clear(search);
    await user.type(search, 'jazz');
    expect(screen.getByRole('heading', { name: 'No Matching Playlists' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear Search' }));
    expect(search).toHaveValue('');
    expect(cardNames()).toHaveLength(3);
  });

  it('says No Playlists Yet with a Create Playlist button when there are none', async () => {
    stubFetch({ 'GET /api/playlists': { body: [] } });
    renderApp('/playlists');
    expect(await screen.findByRole('heading', { name: 'No Playlists Yet' })).toBeInTheDocument();
    const creates = screen.getAllByRole('link', { name: 'Create Playlist' });
    expect(creates).toHaveLength(2);
    for (const link of creates) expect(link).toHaveAttribute('href', '/create-playlist');
  });

  it('shows Error Loading Playlists with Try Again, which loads them again', async () => {
    let fail = true;
    stubFetch({ 'GET /api/playlists': () => (fail ? { status: 500, body: { message: 'Database unavailable' } } : { body: summaries }) });
    const user = userEvent.setup();
    renderApp('/playlists');
    expect(await screen.findByRole('heading', { name: 'Error Loading Playlists' })).toBeInTheDocument();
    expect(screen.getByText('Failed to load playlists. Please try again.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Morning Run')).toBeInTheDocument();
  });

  it('sends guests to sign in', () => {
    sessionStore.reset();
    localStorage.clear();
    sessionStore.syncWithStoredToken();
    const { router } = renderApp('/playlists');
    expect(currentPath(router)).toMatch(/^\/signin/);
  });
});
