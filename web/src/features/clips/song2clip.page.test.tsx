import { DEFAULT_CLIP_SETTINGS, type ClipSettings } from '@encore/common/clips.contract';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, type RecordedRequest, type StubResponse } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';
import { clipEditor } from './clip-editor.store';

// A shared 2-core machine: give the page time to answer.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  signInForTest();
  clipEditor.reset();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:picture'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.useRealTimers());

const words = [
  { text: 'Hello', start: 1, end: 1.5 },
  { text: 'world', start: 1.6, end: 2 },
];
const png = (name: string) => new File(['png'], name, { type: 'image/png' });

function server(statuses: StubResponse[], create: StubResponse = { status: 202, body: { task_id: 'task-1' } }) {
  let poll = 0;
  return stubFetch({
    'GET /api/files': (request: RecordedRequest) => ({ body: request.path.includes('q=zzz') ? [] : [makeSong(1, { displayName: 'Night Drive' })] }),
    'GET /api/files/1/lyrics': { body: { words } },
    'GET /api/files/1/play': { body: { url: '/stream/1' } },
    'POST /api/clips/create-clip': create,
    'GET /api/clips/clip-status/task-1': () => statuses[Math.min(poll++, statuses.length - 1)]!,
    'GET /api/clips': { body: { clips: [] } },
  });
}

const status = (state: string, progress: number, extra: object = {}) => ({
  body: { status: state, video_url: null, message: null, progress, clip_id: 9, ...extra },
});

async function chooseSongAndPictures(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), 'night');
  await user.click(await screen.findByRole('button', { name: /Night Drive/ }));
  expect(await screen.findByText('2 timed words from the lyrics')).toBeInTheDocument();
  await user.upload(screen.getByLabelText('Choose pictures or a video'), [png('one.png'), png('two.png')]);
  expect(screen.getAllByTestId('clip-media-item')).toHaveLength(2);
}

/** The editor with a song that has no lyrics chosen; create-clip and the status answer as given, clip 9 deletes. */
async function songWithoutWordsChosen(create: Parameters<typeof stubFetch>[0][string], clipStatus: StubResponse) {
  const { requests } = stubFetch({
    'GET /api/files': { body: [makeSong(1, { displayName: 'Night Drive' })] },
    'GET /api/files/1/lyrics': { status: 404, body: { message: 'No lyrics' } },
    'GET /api/files/1/play': { body: { url: '/stream/1' } },
    'POST /api/clips/create-clip': create,
    'GET /api/clips/clip-status/task-1': clipStatus,
    'DELETE /api/clips/9': { status: 204 },
  });
  const user = userEvent.setup();
  renderApp('/song2clip');
  await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), 'night');
  await user.click(await screen.findByRole('button', { name: /Night Drive/ }));
  expect(await screen.findByText(/This song has no lyrics yet/)).toBeInTheDocument();
  return { requests, user };
}

