import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IcyReadError, readIcyTitle, streamTitle } from '../../src/features/radio/icy-metadata.reader.js';
import { startIcyStreamServer, startShoutcastV1Server, type IcyStreamServer } from './icy-stream-server.js';

const limits = { timeoutMs: 5000, maxBytes: 512 * 1024, maxRedirects: 3 };

describe('reading a stream title from ICY metadata (a real HTTP stream on 127.0.0.1)', () => {
  let server: IcyStreamServer;
  beforeAll(async () => {
    server = await startIcyStreamServer();
  });
  afterAll(async () => server?.close());

  it('reads the first metadata block, skipping empty ones, and keeps apostrophes and UTF-8', async () => {
    expect(await readIcyTitle(`${server.origin}/station?metaint=1000`, limits)).toBe('Test Artist - Test Song');
    const title = "Rock'n'Roll Band – שיר ארוך";
    expect(await readIcyTitle(`${server.origin}/station?metaint=777&blank=3&title=${encodeURIComponent(title)}`, limits)).toBe(title);
  });

  it('decodes a title that is not valid UTF-8 as Latin-1', async () => {
    expect(await readIcyTitle(`${server.origin}/latin1?title=${encodeURIComponent('Björk - Jóga')}`, limits)).toBe('Björk - Jóga');
  });

  it('reads an old SHOUTcast server that answers "ICY 200 OK" instead of HTTP', async () => {
    const shoutcast = await startShoutcastV1Server('Old Artist - Old Song');
    try {
      expect(await readIcyTitle(`${shoutcast.origin}/;stream.mp3`, limits)).toBe('Old Artist - Old Song');
      // Reached through an HTTP redirect too.
      expect(await readIcyTitle(`${server.origin}/redirect?to=${encodeURIComponent(`${shoutcast.origin}/`)}`, limits)).toBe('Old Artist - Old Song');
    } finally {
      await shoutcast.close();
    }
  });

  it('answers null for a stream without metadata, and for metadata past the byte cap', async () => {
    expect(await readIcyTitle(`${server.origin}/no-metadata`, limits)).toBeNull();
    expect(await readIcyTitle(`${server.origin}/huge-interval`, { ...limits, maxBytes: 16 * 1024 })).toBeNull();
  });

  it('gives up on a stream that stalls, saying so', async () => {
    await expect(readIcyTitle(`${server.origin}/stall`, { ...limits, timeoutMs: 300 })).rejects.toThrow(
      new IcyReadError('The stream sent no metadata within 300 ms'),
    );
  });

  it('follows http redirects, never one to another scheme, and not endlessly', async () => {
    expect(await readIcyTitle(`${server.origin}/redirect?to=${encodeURIComponent('/station?title=Moved')}`, limits)).toBe('Moved');
    await expect(readIcyTitle(`${server.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, limits)).rejects.toThrow(
      /redirected to an address that does not start with http/,
    );
    await expect(readIcyTitle(`${server.origin}/loop`, { ...limits, maxRedirects: 2 })).rejects.toThrow(/redirected more than 2 times/);
  });

  it('refuses an address that is not http(s), and reports an HTTP error', async () => {
    await expect(readIcyTitle('file:///etc/passwd', limits)).rejects.toThrow(/does not start with http/);
    await expect(readIcyTitle(`${server.origin}/missing`, limits)).rejects.toThrow('The stream answered HTTP 404');
  });

  it('parses StreamTitle out of a block, padded or not', () => {
    expect(streamTitle(Buffer.from("StreamTitle='A - B';StreamUrl='http://x';\0\0\0"))).toBe('A - B');
    expect(streamTitle(Buffer.from("StreamUrl='x';StreamTitle='It's';"))).toBe("It's");
    expect(streamTitle(Buffer.from("StreamTitle='';"))).toBeNull();
    expect(streamTitle(Buffer.from("StreamUrl='x';"))).toBeNull();
    expect(streamTitle(Buffer.from("StreamTitle='No end"))).toBeNull();
  });
});
