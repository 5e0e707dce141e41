import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { filesRoute } from '../test/files-route';
import { renderApp } from '../test/render-app';
import { makeSong, makeSongs, signInForTest } from '../test/song-fixture';
import { sessionStore } from '../lib/session.store';
import { setLanguage } from '../lib/i18n/i18n.store';

beforeEach(signInForTest);
afterEach(() => {
  act(() => setLanguage('en'));
});

function audioElement(): HTMLAudioElement {
  return document.querySelector<HTMLAudioElement>('audio[data-encore-player]')!;
}

/** Opens /music, plays the first song and lets its metadata load. */
async function playFirstSong() {
  const { requests } = stubFetch({
    'GET /api/files': filesRoute(makeSongs(3)),
    'GET /api/files/1/play': { body: { url: '/stream/1' } },
    'GET /api/files/2/play': { body: { url: '/stream/2' } },
    'GET /api/files/3/play': { body: { url: '/stream/3' } },
  });
  const user = userEvent.setup();
  const view = renderApp('/music');
  await user.click(await screen.findByRole('button', { name: 'Play Song 1' }));
  await waitFor(() => expect(audioElement().getAttribute('src')).toBe('/stream/1'));
  act(() => {
    audioElement().dispatchEvent(new Event('loadedmetadata'));
  });
  const bar = screen.getByRole('region', { name: 'Player' });
  await waitFor(() => expect(within(bar).getByRole('button', { name: 'Pause' })).toBeEnabled());
  return { user, bar, requests, ...view };
}

describe('player bar', () => {
  it('shows the song, title over artist, the time and the controls', async () => {
    const { bar } = await playFirstSong();
    expect(within(bar).getByRole('link', { name: 'Song 1' })).toHaveAttribute('href', '/music/1');
    expect(within(bar).getByTestId('player-artist')).toHaveTextContent('Unknown artist');
    expect(within(bar).getByTestId('player-elapsed')).toHaveTextContent('0:00');
    expect(within(bar).getByTestId('player-duration')).toHaveTextContent('3:00');
    expect(within(bar).getByRole('slider', { name: 'Seek' })).toBeEnabled();
    expect(within(bar).getByRole('slider', { name: 'Volume' })).toHaveValue('0.8');
    // The page keeps room for the bar.
    expect(screen.getByRole('main').parentElement?.className).toMatch(/pb-/);
  });

  it('plays and pauses with the space bar and seeks 5 s with the arrows, except while typing', async () => {
    const { user, bar } = await playFirstSong();
    const audio = audioElement();
    (document.activeElement as HTMLElement | null)?.blur();

    await user.keyboard(' ');
    expect(audio.paused).toBe(true);
    expect(within(bar).getByRole('button', { name: 'Play' })).toBeInTheDocument();
    await user.keyboard(' ');
    expect(audio.paused).toBe(false);

    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(audio.currentTime).toBe(10);
    expect(within(bar).getByTestId('player-elapsed')).toHaveTextContent('0:10');
    await user.keyboard('{ArrowLeft}');
    expect(audio.currentTime).toBe(5);

    await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), ' x');
    expect(audio.paused).toBe(false);
  });

  it('moves to the next and previous song, wrapping around the list', async () => {
    const { user, bar, requests } = await playFirstSong();
    await user.click(within(bar).getByRole('button', { name: 'Previous' }));
    expect(within(bar).getByText('Song 3')).toBeInTheDocument();
    // The controls wait for the new song's metadata.
    expect(within(bar).getByRole('button', { name: 'Next' })).toBeDisabled();
    await waitFor(() => expect(audioElement().getAttribute('src')).toBe('/stream/3'));
    expect(requests.map((r) => r.path)).toContain('/api/files/3/play?format=browser');
    act(() => {
      audioElement().dispatchEvent(new Event('loadedmetadata'));
    });
    await user.click(within(bar).getByRole('button', { name: 'Next' }));
    expect(within(bar).getByText('Song 1')).toBeInTheDocument();
  });

  it('says the title over the artist of a tagged song, not "Artist - Title"', async () => {
    stubFetch({
      'GET /api/files': filesRoute([makeSong(4, { displayName: 'Nova - Blue Hour', artist: 'Nova' })]),
      'GET /api/files/4/play': { body: { url: '/stream/4' } },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Play Nova - Blue Hour' }));
    const bar = screen.getByRole('region', { name: 'Player' });
    expect(within(bar).getByTestId('player-title')).toHaveTextContent(/^Blue Hour$/);
    expect(within(bar).getByTestId('player-artist')).toHaveTextContent(/^Nova$/);
    // One song: no neighbours, yet the buttons stay in place, disabled.
    await waitFor(() => expect(audioElement().getAttribute('src')).toBe('/stream/4'));
    act(() => {
      audioElement().dispatchEvent(new Event('loadedmetadata'));
    });
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Pause' })).toBeEnabled());
    expect(within(bar).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(within(bar).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows the size and upload date beneath the title and artist, as the cards format them, in either language', async () => {
    stubFetch({
      'GET /api/files': filesRoute([makeSong(5, { displayName: 'Nova - Blue Hour', artist: 'Nova', size: 3_355_443, uploadedAt: '2025-03-05T12:00:00Z' })]),
      'GET /api/files/5/play': { body: { url: '/stream/5' } },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Play Nova - Blue Hour' }));
    const bar = screen.getByRole('region', { name: 'Player' });
    expect(within(bar).getByTestId('player-title')).toHaveTextContent(/^Blue Hour$/);
    expect(within(bar).getByTestId('player-artist')).toHaveTextContent(/^Nova$/);
    expect(within(bar).getByTestId('player-details')).toHaveTextContent(/^3\.2 MB · Mar 5, 2025$/);
    expect(within(bar).getByTestId('player-details').querySelector('time')).toHaveAttribute('dateTime', '2025-03-05T12:00:00Z');

    act(() => setLanguage('he'));
    expect(within(screen.getByRole('region', { name: 'נגן' })).getByTestId('player-details')).toHaveTextContent(/^\u20663\.2 MB\u2069 · 5 במרץ 2025$/);
  });

  it("closes when the playing song is clicked in the list, while the bar's own button pauses", async () => {
    const { user, bar } = await playFirstSong();
    await user.click(within(bar).getByRole('button', { name: 'Pause' }));
    expect(audioElement().paused).toBe(true);
    expect(within(bar).getByRole('button', { name: 'Play' })).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Play' }));
    expect(audioElement().paused).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Stop Song 1' }));
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
    expect(audioElement().paused).toBe(true);
    expect(audioElement().getAttribute('src')).toBeNull();
    expect(screen.getByRole('button', { name: 'Play Song 1' })).toBeInTheDocument();
  });

  it('goes on to the next song at the end of one', async () => {
    const { bar } = await playFirstSong();
    act(() => {
      audioElement().dispatchEvent(new Event('ended'));
    });
    expect(within(bar).getByText('Song 2')).toBeInTheDocument();
  });

  it('keeps playing across pages and closes with Close player', async () => {
    const { user, router } = await playFirstSong();
    await act(() => router.navigate('/upload'));
    expect(screen.getByRole('region', { name: 'Player' })).toBeInTheDocument();
    expect(audioElement().paused).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Close player' }));
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
    expect(audioElement().paused).toBe(true);
  });

  it('stops when the user logs out', async () => {
    await playFirstSong();
    act(() => sessionStore.logOut());
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
  });
});
