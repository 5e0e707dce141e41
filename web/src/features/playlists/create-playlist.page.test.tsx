import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist, toSummary } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

// Toasts outlive a test in sonner's store; the next test's toaster would show them again.
describe('Create playlist', () => {
  it('asks for a name before sending anything', async () => {
    const { requests } = stubFetch({});
    const user = userEvent.setup();
    renderApp('/create-playlist');
    expect(screen.getByRole('heading', { level: 1, name: 'Create Playlist' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Create Playlist' }));
    expect(await screen.findAllByText('Please enter a playlist name')).toHaveLength(2); // field and toast
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('creates the playlist with the trimmed name and description, then goes to My Playlists', async () => {
    const created = makePlaylist(7, [], { name: 'Night Drive', description: 'Synths' });
    const { requests } = stubFetch({
      'POST /api/playlists': { status: 201, body: created },
      'GET /api/playlists': { body: [toSummary(created)] },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/create-playlist');
    await user.type(screen.getByLabelText('Name'), '  Night Drive ');
    await user.type(screen.getByLabelText(/Description/), 'Synths');
    await user.click(screen.getByRole('button', { name: 'Create Playlist' }));
    expect(await screen.findByText('Playlist created successfully!')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/playlists'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Night Drive', description: 'Synths' });
    expect(await screen.findByRole('link', { name: 'Night Drive' })).toBeInTheDocument();
  });

  it('sends no description when it is left empty', async () => {
    const { requests } = stubFetch({ 'POST /api/playlists': { status: 201, body: makePlaylist(8) }, 'GET /api/playlists': { body: [] } });
    const user = userEvent.setup();
    renderApp('/create-playlist');
    await user.type(screen.getByLabelText('Name'), 'Solo');
    await user.keyboard('{Enter}');
    await screen.findByText('Playlist created successfully!');
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Solo', description: null });
  });

  it('says so when the server fails, and stays on the form', async () => {
    stubFetch({ 'POST /api/playlists': { status: 500, body: { message: 'Internal error' } } });
    const user = userEvent.setup();
    const { router } = renderApp('/create-playlist');
    await user.type(screen.getByLabelText('Name'), 'Night Drive');
    await user.click(screen.getByRole('button', { name: 'Create Playlist' }));
    expect(await screen.findByText('Failed to create playlist. Please try again.')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/create-playlist');
    expect(screen.getByLabelText('Name')).toHaveValue('Night Drive');
  });

  it("shows the server's rule message for a refused name", async () => {
    stubFetch({ 'POST /api/playlists': { status: 400, body: { message: 'The playlist name can be at most 100 characters' } } });
    const user = userEvent.setup();
    renderApp('/create-playlist');
    await user.type(screen.getByLabelText('Name'), 'Night Drive');
    await user.click(screen.getByRole('button', { name: 'Create Playlist' }));
    expect(await screen.findByText('The playlist name can be at most 100 characters')).toBeInTheDocument();
  });

  it('Cancel goes back to My Playlists', async () => {
    stubFetch({ 'GET /api/playlists': { body: [] } });
    const user = userEvent.setup();
    const { router } = renderApp('/create-playlist');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(currentPath(router)).toBe('/playlists');
  });
});
