import type { MusicFoldersResponse, ScanStatus } from '@encore/common/music-folders.contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { filesRoute } from '../../test/files-route';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const idle: ScanStatus = {
  state: 'done',
  trigger: 'start',
  startedAt: new Date(Date.now() - 6 * 60_000).toISOString(),
  finishedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  total: 4800,
  done: 4800,
  added: 4800,
  updated: 0,
  moved: 0,
  missing: 0,
  failed: 0,
  error: null,
};

function answer(overrides: Partial<MusicFoldersResponse> = {}): MusicFoldersResponse {
  return {
    folders: [{ id: 1, path: '/srv/music', songs: 4791, available: true }],
    scan: idle,
    canScan: false,
    problems: [],
    problemCount: 0,
    ...overrides,
  };
}

const running: ScanStatus = { ...idle, state: 'running', trigger: 'manual', finishedAt: null, total: 4800, done: 1200 };
const panel = () => screen.getByRole('region', { name: 'Music folders' });

describe('music folders panel', () => {
  it('stays hidden without music folders', async () => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer({ folders: [] }) } });
    renderApp('/music');
    await screen.findByText('Song 1');
    await waitFor(() => expect(requests.map((r) => r.path)).toContain('/api/music-folders'));
    expect(screen.queryByRole('region', { name: 'Music folders' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Music folders/)).not.toBeInTheDocument();
  });

  it('stays hidden, and toasts nothing, on a server without music folders (404)', async () => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)) });
    renderApp('/music');
    await screen.findByText('Song 1');
    await waitFor(() => expect(requests.map((r) => r.path)).toContain('/api/music-folders'));
    expect(screen.queryByRole('region', { name: 'Music folders' })).not.toBeInTheDocument();
    expect(screen.queryByText('Not found')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to load the music folders')).not.toBeInTheDocument();
  });

  it.each(['/music?owner=true', '/music?favorites=true'])('is not on %s (All Music only)', async (path) => {
    const { requests } = stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer() } });
    renderApp(path);
    await screen.findByText('Song 1');
    expect(requests.map((r) => r.path)).not.toContain('/api/music-folders');
    expect(screen.queryByRole('region', { name: 'Music folders' })).not.toBeInTheDocument();
  });

  it('says how many songs the folders hold and when they were last scanned', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer() } });
    renderApp('/music');
    expect(await screen.findByText('Music folders: 4,791 songs')).toBeInTheDocument();
    expect(within(panel()).getByText(/last scanned 5 minutes ago/)).toBeInTheDocument();
    expect(within(panel()).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows a running scan as "Scanning: 1,200 of 4,800 files" with a progress bar', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer({ scan: running }) } });
    renderApp('/music');
    expect(await screen.findByText('Scanning: 1,200 of 4,800 files')).toBeInTheDocument();
    const bar = within(panel()).getByRole('progressbar', { name: 'Scan progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(bar).toHaveAttribute('aria-valuetext', 'Scanning: 1,200 of 4,800 files');
  });

  it('says "Scanning music folders…" until the files are counted', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer({ scan: { ...running, total: 0, done: 0 } }) } });
    renderApp('/music');
    expect(await screen.findByText('Scanning music folders…')).toBeInTheDocument();
    expect(within(panel()).getByRole('progressbar')).toBeInTheDocument();
  });

  it('lets the owner scan now: a POST with no body, a toast, the progress, then new songs in the list when it ends', async () => {
    let state: MusicFoldersResponse = answer({ canScan: true });
    let songs = 2;
    const { requests } = stubFetch({
      'GET /api/files': filesRoute(() => makeSongs(songs)),
      'GET /api/music-folders': () => ({ body: state }),
      'POST /api/music-folders/scan': () => {
        state = { ...state, scan: { ...running, done: 0 } };
        return { status: 202, body: state.scan };
      },
    });
    const user = userEvent.setup();
    renderApp('/music');
    const scanNow = await screen.findByRole('button', { name: 'Scan now' });
    await user.click(scanNow);

    const post = requests.find((r) => r.method === 'POST');
    expect(post?.path).toBe('/api/music-folders/scan');
    expect(post?.body).toBeUndefined();
    expect(post?.headers.has('Content-Type')).toBe(false);
    expect(await screen.findByText('Scan started')).toBeInTheDocument();
    expect(await screen.findByText('Scanning: 0 of 4,800 files')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeDisabled();

    // The scan ends with a new song: the panel's next poll (2 s while running) sees it, and the list reloads.
    songs = 3;
    state = { ...state, folders: [{ id: 1, path: '/srv/music', songs: 4792, available: true }], scan: { ...idle, finishedAt: new Date().toISOString() } };
    expect(await screen.findByText('Song 3', undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByText('Music folders: 4,792 songs')).toBeInTheDocument();
    expect(within(panel()).getByText(/last scanned just now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeEnabled();
  });

  it("toasts the server's refusal of a scan", async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'GET /api/music-folders': { body: answer({ canScan: true }) },
      'POST /api/music-folders/scan': { status: 403, body: { message: 'Only an admin can start a scan.' } },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Scan now' }));
    expect(await screen.findByText('Only an admin can start a scan.')).toBeInTheDocument();
  });

  it('offers no Scan now to anyone but the owner', async () => {
    stubFetch({ 'GET /api/files': filesRoute(makeSongs(2)), 'GET /api/music-folders': { body: answer({ canScan: false }) } });
    renderApp('/music');
    await screen.findByText('Music folders: 4,791 songs');
    expect(screen.queryByRole('button', { name: 'Scan now' })).not.toBeInTheDocument();
  });

  it('shows a failed scan with its reason, and a folder that cannot be read', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'GET /api/music-folders': {
        body: answer({
          folders: [
            { id: 1, path: '/srv/music', songs: 10, available: true },
            { id: 2, path: '/mnt/nas/music', songs: 5, available: false },
          ],
          scan: { ...idle, state: 'failed', error: 'The database went away' },
        }),
      },
    });
    renderApp('/music');
    expect(await screen.findByRole('alert')).toHaveTextContent('The last scan failed: The database went away');
    expect(within(panel()).getByRole('listitem')).toHaveTextContent('Not available: /mnt/nas/music');
    expect(within(panel()).getByText('Music folders: 15 songs')).toBeInTheDocument();
  });

  it('lists the scan report: folder, file and reason, and says when only the first problems came', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'GET /api/music-folders': {
        body: answer({
          problems: [
            { folder: '/srv/music', path: 'Rock/broken.mp3', reason: 'Truncated: the file ends inside an audio frame' },
            { folder: '/srv/music', path: 'notes.pdf.mp3', reason: 'Not an audio file' },
            { folder: '/mnt/nas/music', path: '', reason: 'Permission denied' },
          ],
          problemCount: 1203,
        }),
      },
    });
    const user = userEvent.setup();
    renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Scan report (1,203)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan report' });
    const items = within(within(dialog).getByRole('list', { name: 'Scan report' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('FileRock/broken.mp3Folder/srv/musicReasonTruncated: the file ends inside an audio frame');
    expect(items[2]).toHaveTextContent('The folder itself');
    expect(items[2]).toHaveTextContent('Permission denied');
    expect(within(dialog).getByText('Showing the first 3 of 1,203 problems.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Scan report (1,203)' })).toHaveFocus();
  });
});
