import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlaylistImportResult } from '@encore/common/playlists.contract';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { stubFetch, type RecordedRequest, type StubResponse } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { playlistServer } from '../../test/playlist-server';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);
afterEach(() => setLanguage('en'));

const library = makeSongs(5);
const playlist = makePlaylist(1, library.slice(0, 1), { name: 'Imported' });

async function openPlaylist(answer: (request: RecordedRequest) => StubResponse) {
  const server = playlistServer(playlist, library);
  const { requests } = stubFetch({ ...server.routes, 'POST /api/playlists/1/import': answer });
  const user = userEvent.setup();
  renderApp('/playlists/1');
  await screen.findByRole('heading', { level: 1, name: 'Imported' });
  return { user, requests };
}

const m3u = (text: string, name = 'mix.m3u8') => new File([text], name, { type: 'audio/x-mpegurl' });

describe('Import M3U8', () => {
  it('sends the chosen file’s text, shows the new songs and says what was added and not found', async () => {
    const result: PlaylistImportResult = {
      playlist: { ...playlist, songs: library.slice(0, 3), songCount: 3 },
      report: { added: 2, alreadyThere: 0, notFound: [{ entry: 'Gone - Song' }, { entry: 'other.mp3' }, { entry: 'x.mp3' }] },
    };
    const { user, requests } = await openPlaylist(() => ({ body: result }));
    const button = screen.getByRole('button', { name: 'Import M3U8' });
    button.focus();
    expect(button).toHaveFocus();
    await user.upload(screen.getByLabelText('M3U or M3U8 file to add to this playlist'), m3u('#EXTM3U\r\n#EXTINF:61,Artist - Song 2\r\nsong-2.mp3\r\n'));
    expect(await screen.findByText('Added 2 songs · 3 not found')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/playlists/1/import')?.body).toEqual({ text: '#EXTM3U\r\n#EXTINF:61,Artist - Song 2\r\nsong-2.mp3\r\n' });
    await waitFor(() => expect(screen.getAllByTestId('playlist-song')).toHaveLength(3));
  });

  it('counts in Hebrew, and names songs already in the playlist', async () => {
    setLanguage('he');
    const { user } = await openPlaylist(() => ({ body: { playlist, report: { added: 1, alreadyThere: 2, notFound: [] } } }));
    await user.upload(screen.getByLabelText('קובץ M3U או M3U8 להוספה לפלייליסט הזה'), m3u('a.mp3\n'));
    expect(await screen.findByText('נוסף שיר אחד · 2 כבר בפלייליסט')).toBeInTheDocument();
  });

  it('shows the server’s reason for a file it refuses, and refuses a binary file itself', async () => {
    const { user, requests } = await openPlaylist(() => ({ status: 400, body: { message: 'This is not an M3U or M3U8 playlist' } }));
    const picker = screen.getByLabelText('M3U or M3U8 file to add to this playlist');
    await user.upload(picker, m3u('<html></html>'));
    expect(await screen.findByText('This is not an M3U or M3U8 playlist')).toBeInTheDocument();
    const calls = requests.filter((r) => r.path === '/api/playlists/1/import').length;
    await user.upload(picker, m3u('ID3\u0000\u0000', 'song.m3u'));
    await waitFor(() => expect(screen.getAllByText('This is not an M3U or M3U8 playlist')).toHaveLength(2));
    expect(requests.filter((r) => r.path === '/api/playlists/1/import')).toHaveLength(calls);
  });
});