// The renderer is polled every 2 s (SPEC 9), in real time: these tests take seconds.
describe('Song2Clip editor', { timeout: 20_000 }, () => {
  it('shows the editor with the Media tab first and says when the search finds no song', async () => {
    const { requests } = server([]);
    const user = userEvent.setup();
    renderApp('/song2clip');
    expect(screen.getByRole('heading', { level: 1, name: 'Song2Clip Editor' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Media', selected: true })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search songs' }), 'zzz');
    expect(await screen.findByText('No songs found')).toBeInTheDocument();
    // The server searches; the whole library is never loaded.
    expect(requests.some((r) => r.path === '/api/files?q=zzz&limit=50')).toBe(true);
    expect(screen.getByRole('list', { name: 'Songs' })).toHaveStyle({ maxHeight: '300px' });
  });

  it('alerts "Please select a song first." and sends nothing without a song', async () => {
    const { requests } = server([]);
    const user = userEvent.setup();
    renderApp('/song2clip');
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByText('Please select a song first.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('creates the clip with the words, the song and the pictures, follows progress and shows the created clip', async () => {
    const { requests } = server([status('running', 40, { message: 'Encoding' }), status('done', 100, { video_url: '/api/clips/9/video' })]);
    const user = userEvent.setup();
    renderApp('/song2clip');
    await chooseSongAndPictures(user);
    await user.click(screen.getByRole('tab', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Bold' }));

    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByRole('button', { name: /Creating Clip\.\.\./ })).toBeDisabled();
    expect(await screen.findByText('Rendering: 40%')).toBeInTheDocument();

    const post = requests.find((r) => r.method === 'POST')!;
    const settings = JSON.parse(post.form!.get('settings') as string) as ClipSettings;
    expect(settings).toEqual({ ...DEFAULT_CLIP_SETTINGS, words, textStyles: { bold: true, italic: false, underline: false } });
    expect(post.form!.get('songUrl')).toBe('/api/files/1/play');
    expect((post.form!.getAll('mediaFiles') as File[]).map((file) => file.name)).toEqual(['one.png', 'two.png']);

    expect(await screen.findByText('Clip created successfully!', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Created Clip Preview' })).toBeInTheDocument();
    const video = screen.getByTestId('created-clip-video');
    expect(video).toHaveAttribute('src', '/api/clips/9/video');
    expect(video).toHaveAttribute('controls');
    expect(video).not.toHaveAttribute('autoplay');
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();
    expect(requests.filter((r) => r.path === '/api/clips/clip-status/task-1')).toHaveLength(2);
  });

  it('says why a render failed, why a poll failed and why creation failed, and ends busy each time', async () => {
    const user = userEvent.setup();
    server([status('error', 0, { message: 'ffmpeg exited' })]);
    const view = renderApp('/song2clip');
    await chooseSongAndPictures(user);
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByText('Error creating clip: ffmpeg exited')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();

    server([{ status: 500, body: { message: 'database down' } }]);
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByText('Error checking status: database down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();

    server([], { status: 400, body: { message: 'mediaFiles: "two.png" is not a picture' } });
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByText('Error: mediaFiles: "two.png" is not a picture')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();
    view.unmount();
  });

  it('cancels a running render by deleting its clip', async () => {
    const { requests, user } = await songWithoutWordsChosen({ status: 202, body: { task_id: 'task-1' } }, status('running', 10));
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    expect(await screen.findByText('Rendering: 10%')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Clip creation cancelled')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/clips/9']);
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();
  });

  it('cancelled while the files are still on their way, it stops the render their answer started', async () => {
    let answer: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (answer = resolve));
    const { requests, user } = await songWithoutWordsChosen(
      async () => {
        await sent;
        return { status: 202, body: { task_id: 'task-1' } };
      },
      status('queued', 0),
    );
    await user.click(screen.getByRole('button', { name: 'Create Clip' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Clip creation cancelled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Clip' })).toBeEnabled();
    answer();
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/clips/9']));
  });

  it('keeps media rules: the first file decides, removing the last picture resets, clear empties files and song', async () => {
    server([]);
    const user = userEvent.setup();
    renderApp('/song2clip');
    await chooseSongAndPictures(user);
    await user.click(screen.getByRole('button', { name: 'Remove one.png' }));
    await user.click(screen.getByRole('button', { name: 'Remove two.png' }));
    expect(screen.queryAllByTestId('clip-media-item')).toHaveLength(0);
    await user.upload(screen.getByLabelText('Choose pictures or a video'), [new File(['v'], 'v.mp4', { type: 'video/mp4' })]);
    expect(screen.getAllByTestId('clip-media-item')).toHaveLength(1);
    expect(screen.queryByText('Add more pictures')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryAllByTestId('clip-media-item')).toHaveLength(0);
    expect(screen.getByRole('searchbox', { name: 'Search songs' })).toBeInTheDocument();
  });

  it('uses SPEC 5 slider limits and shows the background sliders only while the background is on', async () => {
    server([]);
    const user = userEvent.setup();
    renderApp('/song2clip');
    await user.click(screen.getByRole('tab', { name: 'Text' }));
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveAttribute('min', '10');
    expect(screen.getByRole('slider', { name: 'Font size' })).toHaveAttribute('max', '72');
    expect(screen.getByRole('slider', { name: 'Letter spacing' })).toHaveAttribute('step', '0.5');
    expect(screen.getByRole('slider', { name: 'Line height' })).toHaveAttribute('min', '0.8');
    await user.click(screen.getByText('Text Background'));
    expect(screen.getByRole('slider', { name: 'Background opacity' })).toHaveAttribute('step', '5');
    await user.click(screen.getByRole('switch', { name: 'Show background' }));
    expect(screen.queryByRole('slider', { name: 'Background opacity' })).not.toBeInTheDocument();
    expect(screen.queryByRole('slider', { name: 'Corner radius' })).not.toBeInTheDocument();
    expect(screen.queryByRole('slider', { name: 'Padding' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Effects' }));
    await user.click(screen.getByText('Video Settings'));
    expect(
      within(screen.getByLabelText('Quality'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['480p', '720p', '1080p', '4K']);
    expect(screen.getByRole('slider', { name: 'Framerate' })).toHaveAttribute('max', '60');
    expect(screen.queryByRole('switch', { name: 'Beat detection' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Advanced effects' }));
    for (const name of ['Beat detection', 'Auto sync', 'Colour match', 'Auto subtitles']) expect(screen.getByRole('switch', { name })).toBeInTheDocument();
  });

  it('opens the "available soon" tooltip of the disabled card after 700 ms', async () => {
    server([]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderApp('/song2clip');
    await user.click(screen.getByRole('tab', { name: 'Effects' }));
    await user.hover(screen.getByText('Advanced settings'));
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(150));
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Advanced settings will be available soon'));
  });
});
