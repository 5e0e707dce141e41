import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { makeLyrics, timedLyrics, transcriptionTask } from '../../test/lyrics-fixture';
import { renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

const song = makeSong(5, { displayName: 'Nova - Blue Hour', title: 'Blue Hour', artist: 'Nova', durationSeconds: 10 });

function rows() {
  return screen.getAllByTestId('word-row');
}

// Each test types a lot through user-event; on a loaded machine that takes more than the default 5 s.
describe('word-timing editor', { timeout: 20_000 }, () => {
  it('lists the words with start and end fields (numeric, min 0, step 0.1)', async () => {
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
    });
    renderApp('/music/5/words');
    expect(await screen.findByRole('heading', { name: 'Word Timing Editor' })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(6));
    const start = screen.getByRole('spinbutton', { name: 'Start of "bright"' });
    expect(start).toHaveValue(1.6);
    expect(start).toHaveAttribute('min', '0');
    expect(start).toHaveAttribute('step', '0.1');
    expect(screen.getByRole('spinbutton', { name: 'End of "bright"' })).toHaveValue(2.2);
    expect(screen.getByRole('link', { name: 'Back to the song' })).toHaveAttribute('href', '/music/5');
    expect(screen.getByTestId('word-editor-status')).toHaveTextContent('6 words · All changes saved');
  });

  it('edits, adds and deletes words, undoes and redoes, and saves the words', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
      'PUT /api/files/5/lyrics': (request) => ({ body: { ...timedLyrics(5, { words: (request.body as { words: [] }).words }), transcript: 'x' } }),
    });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    const end = screen.getByRole('spinbutton', { name: 'End of "world"' });
    await user.clear(end);
    await user.type(end, '3.4');
    expect(screen.getByTestId('word-editor-status')).toHaveTextContent('Unsaved changes');

    await user.click(screen.getByRole('button', { name: 'Add a word after "now"' }));
    expect(rows()).toHaveLength(7);
    expect(within(rows()[6]!).getByRole('textbox')).toHaveValue('New');
    expect(within(rows()[6]!).getByRole('spinbutton', { name: 'Start of "New"' })).toHaveValue(6.1);
    expect(within(rows()[6]!).getByRole('spinbutton', { name: 'End of "New"' })).toHaveValue(6.5);

    await user.click(screen.getByRole('button', { name: 'Delete "hello"' }));
    expect(rows()).toHaveLength(6);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(rows()).toHaveLength(7);
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    expect(rows()).toHaveLength(6);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Word timings saved')).toBeInTheDocument();
    const sent = requests.find((request) => request.method === 'PUT')?.body as { transcript: string; words: { text: string; start: number; end: number }[] };
    expect(sent.words.map((word) => word.text)).toEqual(['bright', 'world', 'sing', 'along', 'now', 'New']);
    expect(sent.transcript).toBe('[Verse]\nbright world\nsing along now New');
    expect(sent.words[1]).toEqual({ text: 'world', start: 2.3, end: 3.4 });
    await waitFor(() => expect(screen.getByTestId('word-editor-status')).toHaveTextContent('All changes saved'));
  });

  it('marks bad times, keeps what was typed, and will not save until they are fixed', async () => {
    const user = userEvent.setup();
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
    });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    const end = screen.getByRole('spinbutton', { name: 'End of "hello"' });
    await user.clear(end);
    await user.type(end, '0.5');
    // Reversed: the end is before the start.
    expect(within(rows()[0]!).getByRole('alert')).toHaveTextContent("A word's end must not be before its start");
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText('Fix the marked words before saving.')).toBeInTheDocument();
    // Empty is not a time: the field shows what was typed and says so.
    await user.clear(end);
    expect(within(rows()[0]!).getByRole('alert')).toHaveTextContent('Word times must be numbers of seconds from 0');
    expect(end).toHaveAttribute('aria-invalid', 'true');
    // Past the song's end (10 s).
    await user.type(end, '12');
    expect(within(rows()[0]!).getByRole('alert')).toHaveTextContent('This word ends after the song does');
    await user.clear(end);
    await user.type(end, '1.5');
    expect(within(rows()[0]!).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled(); // back to what was saved: nothing to save
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);
  });

  it('shifts a selection, splits and merges', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
    });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    await user.click(screen.getByRole('checkbox', { name: 'Select "sing"' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select "along"' }));
    const shift = screen.getByLabelText('Shift by (seconds)');
    await user.clear(shift);
    await user.type(shift, '0.5');
    await user.click(screen.getByRole('button', { name: 'Shift selected (2)' }));
    expect(screen.getByRole('spinbutton', { name: 'Start of "sing"' })).toHaveValue(4.5);
    expect(screen.getByRole('spinbutton', { name: 'Start of "along"' })).toHaveValue(5.1);
    expect(screen.getByRole('spinbutton', { name: 'Start of "now"' })).toHaveValue(5.3);

    await user.click(screen.getByRole('button', { name: 'Merge "hello" with the next word' }));
    expect(within(rows()[0]!).getByRole('textbox')).toHaveValue('hello bright');
    await user.click(screen.getByRole('button', { name: 'Split "hello bright"' }));
    expect(within(rows()[0]!).getByRole('textbox')).toHaveValue('hello');
    expect(within(rows()[1]!).getByRole('textbox')).toHaveValue('bright');
  });

  it("starts from the lyrics when they have no word timings: every word, over its line's time", async () => {
    const lineTimed = makeLyrics(5, {
      hasLyrics: true,
      text: '[Verse]\nhello bright world\nsing along now',
      lines: [
        { text: '[Verse]', startTime: 0, endTime: 1, isHeader: true },
        { text: 'hello bright world', startTime: 1, endTime: 4, isHeader: false },
        { text: 'sing along now', startTime: 4, endTime: 10, isHeader: false },
      ],
      timing: 'line',
      source: 'imported',
    });
    stubFetch({ 'GET /api/files/5': { body: song }, 'GET /api/files/5/lyrics': { body: lineTimed }, 'GET /api/files/5/play': { body: { url: 'blob:5' } } });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(rows().map((row) => (within(row).getByRole('textbox') as HTMLInputElement).value)).toEqual(['hello', 'bright', 'world', 'sing', 'along', 'now']);
    expect(screen.getByRole('spinbutton', { name: 'Start of "hello"' })).toHaveValue(1);
    expect(screen.getByRole('spinbutton', { name: 'End of "world"' })).toHaveValue(4);
    expect(screen.getByRole('spinbutton', { name: 'Start of "sing"' })).toHaveValue(4);
    expect(screen.getByRole('spinbutton', { name: 'End of "now"' })).toHaveValue(10);
    const along = Number((screen.getByRole('spinbutton', { name: 'Start of "along"' }) as HTMLInputElement).value);
    expect(along).toBeGreaterThan(4);
    expect(along).toBeLessThan(10);
    expect(screen.getByTestId('word-editor-status')).toHaveTextContent('6 words · All changes saved');
    expect(screen.queryByRole('heading', { name: 'No words yet' })).not.toBeInTheDocument();
  });

  it('adding a word to lyrics without word timings keeps every line: the new text goes with the words', async () => {
    const user = userEvent.setup();
    const untimed = makeLyrics(5, {
      hasLyrics: true,
      text: '[Verse]\nhello bright world\n\nsing along now',
      lines: [
        { text: '[Verse]', startTime: 0, endTime: 0.5, isHeader: true },
        { text: 'hello bright world', startTime: 0.5, endTime: 5, isHeader: false },
        { text: '', startTime: 5, endTime: 5.1, isHeader: false },
        { text: 'sing along now', startTime: 5.1, endTime: 10, isHeader: false },
      ],
      source: 'edited',
    });
    const { requests } = stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: untimed },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
      'PUT /api/files/5/lyrics': (request) => {
        const body = request.body as { transcript: string; words: [] };
        return { body: { ...untimed, text: body.transcript, words: body.words, timing: 'word', transcript: body.transcript } };
      },
    });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    await user.click(screen.getByRole('button', { name: 'Add a word after "world"' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Word timings saved')).toBeInTheDocument();
    const sent = requests.find((request) => request.method === 'PUT')?.body as { transcript: string; words: { text: string }[] };
    expect(sent.transcript).toBe('[Verse]\nhello bright world New\n\nsing along now');
    expect(sent.words.map((word) => word.text)).toEqual(['hello', 'bright', 'world', 'New', 'sing', 'along', 'now']);
  });

  it('warns before saving that a line whose words were all deleted leaves the lyrics', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': { body: timedLyrics(5) },
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
    });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(6));
    await user.click(screen.getByRole('checkbox', { name: 'Select "sing"' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select "along"' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select "now"' }));
    expect(screen.queryByTestId('word-editor-removes')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(screen.getByTestId('word-editor-removes')).toHaveTextContent('Saving removes 1 line whose words you deleted');
    expect(screen.getByTestId('word-editor-status')).toHaveTextContent('3 words · Unsaved changes');
  });

  it('counts one word in the singular', async () => {
    const one = timedLyrics(5, {
      text: 'hey',
      lines: [{ text: 'hey', startTime: 0, endTime: 10, isHeader: false }],
      words: [{ text: 'hey', start: 1, end: 2 }],
    });
    stubFetch({ 'GET /api/files/5': { body: song }, 'GET /api/files/5/lyrics': { body: one }, 'GET /api/files/5/play': { body: { url: 'blob:5' } } });
    renderApp('/music/5/words');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByTestId('word-editor-status')).toHaveTextContent('1 word · All changes saved');
  });

  it('offers "Transcribe song" when there are no words, and loads the transcribed words', async () => {
    const user = userEvent.setup();
    let done = false;
    stubFetch({
      'GET /api/files/5': { body: song },
      'GET /api/files/5/lyrics': () => ({ body: done ? timedLyrics(5, { source: 'transcribed' }) : makeLyrics(5) }),
      'GET /api/files/5/play': { body: { url: 'blob:5' } },
      'POST /api/files/5/lyrics/transcription': { body: { taskId: 't3' } },
      'GET /api/tasks/t3': () => {
        done = true;
        return { body: transcriptionTask('t3', 'done', 100) };
      },
    });
    renderApp('/music/5/words');
    expect(await screen.findByRole('heading', { name: 'No words yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Transcribe song' }));
    expect(await screen.findByText('Lyrics transcribed successfully!')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(6));
  });
});
