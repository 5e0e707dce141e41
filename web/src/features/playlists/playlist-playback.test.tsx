import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { playlistServer } from '../../test/playlist-server';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';
import { player } from '../../player/player.store';

beforeEach(signInForTest);

afterEach(() => {
  vi.useRealTimers();
});

const library = makeSongs(4);

function audioElement(): HTMLAudioElement {
  return document.querySelector<HTMLAudioElement>('audio[data-encore-player]')!;
}

async function openPlaylist(songs = library.slice(0, 3)) {
  const server = playlistServer(makePlaylist(1, songs, { name: 'Morning Run' }), library);
  const { requests } = stubFetch(server.routes);
  const user = userEvent.setup();
  renderApp('/playlists/1');
  await screen.findByRole('heading', { level: 1, name: 'Morning Run' });
  const controls = screen.getByRole('group', { name: 'Playlist playback' });
  const button = (name: string) => within(controls).getByRole('button', { name });
  return { user, requests, button };
}

/** The player has the song's URL; its metadata loads and it starts playing. */
async function metadataLoads(songId: number) {
  await waitFor(() => expect(audioElement().getAttribute('src')).toBe(`/stream/${songId}`));
  act(() => {
    audioElement().dispatchEvent(new Event('loadedmetadata'));
  });
}

describe('playlist playback', () => {
  it('offers only Play All while nothing of the playlist plays', async () => {
    const { button } = await openPlaylist();
    expect(button('Play All')).toBeEnabled();
    expect(button('Pause')).toBeDisabled();
    expect(button('Resume')).toBeDisabled();
    expect(button('Stop')).toBeDisabled();
  });

  it('plays all songs in order in the one player, with Pause, Resume and Stop enabled as playback goes', async () => {
    const { user, button } = await openPlaylist();
    await user.click(button('Play All'));
    expect(await screen.findByText('Playing 3 songs')).toBeInTheDocument();
    const state = player.getState();
    expect(state.source).toBe('playlist:1');
    expect(state.wrap).toBe(false);
    expect(state.queue.map((song) => song.id)).toEqual([1, 2, 3]);
    // Loading: only Stop.
    expect(button('Pause')).toBeDisabled();
    expect(button('Resume')).toBeDisabled();
    expect(button('Stop')).toBeEnabled();

    await metadataLoads(1);
    await waitFor(() => expect(button('Pause')).toBeEnabled());
    expect(button('Resume')).toBeDisabled();
    const bar = screen.getByRole('region', { name: 'Player' });
    expect(within(bar).getByText('Song 1')).toBeInTheDocument();
    const first = screen.getAllByTestId('playlist-song')[0]!;
    expect(within(first).getByText('Now playing')).toBeInTheDocument();

    await user.click(button('Pause'));
    expect(await screen.findByText('Playback paused')).toBeInTheDocument();
    expect(audioElement().paused).toBe(true);
    expect(button('Pause')).toBeDisabled();
    expect(button('Resume')).toBeEnabled();

    await user.click(button('Resume'));
    expect(await screen.findByText('Playback resumed')).toBeInTheDocument();
    expect(audioElement().paused).toBe(false);
    expect(button('Pause')).toBeEnabled();
    expect(button('Resume')).toBeDisabled();

    await user.click(button('Stop'));
    expect(await screen.findByText('Playback stopped')).toBeInTheDocument();
    expect(player.getState().current).toBeNull();
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
    expect(button('Pause')).toBeDisabled();
    expect(button('Resume')).toBeDisabled();
    expect(button('Stop')).toBeDisabled();
  });

  it('moves through the songs and says Playlist finished after the last one', async () => {
    const { user, button } = await openPlaylist();
    await user.click(button('Play All'));
    for (const id of [1, 2, 3]) {
      await metadataLoads(id);
      act(() => {
        audioElement().dispatchEvent(new Event('ended'));
      });
    }
    expect(await screen.findByText('Playlist finished')).toBeInTheDocument();
    expect(player.getState().isPlaying).toBe(false);
  });

  it('says Playlist finished on another page too, and Error playing song for a song that fails', async () => {
    const { user, button } = await openPlaylist();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(button('Play All'));
    await waitFor(() => expect(audioElement().getAttribute('src')).toBe('/stream/1'));
    act(() => {
      audioElement().dispatchEvent(new Event('error'));
    });
    expect(await screen.findByText('Error playing song')).toBeInTheDocument();
    // The playlist goes on with the next song.
    await metadataLoads(2);

    await user.click(screen.getByRole('link', { name: 'Back to Playlists' }));
    await screen.findByRole('heading', { level: 1, name: 'My Playlists' });
    act(() => player.next());
    await metadataLoads(3);
    act(() => {
      audioElement().dispatchEvent(new Event('ended'));
    });
    expect(await screen.findByText('Playlist finished')).toBeInTheDocument();
  });

  it('keeps the Playing toast for 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, button } = await openPlaylist();
    await user.click(button('Play All'));
    expect(await screen.findByText('Playing 3 songs')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.getByText('Playing 3 songs')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    await waitFor(() => expect(screen.queryByText('Playing 3 songs')).not.toBeInTheDocument());
  });

  it('says there is nothing to play in an empty playlist', async () => {
    const { user, button, requests } = await openPlaylist([]);
    await user.click(button('Play All'));
    expect(await screen.findByText('This playlist has no songs to play')).toBeInTheDocument();
    expect(player.getState().current).toBeNull();
    expect(requests.some((r) => /\/play(\?|$)/.test(r.path))).toBe(false);
  });

  it('leaves Pause, Resume and Stop to others while another list plays', async () => {
    const { button } = await openPlaylist();
    act(() => player.playQueue([library[3]!], 0, { source: 'song' }));
    await metadataLoads(4);
    expect(button('Pause')).toBeDisabled();
    expect(button('Resume')).toBeDisabled();
    expect(button('Stop')).toBeDisabled();
  });
});
