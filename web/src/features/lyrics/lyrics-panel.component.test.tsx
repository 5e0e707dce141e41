import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { player } from '../../player/player.store';
import { stubFetch } from '../../test/fetch-stub';
import { makeLyrics, timedLyrics, transcriptionTask } from '../../test/lyrics-fixture';
import { renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const song = makeSong(5, { displayName: 'Nova - Blue Hour', title: 'Blue Hour', artist: 'Nova' });

async function panel() {
  return within(await screen.findByTestId('lyrics-panel'));
}

describe('lyrics panel', { timeout: 20_000 }, () => {
  it('shows the lyrics with line and character counts, and turns karaoke on with the spec toast', async () => {
    const user = userEvent.setup();
    stubFetch({ 'GET /api/files/5': { body: song }, 'GET /api/files/5/lyrics': { body: timedLyrics(5) } });
    renderApp('/music/5');
    const lyrics = await panel();
    expect(await lyrics.findByText('hello bright world')).toBeInTheDocument();
    expect(lyrics.getByTestId('lyrics-counts')).toHaveTextContent('3 lines · 41 characters');
    expect(lyrics.getByText(/Imported · Timed word by word/)).toBeInTheDocument();
    expect(lyrics.getByRole('link', { name: 'Word timings' })).toHaveAttribute('href', '/music/5/words');

    await user.click(lyrics.getByRole('button', { name: 'Karaoke' }));
    expect(await screen.findByText('Karaoke mode activated! Lyrics will highlight in sync with the music.')).toBeInTheDocument();
    const lines = lyrics.getByTestId('karaoke-lines');
    // Each sung word is its own element, timed, so it can fill as it is sung.
    expect(within(lines).getByText('bright')).toHaveAttribute('data-word-start', '1.6');
    expect(lyrics.getByRole('button', { name: 'Karaoke' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("highlights the line at the player's time and seeks when a line is clicked", async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:song-5' } },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Karaoke' }));
    await user.click(lyrics.getByRole('button', { name: 'Play from "sing along now"' }));
    // The app's one player starts the song there once its metadata is in.
    const audio = document.querySelector<HTMLAudioElement>('audio[data-encore-player]')!;
    await waitFor(() => expect(audio.getAttribute('src')).toBe('blob:song-5'));
    act(() => {
      audio.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(player.getState().currentTime).toBe(4);
    await waitFor(() => expect(lyrics.getByTestId('karaoke-lines').querySelector('[data-active="true"]')).toHaveTextContent('sing along now'));
    act(() => player.seek(1.2));
    await waitFor(() => expect(lyrics.getByTestId('karaoke-lines').querySelector('[data-active="true"]')).toHaveTextContent('hello bright world'));
  });

  it('edits and saves the text; the uploader only', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'PUT /api/files/5/lyrics': (request) => {
        const transcript = (request.body as { transcript: string }).transcript;
        return { body: { ...timedLyrics(5, { text: transcript, source: 'edited' }), transcript } };
      },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Edit' }));
    const box = lyrics.getByRole('textbox', { name: 'Lyrics text' });
    await user.clear(box);
    await user.type(box, 'a new first line');
    await user.click(lyrics.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lyrics saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ transcript: 'a new first line' });
    expect(await lyrics.findByText('a new first line')).toBeInTheDocument();
    expect(lyrics.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('keeps the edit open and says why when the save fails', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'PUT /api/files/5/lyrics': { status: 400, body: { message: 'Lyrics are at most 5000 lines' } },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Edit' }));
    await user.type(lyrics.getByRole('textbox', { name: 'Lyrics text' }), ' more');
    await user.click(lyrics.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save lyrics')).toBeInTheDocument();
    expect(screen.getByText('Lyrics are at most 5000 lines')).toBeInTheDocument();
    expect(lyrics.getByRole('textbox', { name: 'Lyrics text' })).toHaveValue('[Verse]\nhello bright world\nsing along now more');
  });

  it('hides editing from others', async () => {
    stubFetch({ 'GET /api/files/5': { body: { ...song, isOwner: false } }, 'GET /api/files/5/lyrics': { body: timedLyrics(5, { canEdit: false }) } });
    renderApp('/music/5');
    const lyrics = await panel();
    await lyrics.findByText('hello bright world');
    expect(lyrics.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(lyrics.queryByRole('link', { name: 'Word timings' })).not.toBeInTheDocument();
    expect(lyrics.getByRole('button', { name: 'Karaoke' })).toBeInTheDocument();
  });

  it('imports pasted LRC when there are no lyrics', async () => {
    const user = userEvent.setup();
    const lrc = '[00:01.00]first line\n[00:03.50]second line';
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5) },
      'PUT /api/files/5/lyrics': {
        body: {
          ...makeLyrics(5, { hasLyrics: true, text: 'first line\nsecond line', timing: 'line', source: 'imported' }),
          transcript: 'first line\nsecond line',
        },
      },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    expect(await lyrics.findByText('No lyrics yet')).toBeInTheDocument();
    expect(lyrics.getByRole('button', { name: 'Transcribe Lyrics with AI' })).toBeInTheDocument();
    expect(lyrics.getByRole('button', { name: 'Find lyrics online' })).toBeInTheDocument();
    await user.click(lyrics.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import lyrics' });
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Paste lyrics or choose a file first.');
    await user.click(within(dialog).getByRole('textbox'));
    await user.paste(lrc);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Lyrics saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ transcript: lrc });
    expect(await lyrics.findByText('second line')).toBeInTheDocument();
  });

  it('refuses a file too large to be lyrics before sending it', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({ 'GET /api/files/5': { body: song }, 'GET /api/files/5/lyrics': { body: makeLyrics(5) } });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import lyrics' });
    const big = new File(['x'.repeat(600 * 1024)], 'huge.lrc', { type: 'text/plain' });
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, big);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That file is too large to be lyrics (512.0 KB at most).');
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);
  });

  it('lists the lyrics found online with their kind and applies the chosen one', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5, { canEdit: false }) },
      'GET /api/files/5/lyrics/online': {
        body: {
          query: { title: 'Blue Hour', artist: 'Nova', album: null, durationSeconds: 180 },
          candidates: [
            {
              id: 11,
              trackName: 'Blue Hour',
              artistName: 'Nova',
              albumName: 'Night',
              durationSeconds: 181,
              kind: 'synced',
              preview: 'In the blue hour',
              lineCount: 20,
            },
            {
              id: 12,
              trackName: 'Blue Hour (Live)',
              artistName: 'Nova',
              albumName: null,
              durationSeconds: null,
              kind: 'plain',
              preview: 'In the blue',
              lineCount: 18,
            },
          ],
        },
      },
      'POST /api/files/5/lyrics/online': {
        body: { ...makeLyrics(5, { hasLyrics: true, text: 'In the blue hour', timing: 'line', source: 'lookup' }), transcript: 'In the blue hour' },
      },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    // Someone else's song without lyrics: they may look up, but not import.
    expect(lyrics.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    await user.click(await lyrics.findByRole('button', { name: 'Find lyrics online' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lyrics found online' });
    const candidates = await within(dialog).findAllByTestId('lyrics-candidate');
    expect(candidates[0]).toHaveTextContent('Synced');
    expect(candidates[1]).toHaveTextContent('Plain');
    await user.click(within(candidates[1]!).getByRole('button', { name: 'Use these' }));
    expect(await screen.findByText('Lyrics saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ candidateId: 12, kind: 'plain' });
    expect(await lyrics.findByText('In the blue hour')).toBeInTheDocument();
  });

  it("says when the lookup fails, with the server's reason", async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5) },
      'GET /api/files/5/lyrics/online': { status: 503, body: { message: 'The lyrics service could not be reached; check the connection and try again' } },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Find lyrics online' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lyrics found online' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The lyrics service could not be reached');
  });

  it("transcribes with the task's progress, then shows the lyrics", async () => {
    const user = userEvent.setup();
    let transcribed = false;
    const answers = [transcriptionTask('t9', 'running', 40), transcriptionTask('t9', 'done', 100)];
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': () => ({ body: transcribed ? timedLyrics(5, { source: 'transcribed' }) : makeLyrics(5) }),
      'POST /api/files/5/lyrics/transcription': { body: { taskId: 't9' } },
      'GET /api/tasks/t9': () => {
        const next = answers.shift()!;
        transcribed = next.state === 'done';
        return { body: next };
      },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Transcribe Lyrics with AI' }));
    const progress = await lyrics.findByTestId('lyrics-transcribing');
    expect(progress).toHaveTextContent('Transcribing lyrics…');
    await waitFor(() => expect(progress).toHaveTextContent('40%'));
    expect(await screen.findByText('Lyrics transcribed successfully!', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(await lyrics.findByText('hello bright world')).toBeInTheDocument();
    expect(lyrics.getByText(/Transcribed/)).toBeInTheDocument();
  });

  it('says on the panel, in words for people, that a transcription failed, and keeps offering it (issue 37)', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5) },
      'POST /api/files/5/lyrics/transcription': { body: { taskId: 't10' } },
      'GET /api/tasks/t10': { body: transcriptionTask('t10', 'failed', 10, 'The speech model could not be downloaded: set TRANSCRIBE_MODEL_DIR') },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Transcribe Lyrics with AI' }));
    const failed = await lyrics.findByTestId('lyrics-transcribe-failed');
    expect(failed).toHaveTextContent('Failed to transcribe lyrics');
    expect(failed).toHaveTextContent('Try again in a while');
    // The technical reason is for the server's log, not for the listener.
    expect(screen.queryByText(/TRANSCRIBE_MODEL_DIR/)).toBeNull();
    expect(await lyrics.findByRole('button', { name: 'Transcribe Lyrics with AI' })).toBeInTheDocument();
  });

  it('says why a transcription could not start', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5) },
      'POST /api/files/5/lyrics/transcription': { status: 503, body: { message: 'Transcription is turned off: set TRANSCRIBE_ENGINE to local or openai' } },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    await user.click(await lyrics.findByRole('button', { name: 'Transcribe Lyrics with AI' }));
    expect(await screen.findByText('Failed to transcribe lyrics')).toBeInTheDocument();
    expect(screen.getByText('Transcription is turned off: set TRANSCRIBE_ENGINE to local or openai')).toBeInTheDocument();
  });

  it('reads Hebrew lyrics right to left', async () => {
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: makeLyrics(5, { hasLyrics: true, text: 'שיר של יום\nלה לה לה', lines: [], source: 'embedded' }) },
    });
    renderApp('/music/5');
    const lyrics = await panel();
    expect(await lyrics.findByTestId('lyrics-text')).toHaveAttribute('dir', 'rtl');
  });
});
