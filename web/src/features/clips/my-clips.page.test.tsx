import type { ClipSummary } from '@encore/common/clips.contract';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signInForTest } from '../../test/song-fixture';

configure({ asyncUtilTimeout: 5000 });
beforeEach(() => signInForTest());

function clip(id: number, extra: Partial<ClipSummary> = {}): ClipSummary {
  return {
    id,
    taskId: `task-${id}`,
    songId: 1,
    songTitle: 'Night Drive',
    status: 'done',
    format: 'mp4',
    quality: 'medium',
    aspectRatio: '16:9',
    width: 1280,
    height: 720,
    durationSeconds: 65,
    sizeBytes: 2_500_000,
    videoUrl: `/api/clips/${id}/video?sig=x`,
    downloadUrl: `/api/clips/${id}/video?sig=x&download=1`,
    error: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

describe('My clips', { timeout: 20_000 }, () => {
  it('lists the clips: plays a finished one, offers its download, and says why another failed', async () => {
    stubFetch({
      'GET /api/clips': { body: { clips: [clip(2), clip(1, { status: 'error', videoUrl: null, downloadUrl: null, error: 'The video has no picture.' })] } },
    });
    const user = userEvent.setup();
    renderApp('/clips');
    expect(screen.getByRole('heading', { level: 1, name: 'My Clips' })).toBeInTheDocument();
    const cards = await screen.findAllByTestId('my-clip');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('MP4 · 720p · 16:9 · 1:05 · 2.4 MB')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: 'Download the clip of Night Drive' })).toHaveAttribute('href', '/api/clips/2/video?sig=x&download=1');
    await user.click(within(cards[0]!).getByRole('button', { name: 'Play the clip of Night Drive' }));
    expect(within(cards[0]!).getByLabelText('Clip of Night Drive')).toHaveAttribute('src', '/api/clips/2/video?sig=x');
    expect(within(cards[1]!).getByText('The video has no picture.')).toBeInTheDocument();
    expect(within(cards[1]!).queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('deletes a clip only after confirming, and drops its card', async () => {
    const { requests } = stubFetch({
      'GET /api/clips': { body: { clips: [clip(3)] } },
      'DELETE /api/clips/3': { status: 204, body: null },
    });
    const user = userEvent.setup();
    renderApp('/clips');
    const card = await screen.findByTestId('my-clip');
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this clip?' });
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Clip deleted')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'DELETE' && request.path === '/api/clips/3')).toBe(true);
  });

  it('shows the empty state with a way to the editor', async () => {
    stubFetch({ 'GET /api/clips': { body: { clips: [] } } });
    renderApp('/clips');
    expect(await screen.findByRole('heading', { name: 'No clips yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New Clip' })[0]).toHaveAttribute('href', '/song2clip');
  });
});
