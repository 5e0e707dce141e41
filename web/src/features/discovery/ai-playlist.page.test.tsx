import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makePlaylist } from '../../test/playlist-fixture';
import { currentPath, renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';
import { player } from '../../player/player.store';

beforeEach(signInForTest);

const songs = makeSongs(3, (index) => ({ displayName: `Track ${index}`, artist: `Artist ${index}` }));
const answer = {
  id: 42,
  name: 'Calm evening',
  description: 'From the prompt "peaceful piano for the evening"',
  songs: songs.map((song, index) => ({ ...song, reason: ['slow, quiet, minor key', 'soft, acoustic', ''][index] })),
  prompt: 'peaceful piano for the evening',
  aiGenerated: true,
  interpreter: 'embedded',
  note: 'answered from 412 of 530 analysed songs',
};
const saved = makePlaylist(42, songs, { name: 'Calm evening', description: answer.description });

const prompt = () => screen.getByLabelText('Your prompt');
const generateButton = () => screen.getByRole('button', { name: 'Generate Playlist' });

// Whole journeys through the page: allowed more than the default 5 s on a busy machine.
describe('AI playlist generator', { timeout: 30_000 }, () => {
  it('offers five example prompts and ten mood chips; Generate waits for a prompt', () => {
    stubFetch({});
    renderApp('/ai-playlist');
    expect(screen.getByRole('heading', { level: 1, name: 'AI Playlist Creator' })).toBeInTheDocument();
    const examples = within(screen.getByRole('group', { name: 'Try an example' })).getAllByRole('button');
    expect(examples).toHaveLength(5);
    const moods = within(screen.getByRole('group', { name: 'Moods' })).getAllByRole('button');
    expect(moods.map((chip) => chip.textContent)).toEqual([
      'Energetic',
      'Relaxing',
      'Nostalgic',
      'Romantic',
      'Melancholic',
      'Uplifting',
      'Focused',
      'Dreamy',
      'Intense',
      'Peaceful',
    ]);
    expect(generateButton()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Back to Playlists' })).toHaveAttribute('href', '/playlists');
  });

  it('a mood chip appends its lowercase name; deselecting leaves the text; an example replaces it', async () => {
    stubFetch({});
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), 'songs for coding');
    const relaxing = screen.getByRole('button', { name: 'Relaxing' });
    await user.click(relaxing);
    expect(relaxing).toHaveAttribute('aria-pressed', 'true');
    expect(prompt()).toHaveValue('songs for coding relaxing');
    await user.click(screen.getByRole('button', { name: 'Dreamy' }));
    expect(prompt()).toHaveValue('songs for coding relaxing dreamy');
    await user.click(relaxing);
    expect(relaxing).toHaveAttribute('aria-pressed', 'false');
    expect(prompt()).toHaveValue('songs for coding relaxing dreamy');
    await user.click(screen.getByRole('button', { name: /something calm to fall asleep to/ }));
    expect(prompt()).toHaveValue('something calm to fall asleep to');
    expect(generateButton()).toBeEnabled();
  });

  it('refuses a blank prompt with the spec message and sends nothing', async () => {
    const { requests } = stubFetch({});
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), '   ');
    await user.click(generateButton());
    expect(await screen.findAllByText('Please enter a prompt to generate a playlist')).toHaveLength(2); // field and toast
    expect(prompt()).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('generates: the AI badge, the songs with their reasons, the coverage note, View Playlist and Create Another', async () => {
    const { requests } = stubFetch({
      'POST /api/playlists/generate-playlist-by-prompt': { body: answer },
      'GET /api/playlists/42': { body: saved },
      'GET /api/playlists': { body: [] },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/ai-playlist');
    await user.click(screen.getByRole('button', { name: 'Peaceful' }));
    await user.type(prompt(), ' piano for the evening');
    await user.click(generateButton());

    expect(await screen.findByText('Playlist generated successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ prompt: 'peaceful piano for the evening' });
    expect(screen.getByText('AI Generated')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Calm evening' })).toBeInTheDocument();
    // The wait is over: no "Generating your playlist 100%" under the answer.
    expect(screen.queryByRole('progressbar', { name: 'Generating your playlist' })).toBeNull();
    expect(screen.queryByText('Generating your playlist')).toBeNull();
    const rows = screen.getAllByTestId('generated-song');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('slow, quiet, minor key')).toBeInTheDocument();
    expect(within(rows[2]!).queryByTestId('song-reason')).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent('Analysed 412 of 530 songs');
    expect(screen.queryByLabelText('Your prompt')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Create Another' }));
    expect(prompt()).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Peaceful' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByText('AI Generated')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();

    await user.type(prompt(), 'again');
    await user.click(generateButton());
    await user.click(await screen.findByRole('link', { name: 'View Playlist' }));
    await waitFor(() => expect(currentPath(router)).toBe('/playlists/42'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Calm evening' })).toBeInTheDocument();
  });

  it('plays a generated song from its row; clicking the song that plays closes the player (SPEC 4)', async () => {
    stubFetch({
      'POST /api/playlists/generate-playlist-by-prompt': { body: answer },
      'GET /api/playlists': { body: [] },
      [`GET /api/files/${songs[1]!.id}/play`]: { body: { url: '/stream/1' } },
    });
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), 'peaceful piano for the evening');
    await user.click(generateButton());
    const row = (await screen.findAllByTestId('generated-song'))[1]!;
    await user.click(within(row).getByRole('button', { name: 'Play Track 2' }));
    expect(player.getState().current?.id).toBe(songs[1]!.id);
    expect(await screen.findByRole('region', { name: 'Player' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Stop Track 2' }));
    expect(player.getState().current).toBeNull();
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Play Track 2' })).toBeInTheDocument();
  });

  it('says why when the library cannot answer (the server message), and keeps the prompt', async () => {
    const message = 'None of your songs has been analysed yet. Analysis runs in the background after upload; try again in a minute.';
    stubFetch({ 'POST /api/playlists/generate-playlist-by-prompt': { status: 422, body: { message } } });
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), 'rock');
    await user.click(generateButton());
    expect(await screen.findByRole('heading', { name: 'No playlist this time' })).toBeInTheDocument();
    expect(within(screen.getByRole('alert')).getByText(message)).toBeInTheDocument();
    // Said once, in the panel: no toast repeats it.
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
    expect(screen.queryByRole('progressbar', { name: 'Generating your playlist' })).toBeNull();
    expect(prompt()).toHaveValue('rock');
    expect(generateButton()).toBeEnabled();
  });

  it('shows the bar only while generating', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    stubFetch({
      'POST /api/playlists/generate-playlist-by-prompt': async () => {
        await answered;
        return { body: answer };
      },
      'GET /api/playlists': { body: [] },
    });
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), 'calm');
    await user.click(generateButton());
    expect(await screen.findByRole('progressbar', { name: 'Generating your playlist' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { level: 2, name: 'Calm evening' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Generating your playlist' })).toBeNull();
  });

  it('says how much of the library is analysed while analysis is under way', async () => {
    stubFetch({
      'GET /api/ai/analysis-progress': {
        body: { total: 530, analysed: 412, failed: 0, pending: 118, running: true, label: 'Analysed 412 of 530 songs' },
      },
    });
    renderApp('/ai-playlist');
    expect(await screen.findByText('Analysed 412 of 530 songs')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Analysed 412 of 530 songs' })).toHaveAttribute('aria-valuenow', String((412 / 530) * 100));
  });

  it('says nothing of the analysis once every song is analysed', async () => {
    const { requests } = stubFetch({
      'GET /api/ai/analysis-progress': { body: { total: 3, analysed: 3, failed: 0, pending: 0, running: false, label: 'Analysed 3 of 3 songs' } },
    });
    renderApp('/ai-playlist');
    await waitFor(() => expect(requests.some((request) => request.path === '/api/ai/analysis-progress')).toBe(true));
    expect(screen.queryByText(/Analysed/)).toBeNull();
  });

  it("shows the spec's failure toast when the server fails", async () => {
    stubFetch({ 'POST /api/playlists/generate-playlist-by-prompt': { status: 500, body: { message: 'Internal error' } } });
    const user = userEvent.setup();
    renderApp('/ai-playlist');
    await user.type(prompt(), 'rock');
    await user.click(generateButton());
    expect(await screen.findByText('Failed to generate playlist. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('Internal error')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'No playlist this time' })).toBeNull();
  });
});
