import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, fillPath, type PathParamNames } from './endpoint.js';

describe('defineEndpoint', () => {
  it('keeps the declaration and fills in the defaults: status 200, not multipart', () => {
    const params = z.object({ id: z.coerce.number() });
    const endpoint = defineEndpoint({
      method: 'GET',
      path: '/things/:id',
      params,
      response: z.object({ id: z.number() }),
      summary: 'One thing',
      tags: ['things'],
    });
    expect(endpoint).toMatchObject({ method: 'GET', path: '/things/:id', params, status: 200, multipart: false, summary: 'One thing', tags: ['things'] });
    expect(endpoint.body).toBeUndefined();
    expectTypeOf(endpoint.status).toEqualTypeOf<200>();
  });

  it('names the parameters of a path template in its type', () => {
    expectTypeOf<PathParamNames<'/playlists/:id/songs/:songId'>>().toEqualTypeOf<'id' | 'songId'>();
    expectTypeOf<PathParamNames<'/playlists'>>().toEqualTypeOf<never>();
    // A params schema that misses a parameter of the path does not compile.
    // @ts-expect-error songId is not in the schema
    defineEndpoint({ method: 'DELETE', path: '/playlists/:id/songs/:songId', params: z.object({ id: z.number() }), summary: 's', tags: [] });
  });
});

describe('fillPath', () => {
  it('puts each parameter in its segment', () => {
    expect(fillPath('/playlists/:id/songs/:songId', { id: 7, songId: 12 })).toBe('/playlists/7/songs/12');
    expect(fillPath('/clips/clip-status/:task_id', { task_id: 'abc' })).toBe('/clips/clip-status/abc');
  });

  it('percent-encodes a value so it stays one segment', () => {
    expect(fillPath('/share/:token', { token: 'a/b?c#d e%' })).toBe('/share/a%2Fb%3Fc%23d%20e%25');
    expect(fillPath('/share/:token', { token: 'שיר' })).toBe('/share/%D7%A9%D7%99%D7%A8');
  });

  it('refuses a missing parameter rather than calling a path with "undefined" in it', () => {
    expect(() => fillPath('/tasks/:id', {} as { id: string })).toThrow(/:id/);
  });
});
