import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist, toSummary } from '../../test/playlist-fixture';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const ai = makePlaylist(1, makeSongs(2), { name: 'Calm evening', description: 'Slow and quiet', aiPrompt: 'something calm to fall asleep to' });
const mine = makePlaylist(2, makeSongs(1), { name: 'Focus', aiPrompt: null });

describe('AI playlists among the others (issue 12)', { timeout: 30_000 }, () => {
  it('My Playlists marks an AI playlist with the badge and its prompt, and only that one', async () => {
    stubFetch({ 'GET /api/playlists': { body: [toSummary(ai), toSummary(mine)] } });
    renderApp('/playlists');
    const aiCard = (await screen.findByRole('link', { name: 'Calm evening' })).closest('article')!;
    expect(within(aiCard).getByText('AI Generated')).toBeInTheDocument();
    expect(within(aiCard).getByText('something calm to fall asleep to')).toBeInTheDocument();
    const myCard = screen.getByRole('link', { name: 'Focus' }).closest('article')!;
    expect(within(myCard).queryByText('AI Generated')).toBeNull();
  });

  it("the playlist's page shows the badge and the prompt", async () => {
    stubFetch({ 'GET /api/playlists/1': { body: ai }, 'GET /api/files': { body: [] } });
    renderApp('/playlists/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Calm evening' })).toBeInTheDocument();
    expect(screen.getByText('AI Generated')).toBeInTheDocument();
    expect(screen.getByText('something calm to fall asleep to')).toBeInTheDocument();
  });

  it('a playlist a user made has neither', async () => {
    stubFetch({ 'GET /api/playlists/2': { body: mine }, 'GET /api/files': { body: [] } });
    renderApp('/playlists/2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Focus' })).toBeInTheDocument();
    expect(screen.queryByText('AI Generated')).toBeNull();
    expect(screen.queryByText('Prompt:')).toBeNull();
  });
});
