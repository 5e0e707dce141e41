import { describe, expect, it } from 'vitest';
import { envelope, formatOf, render } from './subsonic-response.js';

describe('the Subsonic envelope', () => {
  const body = envelope('ok', '1.2.3', {
    genres: {
      genre: [
        { songCount: 2, albumCount: 1, value: 'Rock & <Roll>' },
        { songCount: 1, albumCount: 1, value: 'Folk' },
      ],
    },
    song: { id: '7', title: 'Say "hi" \'now\'\n\u0001', created: new Date('2024-01-02T03:04:05.000Z'), missing: undefined, nothing: null },
    openSubsonicExtensions: [{ name: 'songLyrics', versions: [1, 2] }],
    empty: [],
    gaps: [1, null, undefined, 2],
  });

  it('writes XML: scalars as attributes, objects and arrays as elements, value as text, everything escaped', () => {
    const { contentType, body: xml } = render({ kind: 'xml' }, body);
    expect(contentType).toBe('application/xml; charset=utf-8');
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="encore" serverVersion="1.2.3" openSubsonic="true">' +
        '<genres><genre songCount="2" albumCount="1">Rock &amp; &lt;Roll&gt;</genre><genre songCount="1" albumCount="1">Folk</genre></genres>' +
        '<song id="7" title="Say &quot;hi&quot; &apos;now&apos;&#10;" created="2024-01-02T03:04:05.000Z"/>' +
        '<openSubsonicExtensions name="songLyrics"><versions>1</versions><versions>2</versions></openSubsonicExtensions>' +
        '<gaps>1</gaps><gaps>2</gaps>' +
        '</subsonic-response>',
    );
  });

  it('writes JSON and JSONP with the same shape, absent values left out, dates as ISO 8601', () => {
    const parsed = JSON.parse(render({ kind: 'json' }, body).body) as Record<string, Record<string, unknown>>;
    expect(parsed['subsonic-response']).toMatchObject({
      status: 'ok',
      openSubsonic: true,
      genres: {
        genre: [
          { songCount: 2, albumCount: 1, value: 'Rock & <Roll>' },
          { songCount: 1, albumCount: 1, value: 'Folk' },
        ],
      },
      song: { id: '7', created: '2024-01-02T03:04:05.000Z' },
      empty: [],
      gaps: [1, 2],
    });
    expect(parsed['subsonic-response']?.['song']).not.toHaveProperty('missing');
    expect(parsed['subsonic-response']?.['song']).not.toHaveProperty('nothing');
    const jsonp = render({ kind: 'jsonp', callback: 'app.cb_1' }, body);
    expect(jsonp.body.startsWith('app.cb_1({"subsonic-response":')).toBe(true);
    expect(jsonp.body.endsWith(');')).toBe(true);
  });

  it('takes f and callback: unknown formats are XML, callbacks must be JavaScript names', () => {
    expect(formatOf(undefined, undefined)).toEqual({ kind: 'xml' });
    expect(formatOf('yaml', undefined)).toEqual({ kind: 'xml' });
    expect(formatOf('json', undefined)).toEqual({ kind: 'json' });
    expect(formatOf('jsonp', 'a.b$c')).toEqual({ kind: 'jsonp', callback: 'a.b$c' });
    for (const bad of [undefined, '', 'alert(1)', '1abc', 'a..b', 'a;b', 'x'.repeat(201)]) expect(formatOf('jsonp', bad)).toBe('bad-callback');
  });
});
