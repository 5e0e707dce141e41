import { defineEndpoint } from '@encore/common/endpoint';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { callBlobEndpoint, callEndpoint, callEndpointWithHeaders, endpointUrl } from './endpoint-client';

const thing = z.object({ id: z.number(), name: z.string() });
const tags = ['things'];
const endpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/things/:id/parts/:part',
    params: z.object({ id: z.number(), part: z.string() }),
    response: thing,
    summary: 's',
    tags,
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/things',
    query: z.object({ q: z.string().optional(), owner: z.boolean().optional() }),
    response: z.array(thing),
    summary: 's',
    tags,
  }),
  rename: defineEndpoint({
    method: 'PUT',
    path: '/things/:id',
    params: z.object({ id: z.number() }),
    body: z.object({ name: z.string() }),
    response: thing,
    summary: 's',
    tags,
  }),
  remove: defineEndpoint({ method: 'DELETE', path: '/things/:id', params: z.object({ id: z.number() }), status: 204, summary: 's', tags }),
  upload: defineEndpoint({ method: 'POST', path: '/things/upload', multipart: true, response: thing, status: 201, summary: 's', tags }),
  download: defineEndpoint({ method: 'GET', path: '/things/:id/file', params: z.object({ id: z.number() }), summary: 's', tags }),
};

describe('endpoint client', () => {
  it("calls the endpoint's method and path, with its parameters filled in", async () => {
    const { requests } = stubFetch({
      'GET /api/things/7/parts/wheel': { body: { id: 7, name: 'cart' } },
      'PUT /api/things/7': { body: { id: 7, name: 'wagon' } },
    });
    await expect(callEndpoint(endpoints.get, { params: { id: 7, part: 'wheel' }, fallbackMessage: 'x' })).resolves.toEqual({ id: 7, name: 'cart' });
    await expect(callEndpoint(endpoints.rename, { params: { id: 7 }, body: { name: 'wagon' }, fallbackMessage: 'x' })).resolves.toEqual({
      id: 7,
      name: 'wagon',
    });
    expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /api/things/7/parts/wheel', 'PUT /api/things/7']);
    expect(requests[1]?.body).toEqual({ name: 'wagon' });
  });

  it('percent-encodes each parameter as one path segment', async () => {
    const { requests } = stubFetch({ 'GET /api/things/1/parts/a%2Fb%3Fc%23d%20%D7%A9': { body: { id: 1, name: 'n' } } });
    await callEndpoint(endpoints.get, { params: { id: 1, part: 'a/b?c#d ש' }, fallbackMessage: 'x' });
    expect(requests[0]?.path).toBe('/api/things/1/parts/a%2Fb%3Fc%23d%20%D7%A9');
    expect(endpointUrl(endpoints.get, { params: { id: 2, part: '../x' } })).toBe('/api/things/2/parts/..%2Fx');
  });

  it('adds the query, skipping empty values', async () => {
    const { requests } = stubFetch({ 'GET /api/things': { body: [] } });
    await callEndpointWithHeaders(endpoints.list, { query: { q: 'a b', owner: undefined }, fallbackMessage: 'x' });
    expect(requests[0]?.path).toBe('/api/things?q=a+b');
    expect(endpointUrl(endpoints.list, { query: { owner: true } })).toBe('/api/things?owner=true');
  });

  it("checks the answer with the endpoint's response schema, or the caller's", async () => {
    stubFetch({ 'GET /api/things/1/parts/p': { body: { id: 1 } } });
    await expect(callEndpoint(endpoints.get, { params: { id: 1, part: 'p' }, fallbackMessage: 'Fallback' })).rejects.toMatchObject({
      status: 200,
      message: 'Fallback',
    });
    const lenient = thing.partial();
    await expect(callEndpoint(endpoints.get, { params: { id: 1, part: 'p' }, schema: lenient, fallbackMessage: 'x' })).resolves.toEqual({ id: 1 });
  });

  it('answers nothing for 204, sends a FormData as it is, and reads a binary answer as a Blob', async () => {
    const { requests } = stubFetch({
      'DELETE /api/things/3': { status: 204 },
      'POST /api/things/upload': { status: 201, body: { id: 4, name: 'up' } },
      'GET /api/things/5/file': { text: 'bytes' },
    });
    await expect(callEndpoint(endpoints.remove, { params: { id: 3 }, fallbackMessage: 'x' })).resolves.toBeUndefined();
    const form = new FormData();
    form.set('file', 'data');
    await expect(callEndpoint(endpoints.upload, { body: form, fallbackMessage: 'x' })).resolves.toEqual({ id: 4, name: 'up' });
    expect(requests[1]?.headers.has('Content-Type')).toBe(false);
    const file = await callBlobEndpoint(endpoints.download, { params: { id: 5 }, fallbackMessage: 'x' });
    expect(await file?.blob.text()).toBe('bytes');
  });
});
