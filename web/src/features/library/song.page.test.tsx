import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { filesRoute } from '../../test/files-route';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const tagged = makeSong(5, {
  displayName: 'Nova - Blue Hour',
  artist: 'Nova',
  album: 'Night Drive',
  genre: 'Synthwave',
  year: 2024,
  durationSeconds: 185,
  bitrate: 320_000,
  sampleRate: 44_100,
  size: 2_621_440,
  uploadedAt: '2026-02-14T09:00:00Z',
});

describe('song page', () => {
  it('shows the title, playback, actions and the file information', async () => {
    stubFetch({ 'GET /api/files/5': { body: tagged } });
    renderApp('/music/5');
    expect(screen.getByText('Loading Song...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Blue Hour' })).toBeInTheDocument();
    expect(document.title).toBe('Nova - Blue Hour · Encore');
    expect(screen.getByRole('link', { name: 'Back to All Music' })).toHaveAttribute('href', '/music');
    expect(screen.getByRole('button', { name: 'Play' })).toBeEnabled();
    expect(screen.getByTestId('song-elapsed')).toHaveTextContent('0:00');
    expect(screen.getByTestId('song-duration')).toHaveTextContent('3:05');
    for (const name of ['Like Nova - Blue Hour', 'Share', 'Download', 'Add to Playlist', 'Delete']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    const info = screen.getByRole('heading', { name: 'File Information' }).parentElement!;
    const expected: [string, string][] = [
      ['Type', 'MP3'],
      ['Uploaded', 'Feb 14'],
      ['Size', '2.5 MB'],
      ['Sample rate', '44.1 kHz'],
    ];
    for (const [label, value] of expected) {
      expect(within(info).getByText(label).nextElementSibling).toHaveTextContent(value);
    }
    // The tags, as a music app shows them (under the cover on a wide screen, in the column on a phone).
    const tags = screen.getAllByRole('heading', { name: 'Details', hidden: true })[0]!.parentElement!;
    const tagRows: [string, string][] = [
      ['Artist', 'Nova'],
      ['Album', 'Night Drive'],
      ['Year', '2024'],
      ['Genre', 'Synthwave'],
      ['Duration', '3:05'],
      ['Bitrate', '320 kbps'],
    ];
    for (const [label, value] of tagRows) {
      expect(within(tags).getByText(label).nextElementSibling).toHaveTextContent(value);
    }
  });

  it('leaves out the information the tags did not give, and Delete for songs of others', async () => {
    stubFetch({ 'GET /api/files/6': { body: makeSong(6, { isOwner: false, durationSeconds: null }) } });
    renderApp('/music/6');
    await screen.findByRole('heading', { name: 'File Information' });
    expect(screen.queryByText('Bitrate')).not.toBeInTheDocument();
    expect(screen.queryByText('Duration')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it("says a music folder's song was added, not uploaded", async () => {
    stubFetch({ 'GET /api/files/8': { body: makeSong(8, { folderId: 1, uploadedAt: '2026-02-14T09:00:00Z' }) } });
    renderApp('/music/8');
    const info = (await screen.findByRole('heading', { name: 'File Information' })).parentElement!;
    expect(within(info).getByText('Added').nextElementSibling).toHaveTextContent('Feb 14');
    expect(within(info).queryByText('Uploaded')).not.toBeInTheDocument();
  });

  it('shows Song Not Found for an unknown id', async () => {
    stubFetch({ 'GET /api/files/404': { status: 404, body: { message: 'Song not found' } } });
    renderApp('/music/404');
    expect(await screen.findByRole('heading', { name: 'Song Not Found' })).toBeInTheDocument();
    expect(screen.getByText("The song you're looking for could not be found.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Music' })).toHaveAttribute('href', '/music');
  });

  it('shows the error with Try Again and Back to Music', async () => {
    let fail = true;
    stubFetch({ 'GET /api/files/5': () => (fail ? { status: 503, body: { message: 'Try later' } } : { body: tagged }) });
    const user = userEvent.setup();
    renderApp('/music/5');
    expect(await screen.findByRole('heading', { name: 'Error Loading Song' })).toBeInTheDocument();
    expect(screen.getByText('Try later')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Music' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Blue Hour' })).toBeInTheDocument();
  });

  it.each(['abc', '5x', '0', '-3'])('treats /music/%s as Not Found', (id) => {
    const { requests } = stubFetch({});
    renderApp(`/music/${id}`);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(requests.filter((r) => r.path.startsWith('/api/files'))).toHaveLength(0);
  });

  it('plays the song in the one player and shows it in the player bar', async () => {
    stubFetch({
      'GET /api/files/5': { body: tagged },
      'GET /api/files/5/play': { body: { url: '/api/stream/5?sig=1' } },
    });
    const user = userEvent.setup();
    renderApp('/music/5');
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    const bar = await screen.findByRole('region', { name: 'Player' });
    expect(within(bar).getByTestId('player-title')).toHaveTextContent(/^Blue Hour$/);
    expect(within(bar).getByTestId('player-artist')).toHaveTextContent(/^Nova$/);
    expect(within(bar).getByRole('button', { name: 'Next' })).toBeDisabled();
    const audio = document.querySelector<HTMLAudioElement>('audio[data-encore-player]')!;
    await waitFor(() => expect(audio.getAttribute('src')).toBe('/api/stream/5?sig=1'));
    act(() => {
      audio.dispatchEvent(new Event('loadedmetadata'));
    });
    // Autoplay after the metadata: both buttons now read Pause.
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Pause' })).toBeEnabled());
    const main = screen.getByRole('main');
    await user.click(within(main).getByRole('button', { name: 'Pause' }));
    expect(within(main).getByRole('button', { name: 'Play' })).toBeInTheDocument();
    expect(audio.paused).toBe(true);
  });

  it('likes with a floating heart', async () => {
    stubFetch({ 'GET /api/files/5': { body: tagged }, 'POST /api/files/5/like': { body: { id: 5, isLiked: true } } });
    const user = userEvent.setup();
    renderApp('/music/5');
    const like = await screen.findByRole('button', { name: 'Like Nova - Blue Hour' });
    await user.click(like);
    expect(like.querySelectorAll('svg')).toHaveLength(2);
    await waitFor(() => expect(like).toHaveAttribute('aria-pressed', 'true'));
  });

  it('downloads the file with the bearer header and says so', async () => {
    const { requests } = stubFetch({ 'GET /api/files/5': { body: tagged }, 'GET /api/files/5/download': { text: 'ID3...' } });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/music/5');
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download started')).toBeInTheDocument();
    expect(click).toHaveBeenCalled();
    const download = requests.find((r) => r.path === '/api/files/5/download');
    expect(download?.headers.get('Authorization')).toBe('Bearer tok');
  });

  it("says 'Download failed' and 'Song not available for download.' when it fails", async () => {
    stubFetch({ 'GET /api/files/5': { body: tagged }, 'GET /api/files/5/download': { status: 500, text: 'x' } });
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/music/5');
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download failed')).toBeInTheDocument();
    expect(screen.getByText('Song not available for download.')).toBeInTheDocument();
  });

  it('deletes an own song after confirming, and goes back to the music', async () => {
    const { requests } = stubFetch({
      'GET /api/files/5': { body: tagged },
      'DELETE /api/files/5': { status: 204 },
      'GET /api/files': filesRoute([]),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music/5');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this song?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Song' }));
    await waitFor(() => expect(currentPath(router)).toBe('/music'));
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/files/5')).toBe(true);
    expect(await screen.findByText('"Nova - Blue Hour" was deleted')).toBeInTheDocument();
  });
});
