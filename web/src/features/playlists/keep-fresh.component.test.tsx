import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Playlist } from '@encore/common/playlists.contract';
import { stubFetch, type RecordedRequest } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const ai = makePlaylist(1, makeSongs(2), { name: 'Calm evening', aiPrompt: 'something calm', keepFresh: false });

describe('Keep fresh on an AI playlist (issue 41)', { timeout: 30_000 }, () => {
  it('turns on and off with the switch, saving each change', async () => {
    const user = userEvent.setup();
    let current: Playlist = ai;
    const { requests } = stubFetch({
      'GET /api/playlists/1': () => ({ body: current }),
      'PATCH /api/playlists/1': (request: RecordedRequest) => {
        current = { ...current, keepFresh: (request.body as { keepFresh: boolean }).keepFresh };
        return { body: current };
      },
      'GET /api/files': { body: [] },
    });
    renderApp('/playlists/1');
    const toggle = await screen.findByRole('switch', { name: 'Keep fresh' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(toggle).toHaveAccessibleDescription(/Songs you remove stay out/);
    await user.click(toggle);
    expect(await screen.findByRole('switch', { name: 'Keep fresh', checked: true })).toBeEnabled();
    await user.click(screen.getByRole('switch', { name: 'Keep fresh' }));
    expect(await screen.findByRole('switch', { name: 'Keep fresh', checked: false })).toBeEnabled();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ keepFresh: true }, { keepFresh: false }]);
  });

  it('says so when the change fails, and shows the playlist as it is', async () => {
    const user = userEvent.setup();
    stubFetch({ 'GET /api/playlists/1': { body: ai }, 'PATCH /api/playlists/1': { status: 500 }, 'GET /api/files': { body: [] } });
    renderApp('/playlists/1');
    await user.click(await screen.findByRole('switch', { name: 'Keep fresh' }));
    expect(await screen.findByText('Failed to change Keep fresh')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Keep fresh' })).toHaveAttribute('aria-checked', 'false');
  });

  it('is not offered on a playlist that cannot be kept fresh', async () => {
    stubFetch({
      'GET /api/playlists/2': { body: makePlaylist(2, makeSongs(1), { name: 'Mine', aiPrompt: null, keepFresh: null }) },
      'GET /api/files': { body: [] },
    });
    renderApp('/playlists/2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mine' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Keep fresh' })).toBeNull();
  });
});
