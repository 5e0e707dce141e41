import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

describe('the analysis progress line of the AI playlist page', { timeout: 30_000 }, () => {
  it('counts the songs that could not be analysed apart from the analysed ones', async () => {
    stubFetch({
      'GET /api/ai/analysis-progress': {
        body: { total: 180, analysed: 37, failed: 143, pending: 0, running: false, label: 'Analysed 37 of 180 songs · 143 could not be analysed' },
      },
    });
    renderApp('/ai-playlist');
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent('Analysed 37 of 180 songs · 143 could not be analysed');
    // Nothing is waiting: the hint about songs joining later would not be true.
    expect(line).not.toHaveTextContent('Songs still waiting for analysis');
  });

  it('shows the failures beside the songs still waiting, and the bar counts both as done', async () => {
    stubFetch({
      'GET /api/ai/analysis-progress': {
        body: { total: 200, analysed: 50, failed: 30, pending: 120, running: true, label: 'Analysed 50 of 200 songs · 30 could not be analysed' },
      },
    });
    renderApp('/ai-playlist');
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent('Analysed 50 of 200 songs · 30 could not be analysed');
    expect(line).toHaveTextContent('Songs still waiting for analysis join the answers once it finishes.');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String((80 / 200) * 100));
  });

  it('says nothing once every song is analysed', async () => {
    const { requests } = stubFetch({
      'GET /api/ai/analysis-progress': { body: { total: 3, analysed: 3, failed: 0, pending: 0, running: false, label: 'Analysed 3 of 3 songs' } },
    });
    renderApp('/ai-playlist');
    await waitFor(() => expect(requests.some((request) => request.path === '/api/ai/analysis-progress')).toBe(true));
    expect(screen.queryByText(/Analysed/)).toBeNull();
  });
});
