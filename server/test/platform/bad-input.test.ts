import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_MAX, MULTILINE_PATTERN, SINGLE_LINE_PATTERN } from '@encore/common/input.rules';
import { NUL_MESSAGE, SURROGATE_MESSAGE } from '../../src/platform/http/input-guard.js';
import { clips } from '../../src/features/clips/clips.schema.js';
import { createClip, settingsOf } from '../clips/clips-test-kit.js';
import {
  account,
  bearer,
  completeUpload,
  fetchUrl,
  localSetups,
  presign,
  songRows,
  startLibraryApp,
  upload,
  type LibraryApp,
} from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Walks every route of the app's own OpenAPI document, signed in as a real user, and sends
 * each one out-of-range ids, NUL and other control characters in every parameter and body
 * field (one field poisoned at a time, the rest valid-ish), and broken percent-encodings in
 * its path. A 500 on input is a bug: every answer must be a 4xx with a `{message}`, except
 * integers that are not ids (limit, offset, size), where any non-5xx answer is fine.
 */

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
type OpenApi = { paths: Record<string, Record<string, Operation>> };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
interface Probe {
  method: Method;
  url: string;
  body?: unknown;
  /** What was poisoned, for the failure list. */
  what: string;
  /** true: must be a 4xx with a message; false: anything but a 5xx. */
  mustRefuse: boolean;
}

/** Ids the database's `integer` cannot hold, and values that are no id at all. */
const BAD_IDS: (string | number)[] = [2147483648, 99999999999, -1, 0, 1.5, 'abc', '1e3'];
const BAD_STRINGS = ['walk\u0000er', '\u0000', 'walk\u0007er', 'walk\u001ber'];
/** Lone UTF-16 surrogates: JSON can carry them ("\ud800"), no text encoding can store them. Paths and query strings cannot carry them (percent-encoding is UTF-8). */
const LONE_SURROGATES = ['\ud800', 'walk\udfffer', 'walk\ud83der'];
const BROKEN_ENCODINGS = ['%00', '%E0%A4%A', '%', '%zz'];
/** Values of the wrong JSON type: a 400 or, where the field is optional or nullable, no harm. */
const WRONG_TYPES: unknown[] = [null, true, ['walk'], { walk: 'er\u0000' }, 1e308];

const isIdName = (name: string) => /^(id|.*[a-z0-9]Ids?)$/.test(name);
const isInteger = (schema: JsonSchema) => schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
const isString = (schema: JsonSchema) => schema.type === 'string' && schema.enum === undefined;

/** The first concrete branch of a union. */
function concrete(schema: JsonSchema): JsonSchema {
  const branch = schema.anyOf?.find((s) => s.type !== 'null') ?? schema.oneOf?.find((s) => s.type !== 'null');
  return branch ? concrete(branch) : schema;
}

/** A value the field would plausibly accept, guessed from its schema and name. */
function validish(name: string, raw: JsonSchema): unknown {
  const schema = concrete(raw);
  if (schema.enum) return schema.enum[0];
  if (isInteger(schema) || schema.type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (schema.type === 'boolean') return false;
  if (schema.type === 'array') return schema.items ? [validish(name, schema.items)] : [];
  if (schema.type === 'object') return validObject(schema);
  const text = /email/i.test(name) ? 'walker@example.com' : /password/i.test(name) ? 'password 123' : /name/i.test(name) ? 'walker song.mp3' : 'walk';
  return text.padEnd(schema.minLength ?? 0, 'x');
}

function validObject(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, field]) => [key, validish(key, field)]));
}

