import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type RecordedRequest } from '../../test/fetch-stub';
import { makePlaylist, toSummary } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

// Sonner captures the pointer when a toast is pressed; jsdom has no pointer capture.
const elementPrototype = Element.prototype as unknown as Record<string, unknown>;
elementPrototype.setPointerCapture ??= () => {};
elementPrototype.releasePointerCapture ??= () => {};

beforeEach(signInForTest);

const song = makeSong(5, { displayName: 'Blue Hour' });
const other = makeSong(6);
const focus = makePlaylist(1, [other], { name: 'Focus' });
const favourites = makePlaylist(2, [song], { name: 'Favourites' });

async function openDialog(routes: Parameters<typeof stubFetch>[0] = {}) {
  const { requests } = stubFetch({
    'GET /api/files/5': { body: song },
    'GET /api/playlists': { body: [toSummary(focus), toSummary(favourites)] },
    ...routes,
  });
  const user = userEvent.setup();
  const view = renderApp('/music/5');
  await user.click(await screen.findByRole('button', { name: 'Add to Playlist' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add to Playlist' });
  return { user, requests, dialog, ...view };
}

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body]);

describe('Add to Playlist on the song page', () => {
  it('lists the playlists, marks those that hold the song, and adds it to the chosen one', async () => {
    const { user, requests, dialog, router } = await openDialog({
      'POST /api/playlists/1/songs': { body: makePlaylist(1, [other, song], { name: 'Focus' }) },
    });
    expect(within(dialog).getByText('Choose a playlist for "Blue Hour", or create a new one.')).toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: 'Favourites · Added' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Add to Focus' }));
    expect(await screen.findByText('Song added to playlist')).toBeInTheDocument();
    expect(posts(requests)).toEqual([['/api/playlists/1/songs', { SongId: 5 }]]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'View Playlist' }));
    expect(currentPath(router)).toBe('/playlists/1');
  });

  it('creates a playlist on the spot and adds the song to it', async () => {
    const created = makePlaylist(3, [], { name: 'Late Night' });
    const { user, requests, dialog } = await openDialog({
      'POST /api/playlists': { status: 201, body: created },
      'POST /api/playlists/3/songs': { body: makePlaylist(3, [song], { name: 'Late Night' }) },
    });
    await within(dialog).findByRole('button', { name: 'Add to Focus' });
    await user.click(within(dialog).getByRole('button', { name: 'Create and Add' }));
    expect(within(dialog).getByText('Please enter a playlist name')).toBeInTheDocument();
    expect(posts(requests)).toEqual([]);

    await user.type(within(dialog).getByLabelText('New playlist'), ' Late Night ');
    await user.click(within(dialog).getByRole('button', { name: 'Create and Add' }));
    expect(await screen.findByText('Song added to playlist')).toBeInTheDocument();
    expect(posts(requests)).toEqual([
      ['/api/playlists', { name: 'Late Night' }],
      ['/api/playlists/3/songs', { SongId: 5 }],
    ]);
  });

  it('says when the user has no playlists yet', async () => {
    const { dialog } = await openDialog({ 'GET /api/playlists': { body: [] } });
    expect(await within(dialog).findByText("You don't have any playlists yet. Create one below.")).toBeInTheDocument();
  });

  it("shows the server's message when adding fails", async () => {
    const { user, dialog } = await openDialog({
      'POST /api/playlists/1/songs': { status: 409, body: { message: 'This song is already in the playlist.' } },
    });
    await user.click(await within(dialog).findByRole('button', { name: 'Add to Focus' }));
    expect(await screen.findByText('This song is already in the playlist.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add to Playlist' })).toBeInTheDocument();
  });
});
