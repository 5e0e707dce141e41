import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type StubResponse } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { playlistServer } from '../../test/playlist-server';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const library = makeSongs(5);
const morningRun = makePlaylist(1, library.slice(0, 3), { name: 'Morning Run', description: 'Fast and loud' });

const rowTitles = () => screen.getAllByTestId('playlist-song').map((row) => within(row).getAllByRole('link')[0]?.textContent);

async function openPlaylist(overrides: Record<string, StubResponse | (() => StubResponse | Promise<StubResponse>)> = {}) {
  const server = playlistServer(morningRun, library);
  const { requests } = stubFetch({ ...server.routes, ...overrides });
  const user = userEvent.setup();
  const view = renderApp('/playlists/1');
  await screen.findByRole('heading', { level: 1, name: 'Morning Run' });
  return { user, requests, server, ...view };
}

describe('playlist page', () => {
  it('shows the loading screen, then the name, song count, description and songs in order', async () => {
    const server = playlistServer(morningRun, library);
    stubFetch(server.routes);
    renderApp('/playlists/1');
    expect(screen.getByText('Loading playlist...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Run' })).toBeInTheDocument();
    expect(document.title).toBe('Morning Run · Encore');
    expect(screen.getByText('3 songs')).toBeInTheDocument();
    expect(screen.getByText('Fast and loud')).toBeInTheDocument();
    expect(rowTitles()).toEqual(['Song 1', 'Song 2', 'Song 3']);
    expect(screen.getAllByRole('link', { name: 'Back to Playlists' })[0]).toHaveAttribute('href', '/playlists');
  });

  it('says Playlist Not Found with a way back to My Playlists', async () => {
    stubFetch({ 'GET /api/playlists/9': { status: 404, body: { message: 'Playlist not found' } }, 'GET /api/playlists': { body: [] } });
    const user = userEvent.setup();
    const { router } = renderApp('/playlists/9');
    expect(await screen.findByRole('heading', { name: 'Playlist Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Playlists' }));
    expect(currentPath(router)).toBe('/playlists');
  });

  it('treats a non-numeric id as an unknown page', () => {
    stubFetch({});
    renderApp('/playlists/abc');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('shows a failed load with Try Again', async () => {
    let fail = true;
    const server = playlistServer(morningRun, library);
    stubFetch({ ...server.routes, 'GET /api/playlists/1': () => (fail ? { status: 500, body: { message: 'Database unavailable' } } : { body: morningRun }) });
    const user = userEvent.setup();
    renderApp('/playlists/1');
    expect(await screen.findByRole('heading', { name: 'Error Loading Playlist' })).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Run' })).toBeInTheDocument();
  });

  it('says No songs in this playlist yet for an empty playlist', async () => {
    const server = playlistServer(makePlaylist(2, [], { name: 'Empty' }), library);
    stubFetch(server.routes);
    renderApp('/playlists/2');
    expect(await screen.findByRole('heading', { name: 'No songs in this playlist yet' })).toBeInTheDocument();
    expect(screen.getByText('0 songs')).toBeInTheDocument();
  });

  describe('editing', () => {
    it('Cancel puts the original name and description back without saving', async () => {
      const { user, requests } = await openPlaylist();
      await user.click(screen.getByRole('button', { name: 'Edit Playlist' }));
      const name = screen.getByLabelText('Name');
      expect(name).toHaveValue('Morning Run');
      expect(screen.getByLabelText(/Description/)).toHaveValue('Fast and loud');
      await user.clear(name);
      await user.type(name, 'Changed');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.getByRole('heading', { level: 1, name: 'Morning Run' })).toBeInTheDocument();
      expect(screen.getByText('Fast and loud')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Edit Playlist' }));
      expect(screen.getByLabelText('Name')).toHaveValue('Morning Run');
      expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    });

    it('refuses a blank name', async () => {
      const { user, requests } = await openPlaylist();
      await user.click(screen.getByRole('button', { name: 'Edit Playlist' }));
      await user.clear(screen.getByLabelText('Name'));
      await user.type(screen.getByLabelText('Name'), '  ');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findAllByText('Please provide a valid name for the playlist')).toHaveLength(2);
      expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    });

    it('saves with a saving state, then shows the new values', async () => {
      let release: () => void = () => {};
      const server = playlistServer(morningRun, library);
      const put = server.routes['PUT /api/playlists/1'] as (request: never) => StubResponse;
      const { user, requests } = await openPlaylist({
        'PUT /api/playlists/1': ((request: never) => new Promise<StubResponse>((resolve) => (release = () => resolve(put(request))))) as never,
      });
      await user.click(screen.getByRole('button', { name: 'Edit Playlist' }));
      await user.clear(screen.getByLabelText('Name'));
      await user.type(screen.getByLabelText('Name'), 'Evening Run');
      await user.clear(screen.getByLabelText(/Description/));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
      release();
      expect(await screen.findByText('Playlist updated successfully')).toBeInTheDocument();
      expect(await screen.findByRole('heading', { level: 1, name: 'Evening Run' })).toBeInTheDocument();
      expect(screen.queryByText('Fast and loud')).not.toBeInTheDocument();
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ name: 'Evening Run', description: null });
    });

    it('says Failed to update playlist when saving fails, keeping the form', async () => {
      const { user } = await openPlaylist({ 'PUT /api/playlists/1': { status: 500 } });
      await user.click(screen.getByRole('button', { name: 'Edit Playlist' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Failed to update playlist')).toBeInTheDocument();
      expect(screen.getByLabelText('Name')).toHaveValue('Morning Run');
    });
  });

  describe('adding songs', () => {
    it('offers the library, with songs already in the playlist disabled, and adds the chosen one', async () => {
      const { user, requests } = await openPlaylist();
      const select = screen.getByLabelText('Add a song');
      await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(6));
      expect(within(select).getByRole('option', { name: 'Song 1 (already added)' })).toBeDisabled();
      expect(within(select).getByRole('option', { name: 'Song 4' })).toBeEnabled();

      await user.click(screen.getByRole('button', { name: 'Add Song' }));
      expect(await screen.findByText('Please select a song to add')).toBeInTheDocument();
      expect(requests.some((r) => r.method === 'POST')).toBe(false);

      await user.selectOptions(select, 'Song 4');
      await user.click(screen.getByRole('button', { name: 'Add Song' }));
      expect(await screen.findByText('Song added to playlist')).toBeInTheDocument();
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ SongId: 4 });
      expect(rowTitles()).toEqual(['Song 1', 'Song 2', 'Song 3', 'Song 4']);
      expect(screen.getByText('4 songs')).toBeInTheDocument();
      expect(select).toHaveValue('');
    });

    it("shows the server's message when the song cannot be added", async () => {
      const { user } = await openPlaylist({ 'POST /api/playlists/1/songs': { status: 409, body: { message: 'This song is already in the playlist.' } } });
      const select = screen.getByLabelText('Add a song');
      await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(6));
      await user.selectOptions(select, 'Song 5');
      await user.click(screen.getByRole('button', { name: 'Add Song' }));
      expect(await screen.findByText('This song is already in the playlist.')).toBeInTheDocument();
    });

    it('falls back to its own message without one from the server', async () => {
      const { user } = await openPlaylist({ 'POST /api/playlists/1/songs': { status: 502, text: '<html>Bad gateway</html>' } });
      const select = screen.getByLabelText('Add a song');
      await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(6));
      await user.selectOptions(select, 'Song 5');
      await user.click(screen.getByRole('button', { name: 'Add Song' }));
      expect(await screen.findByText('Failed to add song to playlist')).toBeInTheDocument();
    });

    it('says Failed to load songs when the song list cannot be loaded', async () => {
      await openPlaylist({ 'GET /api/files': { status: 500, body: { message: 'boom' } } });
      expect(await screen.findByText('Failed to load songs')).toBeInTheDocument();
    });
  });

  it("removes a song through its row's menu", async () => {
    const { user, requests } = await openPlaylist();
    await user.click(screen.getByRole('button', { name: 'More actions for Song 2' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from playlist' }));
    expect(await screen.findByText('Song removed from playlist')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/playlists/1/songs/2')).toBe(true);
    expect(rowTitles()).toEqual(['Song 1', 'Song 3']);
  });

  it('says so when a song cannot be removed', async () => {
    const { user } = await openPlaylist({ 'DELETE /api/playlists/1/songs/2': { status: 500 } });
    await user.click(screen.getByRole('button', { name: 'More actions for Song 2' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from playlist' }));
    expect(await screen.findByText('Failed to remove song from playlist')).toBeInTheDocument();
    expect(rowTitles()).toEqual(['Song 1', 'Song 2', 'Song 3']);
  });

  describe('reordering', () => {
    it('moves a row with the arrow keys on its handle, at once, and saves the full order', async () => {
      let release: () => void = () => {};
      const server = playlistServer(morningRun, library);
      const put = server.routes['PUT /api/playlists/1/songs'] as (request: never) => StubResponse;
      const { user, requests } = await openPlaylist({
        'PUT /api/playlists/1/songs': ((request: never) => new Promise<StubResponse>((resolve) => (release = () => resolve(put(request))))) as never,
      });
      const handle = screen.getByRole('button', { name: 'Move Song 1' });
      handle.focus();
      await user.keyboard('{ArrowDown}');
      // Optimistic: the rows moved before the server answered.
      await waitFor(() => expect(rowTitles()).toEqual(['Song 2', 'Song 1', 'Song 3']));
      expect(screen.getByRole('button', { name: 'Move Song 1' })).toHaveFocus();
      expect(screen.getByText('Song 1 moved to position 2 of 3')).toBeInTheDocument();
      release();
      await waitFor(() => expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ songIds: [2, 1, 3] }]));

      await user.keyboard('{ArrowDown}');
      await waitFor(() => expect(rowTitles()).toEqual(['Song 2', 'Song 3', 'Song 1']));
      release();
      await user.keyboard('{ArrowDown}'); // already last: nothing to do
      await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
      expect(requests.filter((r) => r.method === 'PUT')[1]?.body).toEqual({ songIds: [2, 3, 1] });
      expect(screen.getByRole('button', { name: 'Move Song 1' })).toHaveFocus();
    });

    it('puts the previous order back and says so when saving fails', async () => {
      const { user } = await openPlaylist({ 'PUT /api/playlists/1/songs': { status: 500, body: { message: 'Could not save the order' } } });
      screen.getByRole('button', { name: 'Move Song 3' }).focus();
      await user.keyboard('{ArrowUp}');
      expect(await screen.findByText('Could not save the order')).toBeInTheDocument();
      await waitFor(() => expect(rowTitles()).toEqual(['Song 1', 'Song 2', 'Song 3']));
    });
  });

  it('deletes the playlist after confirmation and goes back to My Playlists', async () => {
    const { user, requests, router } = await openPlaylist();
    await user.click(screen.getByRole('button', { name: 'Delete Playlist' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this playlist?' });
    expect(within(dialog).getByText('"Morning Run" will be deleted. Its songs stay in the library.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Playlist' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Playlist' }));
    expect(await screen.findByText('Playlist deleted')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/playlists'));
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/playlists/1')).toBe(true);
    expect(await screen.findByRole('heading', { name: 'No Playlists Yet' })).toBeInTheDocument();
  });

  it('exports the playlist as M3U8', async () => {
    const { user, requests } = await openPlaylist({ 'GET /api/playlists/1/m3u8': { text: '#EXTM3U\n' } });
    await user.click(screen.getByRole('button', { name: 'Export M3U8' }));
    expect(await screen.findByText('Playlist exported')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/playlists/1/m3u8')?.headers.get('Authorization')).toBe('Bearer tok');
  });
});
