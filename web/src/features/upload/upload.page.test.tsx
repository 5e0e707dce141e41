import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch, type RecordedRequest } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

// The browser build of tus-js-client (XMLHttpRequest, localStorage), as the app's bundle has it:
// tests run modules the server's way, which would pick its Node build.
vi.mock('tus-js-client', () => vi.importActual('tus-js-client/lib.esm/browser/index.js'));

interface PutAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** The connection drops: no answer at all. */
  drop?: boolean;
}

/** XMLHttpRequest at the network boundary: records each PUT, reports progress, then answers. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  static answer: (xhr: FakeXhr) => PutAnswer = () => ({ status: 200 });
  /** While set, answers wait for it: the upload stays in flight. */
  static hold: Promise<void> | null = null;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  private answerHeaders: Record<string, string> = {};
  /** What tus-js-client listens with. */
  onload: (() => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: () => void) {
    this.events.addEventListener(type, listener);
  }
  getResponseHeader(name: string): string | null {
    return Object.entries(this.answerHeaders).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null;
  }
  abort() {}
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
    const wait = FakeXhr.hold ?? new Promise((resolve) => setTimeout(resolve, 5));
    setTimeout(() => {
      this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: 40, total: 100 }));
      void wait.then(() => {
        const { status, body: text = '', headers = {}, drop = false } = FakeXhr.answer(this);
        if (drop) {
          this.onerror?.(new Error('connection dropped'));
          this.events.dispatchEvent(new Event('error'));
          return;
        }
        this.status = status;
        this.responseText = text;
        this.answerHeaders = headers;
        this.onload?.();
        this.events.dispatchEvent(new Event('load'));
      });
    }, 0);
  }
}

function audioFile(name: string, type = 'audio/mpeg', bytes = 2048): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

function stubUploadApi(options: { presign?: (request: RecordedRequest) => { status?: number; body: unknown } } = {}) {
  let key = 0;
  return stubFetch({
    'GET /api/config': { body: { googleClientId: null, maxUploadMb: 25 } },
    'GET /api/upload/presigned-url': (request) => options.presign?.(request) ?? { body: { url: `/api/storage/upload/k${++key}?sig=s`, key: `k${key}` } },
    'POST /api/upload/upload-complete': (request) => {
      const body = request.body as { fileName: string };
      return { body: makeSong(key, { displayName: body.fileName }) };
    },
  });
}