/** Each field of a body schema (top level, and the items of arrays) with the poisons that fit it. */
function bodyProbes(schema: JsonSchema): { what: string; body: unknown; mustRefuse: boolean }[] {
  const base = validObject(schema);
  const probes: { what: string; body: unknown; mustRefuse: boolean }[] = [];
  for (const [key, raw] of Object.entries(schema.properties ?? {})) {
    const field = concrete(raw);
    const item = field.type === 'array' && field.items ? concrete(field.items) : undefined;
    const wrap = (value: unknown) => (item ? [value] : value);
    const target = item ?? field;
    if (isInteger(target)) {
      for (const bad of BAD_IDS) probes.push({ what: `body ${key}=${JSON.stringify(bad)}`, body: { ...base, [key]: wrap(bad) }, mustRefuse: isIdName(key) });
    } else if (isString(target)) {
      for (const bad of [...BAD_STRINGS, ...LONE_SURROGATES])
        probes.push({ what: `body ${key}=${JSON.stringify(bad)}`, body: { ...base, [key]: wrap(bad) }, mustRefuse: true });
    }
    for (const wrongType of WRONG_TYPES)
      probes.push({ what: `body ${key}=${JSON.stringify(wrongType)}`, body: { ...base, [key]: wrongType }, mustRefuse: false });
  }
  return probes;
}

function probesFor(path: string, method: Method, operation: Operation): Probe[] {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathValues = Object.fromEntries(pathParams.map((p) => [p.name, encodeURIComponent(String(validish(p.name, p.schema)))]));
  const queryValues = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, String(validish(p.name, p.schema))]));
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const baseBody = bodySchema ? validObject(bodySchema) : undefined;

  const url = (pathOverride: Record<string, string> = {}, query: Record<string, string> = queryValues, rawQuery = '') => {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => pathOverride[name] ?? pathValues[name] ?? '1');
    const search = new URLSearchParams(query).toString();
    const joined = [search, rawQuery].filter(Boolean).join('&');
    return joined ? `${filled}?${joined}` : filled;
  };
  const probe = (what: string, target: string, mustRefuse: boolean, body: unknown = baseBody): Probe => ({ method, url: target, body, what, mustRefuse });
  const probes: Probe[] = [];

  for (const param of pathParams) {
    if (isInteger(param.schema)) {
      for (const bad of BAD_IDS) probes.push(probe(`path ${param.name}=${bad}`, url({ [param.name]: encodeURIComponent(String(bad)) }), isIdName(param.name)));
    } else {
      for (const bad of BAD_STRINGS) probes.push(probe(`path ${param.name}=${JSON.stringify(bad)}`, url({ [param.name]: encodeURIComponent(bad) }), true));
    }
    for (const broken of BROKEN_ENCODINGS) probes.push(probe(`path ${param.name}=${broken}`, url({ [param.name]: broken }), true));
  }
  for (const param of queryParams) {
    if (isInteger(param.schema)) {
      for (const bad of BAD_IDS) probes.push(probe(`query ${param.name}=${bad}`, url({}, { ...queryValues, [param.name]: String(bad) }), isIdName(param.name)));
    } else if (isString(param.schema)) {
      for (const bad of BAD_STRINGS) probes.push(probe(`query ${param.name}=${JSON.stringify(bad)}`, url({}, { ...queryValues, [param.name]: bad }), true));
      for (const broken of BROKEN_ENCODINGS) {
        const others = Object.fromEntries(Object.entries(queryValues).filter(([name]) => name !== param.name));
        probes.push(probe(`query ${param.name}=${broken}`, url({}, others, `${param.name}=${broken}`), broken === '%00'));
      }
    }
  }
  if (bodySchema) {
    for (const { what, body, mustRefuse } of bodyProbes(bodySchema)) probes.push(probe(what, url(), mustRefuse, body));
  }
  return probes;
}

