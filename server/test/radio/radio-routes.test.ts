import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { startIcyStreamServer, type IcyStreamServer } from './icy-stream-server.js';

interface Station {
  id: number;
  name: string;
  streamUrl: string;
  homepageUrl: string | null;
}

/** The web app's radio API: everyone lists and reads titles, admins change stations (issue 41). */
describe.each(engines)('radio stations over the web API (%s)', (engine) => {
  let t: TestApp;
  let ada: string; // the first account: the admin
  let bob: string;
  let icy: IcyStreamServer;

  beforeAll(async () => {
    icy = await startIcyStreamServer();
    t = await startTestApp(engine);
    ada = await account(t, 'ada');
    bob = await account(t, 'bob');
  });
  afterAll(async () => {
    await t?.close();
    await icy?.close();
  });

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async (token: string) => (await call(token, 'GET', '/radio-stations')).json<{ stations: Station[]; canManage: boolean }>();

  it('lets an admin add, change and delete stations, which everyone lists by name', async () => {
    expect(await list(bob)).toEqual({ stations: [], canManage: false });
    const added = await call(ada, 'POST', '/radio-stations', {
      name: '  Zebra FM ',
      streamUrl: `${icy.origin}/station`,
      homepageUrl: 'https://zebra.example/',
    });
    expect(added.statusCode).toBe(201);
    const zebra = added.json<Station>();
    expect(zebra).toMatchObject({ name: 'Zebra FM', streamUrl: `${icy.origin}/station`, homepageUrl: 'https://zebra.example/' });
    const alpha = (
      await call(ada, 'POST', '/radio-stations', { name: 'alpha radio', streamUrl: 'https://alpha.example/live', homepageUrl: '' })
    ).json<Station>();
    expect(alpha.homepageUrl).toBeNull();

    expect(await list(bob)).toEqual({ stations: [alpha, zebra], canManage: false });
    expect((await list(ada)).canManage).toBe(true);

    const changed = await call(ada, 'PUT', `/radio-stations/${alpha.id}`, { name: 'Alpha', streamUrl: 'http://alpha.example/hq', homepageUrl: null });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ id: alpha.id, name: 'Alpha', streamUrl: 'http://alpha.example/hq', homepageUrl: null });

    expect((await call(ada, 'DELETE', `/radio-stations/${alpha.id}`)).statusCode).toBe(204);
    expect((await list(bob)).stations.map((station) => station.name)).toEqual(['Zebra FM']);
  });

  it('refuses non-admins (403), unknown stations (404) and bad input (400) with clear messages, writing nothing', async () => {
    const before = await list(ada);
    const good = { name: 'Good', streamUrl: 'https://good.example/live' };
    const zebraId = before.stations[0]?.id ?? 0;
    for (const [method, url, body] of [
      ['POST', '/radio-stations', good],
      ['PUT', `/radio-stations/${zebraId}`, good],
      ['DELETE', `/radio-stations/${zebraId}`, undefined],
    ] as const) {
      const answer = await call(bob, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
      expect(answer.json<{ message: string }>().message).toBe('Only an admin can change the radio stations');
    }
    expect((await call(ada, 'PUT', '/radio-stations/99999', good)).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', '/radio-stations/99999')).json()).toMatchObject({ message: 'Radio station not found' });
    expect((await call(ada, 'GET', '/radio-stations/99999/now-playing')).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', '/radio-stations/abc')).statusCode).toBe(400);

    const refused = async (body: unknown) => {
      const answer = await call(ada, 'POST', '/radio-stations', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      return answer.json<{ message: string }>().message;
    };
    expect(await refused({ streamUrl: 'https://x.example/' })).toMatch(/station name/);
    expect(await refused({ name: '   ', streamUrl: 'https://x.example/' })).toBe('A radio station needs a name');
    expect(await refused({ name: 'X', streamUrl: 'file:///etc/passwd' })).toBe('The stream URL must start with http:// or https://');
    expect(await refused({ name: 'X', streamUrl: 'not a url' })).toMatch(/^The stream URL is not a web address/);
    expect(await refused({ name: 'X', streamUrl: 'https://x.example/', homepageUrl: 'javascript:alert(1)' })).toBe(
      'The home page URL must start with http:// or https://',
    );
    expect(await refused({ name: 'X'.repeat(201), streamUrl: 'https://x.example/' })).toMatch(/at most 200 characters/);
    expect(await refused({ name: 'X\u0000', streamUrl: 'https://x.example/' })).toMatch(/control characters/);
    expect(await list(ada)).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/radio-stations' })).statusCode).toBe(401);
  });

  it('tells what a station plays now from its ICY metadata, one upstream read for many listeners', async () => {
    const add = async (name: string, path: string) =>
      (await call(ada, 'POST', '/radio-stations', { name, streamUrl: `${icy.origin}${path}` })).json<Station>().id;
    const titled = await add('Titled', `/station?title=${encodeURIComponent('Night Owls - Moonlight')}&blank=1`);
    const silent = await add('Silent', '/no-metadata');
    const gone = await add('Gone', '/missing');
    const latin = await add('Latin', `/latin1?title=${encodeURIComponent('Café del Mar')}`);

    const nowPlaying = async (id: number, token = bob) => {
      const answer = await call(token, 'GET', `/radio-stations/${id}/now-playing`);
      expect(answer.statusCode).toBe(200);
      return answer.json<{ title: string | null }>();
    };
    const before = icy.hits.get('/station') ?? 0;
    const answers = await Promise.all([nowPlaying(titled), nowPlaying(titled, ada), nowPlaying(titled)]);
    expect(answers).toEqual([{ title: 'Night Owls - Moonlight' }, { title: 'Night Owls - Moonlight' }, { title: 'Night Owls - Moonlight' }]);
    expect(await nowPlaying(titled)).toEqual({ title: 'Night Owls - Moonlight' });
    expect((icy.hits.get('/station') ?? 0) - before).toBe(1);

    expect(await nowPlaying(silent)).toEqual({ title: null });
    expect(await nowPlaying(gone)).toEqual({ title: null });
    expect(await nowPlaying(latin)).toEqual({ title: 'Café del Mar' });

    // A changed stream address is read afresh, not answered from the old one's cache.
    await call(ada, 'PUT', `/radio-stations/${titled}`, { name: 'Titled', streamUrl: `${icy.origin}/station?title=Changed` });
    expect(await nowPlaying(titled)).toEqual({ title: 'Changed' });
  });
});