beforeEach(() => {
  signInForTest();
  FakeXhr.sent = [];
  FakeXhr.answer = () => ({ status: 200 });
  FakeXhr.hold = null;
  vi.spyOn(console, 'error').mockImplementation(() => {}); // failed uploads are also logged
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

function setup() {
  // The picker's `accept` would filter files out before the page sees them; the page checks itself.
  const user = userEvent.setup({ applyAccept: false });
  const view = renderApp('/upload');
  const input = screen.getByLabelText('Choose music files');
  return { user, input, ...view };
}

describe('upload page', () => {
  it('states the limit and formats, offers Back to Home, and waits for a file', async () => {
    stubUploadApi();
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Upload Music' })).toBeInTheDocument();
    expect(await screen.findByText('Up to 25MB per file · MP3, WAV, OGG, M4A or FLAC')).toBeInTheDocument();
    expect(screen.getByLabelText('Choose music files')).toHaveAttribute('accept', 'audio/*,.mp3,.wav,.ogg,.m4a,.flac');
    expect(screen.getByRole('button', { name: 'Upload Music File' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it("alerts 'Please upload only music files' for anything else and clears the selection", async () => {
    stubUploadApi();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, input } = setup();
    await user.upload(input, [audioFile('keep.mp3')]);
    expect(screen.getByText('keep.mp3')).toBeInTheDocument();

    await user.upload(input, [audioFile('song.flac', 'audio/flac'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(alert).toHaveBeenCalledWith('Please upload only music files');
    expect(screen.queryByText('keep.mp3')).not.toBeInTheDocument();
    expect(screen.queryByText('song.flac')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Music File' })).toBeDisabled();
  });

  it('accepts a name ending .mp3 whatever its type', async () => {
    stubUploadApi();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, input } = setup();
    await user.upload(input, [new File(['x'], 'odd.MP3', { type: '' })]);
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByText('odd.MP3')).toBeInTheDocument();
  });

  it('uploads each file in three steps, with its own progress and result, then clears the done ones after 3 s', async () => {
    const { requests } = stubUploadApi();
    FakeXhr.answer = (xhr) =>
      xhr.url.includes('k2')
        ? { status: 415, body: JSON.stringify({ message: 'Only audio files can be uploaded: MP3, WAV, OGG, M4A or FLAC.' }) }
        : { status: 200 };
    const { user, input } = setup();
    await user.upload(input, [audioFile('first.mp3'), audioFile('second.wav', 'audio/wav'), audioFile('third.mp3', '')]);
    const list = screen.getByRole('list', { name: 'Selected files' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    expect(await screen.findByRole('button', { name: 'Upload Complete' })).toBeDisabled();
    const [first, second, third] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('Uploaded')).toBeInTheDocument();
    expect(within(third!).getByText('Uploaded')).toBeInTheDocument();
    expect(within(first!).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(second!).getByText('Only audio files can be uploaded: MP3, WAV, OGG, M4A or FLAC.')).toBeInTheDocument();
    expect(await screen.findByText('Upload successful')).toBeInTheDocument();
    expect(screen.getByText('Upload failed')).toBeInTheDocument();

    // The wire: presigned URL by name and type, a PUT without the bearer token, then upload-complete.
    const presigns = requests.filter((r) => r.path.startsWith('/api/upload/presigned-url'));
    expect(presigns.map((r) => r.path)).toEqual([
      '/api/upload/presigned-url?fileName=first.mp3&contentType=audio%2Fmpeg',
      '/api/upload/presigned-url?fileName=second.wav&contentType=audio%2Fwav',
      '/api/upload/presigned-url?fileName=third.mp3&contentType=application%2Foctet-stream',
    ]);
    expect(FakeXhr.sent.map((x) => [x.method, x.url, x.headers['Content-Type']])).toEqual([
      ['PUT', '/api/storage/upload/k1?sig=s', 'audio/mpeg'],
      ['PUT', '/api/storage/upload/k2?sig=s', 'audio/wav'],
      ['PUT', '/api/storage/upload/k3?sig=s', 'application/octet-stream'],
    ]);
    expect(FakeXhr.sent.every((x) => !('Authorization' in x.headers))).toBe(true);
    expect(requests.filter((r) => r.path === '/api/upload/upload-complete').map((r) => r.body)).toEqual([
      { fileName: 'first.mp3', fileType: 'audio/mpeg', size: 2048, s3key: 'k1', folderId: 0 },
      { fileName: 'third.mp3', fileType: '', size: 2048, s3key: 'k3', folderId: 0 },
    ]);
    expect(screen.getByText('2 of 3 files uploaded')).toBeInTheDocument();

    await waitFor(() => expect(screen.queryByText('first.mp3')).not.toBeInTheDocument(), { timeout: 4000 });
    expect(screen.queryByText('third.mp3')).not.toBeInTheDocument();
    expect(screen.getByText('second.wav')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Music File' })).toBeEnabled();
  });

  it('disables the button while uploading and shows the percentage', async () => {
    stubUploadApi();
    let release: () => void = () => {};
    FakeXhr.hold = new Promise<void>((resolve) => (release = resolve));
    const { user, input } = setup();
    await user.upload(input, [audioFile('slow.mp3'), audioFile('next.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    const busy = await screen.findByRole('button', { name: 'Uploading... 19%' });
    expect(busy).toBeDisabled();
    const [slow, next] = within(screen.getByRole('list', { name: 'Selected files' })).getAllByRole('listitem');
    expect(within(slow!).getByText(/· 38%/)).toBeInTheDocument();
    // The file queued behind it says so, rather than looking forgotten.
    expect(within(next!).getByText(/· Waiting/)).toBeInTheDocument();
    expect(screen.getByLabelText('Choose music files')).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByRole('button', { name: 'Upload Complete' })).toBeInTheDocument();
  });

  it("says 'Invalid response: Missing URL' when the server gives no URL", async () => {
    stubUploadApi({ presign: () => ({ body: { key: 'k' } }) });
    const { user, input } = setup();
    await user.upload(input, [audioFile('a.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    await waitFor(() => expect(screen.getAllByText('Invalid response: Missing URL')).toHaveLength(2));
    expect(FakeXhr.sent).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Upload Music File' })).toBeEnabled();
  });

  it("shows the server's size limit message for a file that is too large", async () => {
    stubUploadApi();
    FakeXhr.answer = () => ({ status: 413, body: JSON.stringify({ message: 'File is too large. The limit is 25 MB.' }) });
    const { user, input } = setup();
    await user.upload(input, [audioFile('huge.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    await waitFor(() => expect(screen.getAllByText('File is too large. The limit is 25 MB.')).toHaveLength(2));
    // An answer the server explains is shown, not logged as a fault.
    expect(console.error).not.toHaveBeenCalled();
  });

  it('sends a file larger than one chunk resumably, and carries on where it was when the connection drops', async () => {
    const { requests } = stubFetch({
      'GET /api/config': { body: { googleClientId: null, maxUploadMb: 200 } },
      'GET /api/files/42': { body: { ...makeSong(42, { displayName: 'big' }), analysis: null } },
    });
    const size = 9 * 1024 * 1024;
    // The server's side of tus: how many bytes it holds; the first PATCH is cut after 3 MiB.
    let received = 0;
    let cut = false;
    FakeXhr.answer = (xhr) => {
      const tus = { 'Tus-Resumable': '1.0.0' };
      if (xhr.method === 'POST') return { status: 201, headers: { ...tus, Location: '/api/upload/tus/7-0123456789abcdef0123456789abcdef' } };
      if (xhr.method === 'HEAD') return { status: 200, headers: { ...tus, 'Upload-Offset': String(received), 'Upload-Length': String(size) } };
      if (!cut) {
        cut = true;
        received = 3 * 1024 * 1024;
        return { status: 0, drop: true };
      }
      received = Number(xhr.headers['Upload-Offset']) + (xhr.body as Blob).size;
      return { status: 204, headers: { ...tus, 'Upload-Offset': String(received), ...(received === size ? { 'Encore-Song-Id': '42' } : {}) } };
    };
    const { user, input } = setup();
    await user.upload(input, [audioFile('big.flac', 'audio/flac', size)]);
    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    expect(await screen.findByRole('button', { name: 'Upload Complete' })).toBeInTheDocument();
    expect(screen.getByText('Uploaded')).toBeInTheDocument();

    const calls = FakeXhr.sent.map((x) => [x.method, new URL(x.url).pathname, x.headers['Upload-Offset'] ?? null, x.body instanceof Blob ? x.body.size : null]);
    const url = '/api/upload/tus/7-0123456789abcdef0123456789abcdef';
    expect(calls).toEqual([
      ['POST', '/api/upload/tus', null, null],
      ['PATCH', url, '0', 8 * 1024 * 1024],
      // The cut: ask what arrived, then send only the rest.
      ['HEAD', url, null, null],
      ['PATCH', url, String(3 * 1024 * 1024), 6 * 1024 * 1024],
    ]);
    // Signed in on every tus request; the file's name and type travel as tus metadata.
    expect(FakeXhr.sent.every((x) => x.headers['Authorization'] === 'Bearer tok')).toBe(true);
    expect(FakeXhr.sent[0]?.headers['Upload-Metadata']).toBe(`filename ${btoa('big.flac')},filetype ${btoa('audio/flac')}`);
    // No three-step calls for it; the song it became is read once.
    expect(requests.map((r) => r.path)).not.toContain('/api/upload/upload-complete');
    expect(requests.map((r) => r.path)).toContain('/api/files/42');
  });

  it('flags a file over the limit as soon as it is chosen, with a toast, and never sends it', async () => {
    const { requests } = stubUploadApi();
    const { user, input } = setup();
    await screen.findByText('Up to 25MB per file · MP3, WAV, OGG, M4A or FLAC');
    await user.upload(input, [audioFile('huge.mp3', 'audio/mpeg', 25 * 1024 * 1024 + 1), audioFile('fine.mp3')]);
    expect(await screen.findByText('huge.mp3 is larger than 25MB')).toBeInTheDocument();
    expect(screen.getByText('Larger than 25MB: not sent')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Upload Music File' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const presigned = requests.filter((r) => r.path.startsWith('/api/upload/presigned-url'));
    expect(presigned.map((r) => new URL(r.path, 'http://x').searchParams.get('fileName'))).toEqual(['fine.mp3']);
  });
});
