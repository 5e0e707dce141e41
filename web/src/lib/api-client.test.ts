import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { ApiError, apiRequest } from './api-client';
import { apiErrorText } from './api-error-toast';

const pong = z.object({ pong: z.boolean() });

describe('api client', () => {
  it('sends JSON to /api with cookies, and the bearer token when one is stored', async () => {
    const { requests } = stubFetch({ 'POST /api/ping': { body: { pong: true } } });
    await expect(apiRequest('ping', { method: 'POST', body: { a: 1 }, schema: pong, fallbackMessage: 'x' })).resolves.toEqual({
      pong: true,
    });
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/ping', body: { a: 1 }, credentials: 'include' });
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(requests[0]?.headers.has('Authorization')).toBe(false);

    sessionStorage.setItem('token', 'abc');
    await apiRequest('/ping', { method: 'POST', schema: pong, fallbackMessage: 'x' });
    expect(requests[1]?.headers.get('Authorization')).toBe('Bearer abc');
  });

  it('adds query parameters, skipping empty ones', async () => {
    const { requests } = stubFetch({ 'GET /api/files': { body: { pong: true } } });
    await apiRequest('files', { query: { owner: true, favorites: undefined, q: 'a b' }, schema: pong, fallbackMessage: 'x' });
    expect(requests[0]?.path).toBe('/api/files?owner=true&q=a+b');
  });

  it("throws ApiError with the status and the server's message", async () => {
    stubFetch({ 'GET /api/ping': { status: 409, body: { message: 'Taken' } } });
    const error = await apiRequest('ping', { schema: pong, fallbackMessage: 'Fallback' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Taken', serverMessage: 'Taken' });
  });

  it('uses the fallback for a body without a message, a bad success body, or no connection', async () => {
    stubFetch({ 'GET /api/ping': { status: 502, text: '<h1>Bad gateway</h1>' }, 'GET /api/odd': { body: { nope: 1 } } });
    await expect(apiRequest('ping', { schema: pong, fallbackMessage: 'Fallback' })).rejects.toMatchObject({
      status: 502,
      message: 'Fallback',
      serverMessage: null,
    });
    await expect(apiRequest('odd', { schema: pong, fallbackMessage: 'Fallback' })).rejects.toMatchObject({
      status: 200,
      message: 'Fallback',
    });
    stubFetch({ 'GET /api/ping': () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(apiRequest('ping', { schema: pong, fallbackMessage: 'Fallback' })).rejects.toMatchObject({
      status: 0,
      message: 'Fallback',
    });
  });
});

describe('apiErrorText', () => {
  const wrong = new ApiError(401, 'Wrong username or password.', 'Wrong username or password.');
  const limited = new ApiError(429, 'Slow down', 'Slow down');
  const crashed = new ApiError(500, 'Internal', 'Internal');
  const signIn = { fallback: 'Generic', byStatus: { 401: 'Ours' }, serverMessage: [429] } as const;

  it('prefers our text for a status, then the server message where allowed, then the fallback', () => {
    expect(apiErrorText(wrong, signIn)).toBe('Ours');
    expect(apiErrorText(limited, signIn)).toBe('Slow down');
    expect(apiErrorText(crashed, signIn)).toBe('Generic');
    expect(apiErrorText(crashed, { fallback: 'Generic' })).toBe('Internal');
    expect(apiErrorText(new Error('boom'), { fallback: 'Generic' })).toBe('Generic');
  });
});