describe.each(engines)('bad input on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let document: OpenApi;

  beforeAll(async () => {
    t = await startTestApp(engine);
    const credentials = { userName: 'walker', email: 'walker@example.com', password: 'password 123' };
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: credentials })).statusCode).toBe(201);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'walker', password: 'password 123' } });
    token = signIn.json<{ token: string }>().token;
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
  });
  afterAll(async () => t?.close());

  it('answers every route of the OpenAPI document with a 4xx, never a 5xx, when ids, strings or paths are bad', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [lowerMethod, operation] of Object.entries(operations)) {
        const method = lowerMethod.toUpperCase() as Method;
        for (const p of probesFor(path, method, operation)) {
          sent += 1;
          const response = await t.app.inject({
            method: p.method,
            url: p.url,
            headers: { authorization: `Bearer ${token}` },
            ...(p.body === undefined ? {} : { payload: p.body as object }),
          });
          const status = response.statusCode;
          const refused = status >= 400 && status < 500 && typeof safeJson(response.body)?.['message'] === 'string';
          if (status >= 500 || (p.mustRefuse && !refused)) {
            failures.push(`${p.method} ${p.url} (${p.what}) -> ${status} ${response.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  });

  it('bounds every id and refuses control characters in every string of the contract', () => {
    const problems: string[] = [];
    const textPatterns = [SINGLE_LINE_PATTERN.source, MULTILINE_PATTERN.source];
    const check = (where: string, name: string, raw: JsonSchema) => {
      const schema = concrete(raw);
      if (schema.type === 'array' && schema.items) return check(where, `${name}[]`, schema.items);
      if (schema.type === 'object') {
        for (const [key, field] of Object.entries(schema.properties ?? {})) check(where, key, field);
        return;
      }
      if (isInteger(schema) && isIdName(name.replace(/\[\]$/, '')) && (schema.maximum !== ID_MAX || (schema.minimum ?? -1) < 0)) {
        problems.push(`${where} ${name}: an id without the shared id schema`);
      }
      if (isString(schema) && !textPatterns.includes(schema.pattern ?? '')) problems.push(`${where} ${name}: a string without the shared text rule`);
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      // The local storage driver's signed-URL routes take a raw key, not a contract field;
      // the input guard refuses a NUL there.
      if (path.startsWith('/api/storage/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const param of operation.parameters ?? []) check(where, param.name, param.schema);
        const body = operation.requestBody?.content?.['application/json']?.schema;
        if (body) check(where, 'body', body);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers a message naming the field, and the bounds of an id', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const created = await t.app.inject({ method: 'POST', url: '/api/playlists', headers: auth, payload: { name: 'Night\u0000Drive' } });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ message: 'The playlist name must not contain control characters' });
    const multiline = await t.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: auth,
      payload: { name: 'Night Drive', description: 'Line one\r\n\tLine two' },
    });
    expect(multiline.statusCode).toBe(201);
    expect(multiline.json()).toMatchObject({ description: 'Line one\r\n\tLine two' });
    const tooLarge = await t.app.inject({ method: 'GET', url: '/api/playlists/2147483648', headers: auth });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toEqual({ message: 'The playlist id must be a whole number from 1 to 2147483647' });
    const largest = await t.app.inject({ method: 'GET', url: '/api/playlists/2147483647', headers: auth });
    expect(largest.statusCode).toBe(404);
    const search = await t.app.inject({ method: 'GET', url: '/api/files?q=a%00b', headers: auth });
    expect(search.json()).toEqual({ message: 'The search text must not contain control characters' });
    const key = await t.app.inject({ method: 'GET', url: '/api/storage/o/uploads/1/x%00/a.mp3?op=get&exp=1&sig=x' });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toEqual({ message: NUL_MESSAGE });
  });

  it('refuses NUL in a path that names no route parameter, with a 4xx', async () => {
    for (const url of ['/api/files/%00', '/api/storage/o/%00', '/api/files/%E0%A4%A', '/api/storage/o/uploads/%00/x.mp3', '/api/%00']) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
        expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
  });
});

function safeJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The walk cannot reach upload-complete's insert with a made-up key; a real upload can. */
describe.each(localSetups)('upload-complete folder ids on $engine', (setup) => {
  let t: LibraryApp;
  let fixtures: AudioFixtures;
  beforeAll(async () => {
    fixtures = await buildAudioFixtures();
    t = await startLibraryApp(setup);
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.cleanup();
  });

  it('refuses a folder id the database cannot hold with 400, and the same upload still completes', async () => {
    const token = await account(t, 'folder-walker');
    const key = await presign(t, token, 'Plain Song.mp3', 'audio/mpeg');
    const put = await fetchUrl(t, key.url, { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body: await readFile(fixtures.plainMp3) });
    expect(put.status).toBe(200);
    for (const folderId of [2147483648, 99999999999, -1, 1.5, '1e3']) {
      const refused = await completeUpload(t, token, { fileName: 'Plain Song.mp3', s3key: key.key, folderId });
      expect(refused.statusCode, String(folderId)).toBe(400);
      expect(refused.json()).toEqual({ message: 'The folder id must be a whole number from 0 to 2147483647' });
    }
    expect(await songRows(t)).toEqual([]);
    const completed = await completeUpload(t, token, { fileName: 'Plain Song.mp3', s3key: key.key, folderId: 2147483647 });
    expect(completed.statusCode).toBe(201);
    expect(completed.json()).toMatchObject({ folderId: 2147483647 });
  });

  it('refuses a lone UTF-16 surrogate in lyrics, in word timings and in clip words with 400 and a message, and keeps the lyrics', async () => {
    const token = await account(t, 'surrogate-walker');
    const song = (await upload(t, token, fixtures.plainMp3)).song;
    const lyricsUrl = `/api/files/${song.id}/lyrics`;
    expect((await t.app.inject({ method: 'PUT', url: lyricsUrl, headers: bearer(token), payload: { transcript: 'Kept line' } })).statusCode).toBe(200);
    // Spelled as JSON spells it: the escape, not UTF-8 bytes (which cannot encode a lone surrogate).
    const sendJson = (method: 'PUT' | 'POST', url: string, json: string) =>
      t.app.inject({ method, url, headers: { ...bearer(token), 'content-type': 'application/json' }, payload: json });
    const transcript = await sendJson('PUT', lyricsUrl, '{"transcript":"broken \\ud800 line"}');
    expect(transcript.statusCode, transcript.body).toBe(400);
    expect(transcript.json()).toEqual({ message: 'The lyrics must not contain broken characters (a lone UTF-16 surrogate)' });
    const words = await sendJson('PUT', lyricsUrl, '{"words":[{"text":"\\udfff","start":0,"end":1}]}');
    expect(words.statusCode, words.body).toBe(400);
    expect(words.json()).toEqual({ message: 'A word must not contain broken characters (a lone UTF-16 surrogate)' });
    expect((await t.app.inject({ url: lyricsUrl, headers: bearer(token) })).json()).toMatchObject({ text: 'Kept line' });

    const picture = path.join(path.dirname(fixtures.plainMp3), 'surrogate.png');
    await sharp({ create: { width: 32, height: 24, channels: 3, background: '#d01010' } })
      .png()
      .toFile(picture);
    const settings = settingsOf({ words: [{ text: 'placeholder', start: 0, end: 1 }] }).replace('placeholder', '\\ud800');
    const clip = await createClip(t, token, { settings, songUrl: `/music/${song.id}` }, [picture]);
    expect(clip.statusCode, clip.body).toBe(400);
    expect(clip.json<{ message: string }>().message).toMatch(/lone UTF-16 surrogate/);
    expect(await t.app.encore.platform.database.db.select().from(clips)).toEqual([]);

    // A body no schema reads still meets the backstop, in a value or in a key.
    for (const json of ['{"note":"\\ud800"}', '{"\\udc00":1}']) {
      const like = await sendJson('POST', `/api/files/${song.id}/like`, json);
      expect(like.statusCode, like.body).toBe(400);
      expect(like.json()).toEqual({ message: SURROGATE_MESSAGE });
    }
  });
});
