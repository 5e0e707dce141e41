import type { SongAnalysis } from '@encore/common/analysis.contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage, translate } from '../../lib/i18n/i18n.store';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSong, makeSongs, signInForTest } from '../../test/song-fixture';
import { analysisLine } from './song-sound.component';

beforeEach(signInForTest);

const analysed: SongAnalysis = {
  status: 'analysed',
  analysedAt: '2026-03-05T12:01:00Z',
  summary: '120 BPM · A minor · high energy',
  features: {
    bpm: 119.6,
    bpmConfidence: 0.9,
    key: 'A',
    mode: 'minor',
    keyStrength: 0.8,
    loudnessLufs: -9,
    loudnessRange: 5,
    energy: 0.8,
    energyLevel: 'high',
    danceability: 0.7,
    spectralCentroidHz: 2500,
    brightness: 0.6,
    onsetRate: 4,
    dynamicComplexity: 3,
    acousticness: 0.2,
    vocalPresence: 0.5,
  },
};
const failed: SongAnalysis = { status: 'failed', analysedAt: '2026-03-05T12:01:00Z', reason: 'The audio could not be decoded' };

const neighbours = makeSongs(2, (index) => ({ id: 10 + index, displayName: `Near ${index}` }));
const moreLikeThis = {
  id: 77,
  name: 'More like Song 5',
  description: 'Songs that sound like Song 5',
  songs: neighbours.map((song) => ({ ...song, reason: 'similar tempo and key' })),
  prompt: 'More like Song 5',
  aiGenerated: true,
  interpreter: 'embedded',
  note: null,
};

describe("the song page's sound line and More like this", { timeout: 30_000 }, () => {
  it('says the analysis in words, in English and Hebrew', () => {
    const en = (key: Parameters<typeof translate>[0], params?: Parameters<typeof translate>[1]) => translate(key, params, 'en');
    const he = (key: Parameters<typeof translate>[0], params?: Parameters<typeof translate>[1]) => translate(key, params, 'he');
    expect(analysisLine(analysed, en)).toBe('120 BPM · A minor · high energy');
    // In Hebrew the tempo is an isolated left-to-right run, so "BPM" stays after the number.
    setLanguage('he');
    try {
      expect(analysisLine(analysed, he)).toBe('\u2066120 BPM\u2069 · A מינור · אנרגיה גבוהה');
    } finally {
      setLanguage('en');
    }
    expect(analysisLine(null, en)).toBe('Waiting for sonic analysis');
    expect(analysisLine(failed, en)).toBe('Sonic analysis could not read this song');
  });

  it('More like this makes a playlist of similar songs and opens it', async () => {
    const { requests } = stubFetch({
      'GET /api/files/5': { body: { ...makeSong(5), analysis: analysed } },
      'POST /api/songs/5/more-like-this': { body: moreLikeThis },
      'GET /api/playlists/77': { body: makePlaylist(77, neighbours, { name: 'More like Song 5' }) },
      'GET /api/playlists': { body: [] },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music/5');
    expect(await screen.findByTestId('song-analysis')).toHaveTextContent('120 BPM · A minor · high energy');
    await user.click(screen.getByRole('button', { name: 'More like this' }));
    expect(await screen.findByText('Playlist generated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/playlists/77'));
    expect(await screen.findByRole('heading', { level: 1, name: 'More like Song 5' })).toBeInTheDocument();
    expect(requests.filter((request) => request.path === '/api/songs/5/more-like-this')).toHaveLength(1);
  });

  it('waits for the analysis before offering More like this', async () => {
    stubFetch({ 'GET /api/files/5': { body: { ...makeSong(5), analysis: null } } });
    renderApp('/music/5');
    expect(await screen.findByTestId('song-analysis')).toHaveTextContent('Waiting for sonic analysis');
    expect(screen.getByRole('button', { name: 'More like this' })).toBeDisabled();
  });

  it('says so when the song could not be analysed', async () => {
    stubFetch({ 'GET /api/files/5': { body: { ...makeSong(5), analysis: failed } } });
    renderApp('/music/5');
    expect(await screen.findByTestId('song-analysis')).toHaveTextContent('Sonic analysis could not read this song');
    expect(screen.getByRole('button', { name: 'More like this' })).toBeDisabled();
  });

  it("shows the server's reason when no playlist can be made", async () => {
    const message = 'No other analysed song in your library is similar enough to this one yet.';
    stubFetch({
      'GET /api/files/5': { body: { ...makeSong(5), analysis: analysed } },
      'POST /api/songs/5/more-like-this': { status: 422, body: { message } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music/5');
    await user.click(await screen.findByRole('button', { name: 'More like this' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(currentPath(router)).toBe('/music/5');
  });
});
