import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;

/**
 * Users with the web admin's rules, internet radio stations (admins write), the extensions list
 * and methods Encore does not answer: each call in JSON and in XML.
 */
describe.each(engines)('Subsonic users, internet radio and the extensions list (%s)', (engine) => {
  let t: TestApp;
  let adaKey: string;
  let bobKey: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    const adaToken = await account(t, 'ada');
    const bobToken = await account(t, 'bob');
    const keyOf = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    adaKey = await keyOf(adaToken);
    bobKey = await keyOf(bobToken);
  });
  afterAll(async () => t?.close());

  const url = (method: string, query: string, key: string | undefined, format: 'json' | 'xml') =>
    `/rest/${method}?${query}${query ? '&' : ''}${key === undefined ? '' : `apiKey=${encodeURIComponent(key)}&`}v=1.16.1&c=Tester${format === 'json' ? '&f=json' : ''}`;
  const json = async (method: string, query = '', key: string | undefined = adaKey): Promise<Json> => {
    const response = await t.app.inject({ url: url(method, query, key, 'json') });
    expect(response.statusCode).toBe(200);
    return response.json<{ 'subsonic-response': Json }>()['subsonic-response'];
  };
  const xml = async (method: string, query = '', key: string | undefined = adaKey): Promise<string> => {
    const response = await t.app.inject({ url: url(method, query, key, 'xml') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    return response.body;
  };
  const ok = (answer: Json) => expect(answer['status'], JSON.stringify(answer['error'])).toBe('ok');
  const errorCode = (answer: Json) => (answer['error'] as { code: number } | undefined)?.code;
  const signIn = async (userName: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password } })).statusCode;
  const userNames = async () => (((await json('getUsers'))['users'] as { user: Json[] }).user ?? []).map((user) => user['username']);

  it('shows a user to themself and to admins, in JSON and XML', async () => {
    expect((await json('getUser', 'username=ada'))['user']).toMatchObject({
      username: 'ada',
      email: 'ada@example.com',
      adminRole: true,
      streamRole: true,
      shareRole: true,
    });
    expect((await json('getUser', 'username=BOB'))['user']).toMatchObject({ username: 'bob', adminRole: false });
    expect(await xml('getUser', 'username=bob', bobKey)).toMatch(
      /<user username="bob" email="bob@example.com" [^>]*adminRole="false"[^>]*><folder>0<\/folder><\/user>/,
    );
    expect(errorCode(await json('getUser', 'username=ada', bobKey))).toBe(50);
    expect(errorCode(await json('getUser', 'username=nobody'))).toBe(70);
  });

  it('lists users for admins only, in JSON and XML', async () => {
    expect(await userNames()).toEqual(['ada', 'bob']);
    expect((await xml('getUsers')).match(/<user username=/g)).toHaveLength(2);
    expect(errorCode(await json('getUsers', '', bobKey))).toBe(50);
    expect(await xml('getUsers', '', bobKey)).toMatch(/<error code="50" /);
  });

  it('creates, changes and deletes accounts as the web admin does, in JSON and XML', async () => {
    // JSON, the password in clear; XML, the password as enc: hex.
    ok(await json('createUser', `username=carol&password=${encodeURIComponent('carol password 1')}&email=carol%40example.com`));
    const hex = Buffer.from('dave password 1').toString('hex');
    expect(await xml('createUser', `username=dave&password=enc:${hex}&email=dave%40example.com&adminRole=true`)).toMatch(/status="ok"/);
    expect(await userNames()).toEqual(['ada', 'bob', 'carol', 'dave']);
    expect((await json('getUser', 'username=dave'))['user']).toMatchObject({ adminRole: true });
    // The password set is the account's: the web sign-in takes it.
    expect(await signIn('carol', 'carol password 1')).toBe(200);

    ok(await json('updateUser', `username=carol&adminRole=true&email=carol2%40example.com`));
    expect((await json('getUser', 'username=carol'))['user']).toMatchObject({ adminRole: true, email: 'carol2@example.com' });
    expect(await xml('updateUser', `username=carol&adminRole=false&password=${encodeURIComponent('carol password 2')}`)).toMatch(/status="ok"/);
    expect((await json('getUser', 'username=carol'))['user']).toMatchObject({ adminRole: false });
    expect(await signIn('carol', 'carol password 2')).toBe(200);

    ok(await json('changePassword', `username=carol&password=${encodeURIComponent('carol password 3')}`));
    expect(await signIn('carol', 'carol password 3')).toBe(200);
    expect(await xml('changePassword', `username=carol&password=enc:${Buffer.from('carol password 4').toString('hex')}`)).toMatch(/status="ok"/);
    expect(await signIn('carol', 'carol password 4')).toBe(200);
    expect(await signIn('carol', 'carol password 3')).toBe(401);

    ok(await json('deleteUser', 'username=carol'));
    expect(await xml('deleteUser', 'username=dave')).toMatch(/status="ok"/);
    expect(await userNames()).toEqual(['ada', 'bob']);
  });

  it('refuses what the web admin refuses, with clear errors, and writes nothing', async () => {
    // Not an admin: error 50 for each write, and for changing a password (the profile page does that).
    for (const [method, query] of [
      ['createUser', 'username=eve&password=eve%20password%201&email=eve%40example.com'],
      ['updateUser', 'username=ada&adminRole=false'],
      ['deleteUser', 'username=ada'],
      ['changePassword', 'username=bob&password=bob%20password%202'],
    ] as const) {
      expect(errorCode(await json(method, query, bobKey)), method).toBe(50);
    }
    // Missing or bad fields.
    expect(errorCode(await json('createUser', 'username=eve&email=eve%40example.com'))).toBe(10);
    expect(errorCode(await json('createUser', 'username=eve&password=short&email=eve%40example.com'))).toBe(0);
    expect(errorCode(await json('createUser', 'username=eve&password=eve%20password%201&email=not-an-address'))).toBe(0);
    expect(errorCode(await json('createUser', 'username=eve&password=enc:zz&email=eve%40example.com'))).toBe(0);
    expect(errorCode(await json('createUser', 'username=eve&password=eve%20password%201&email=eve%40example.com&adminRole=maybe'))).toBe(0);
    // Taken name or address.
    expect(errorCode(await json('createUser', 'username=BOB&password=eve%20password%201&email=eve%40example.com'))).toBe(0);
    expect(((await json('createUser', 'username=eve&password=eve%20password%201&email=bob%40example.com'))['error'] as Json)['message']).toMatch(/e-mail/);
    // The last admin can be neither demoted nor deleted.
    expect(errorCode(await json('updateUser', 'username=ada&adminRole=false'))).toBe(0);
    expect(await xml('deleteUser', 'username=ada')).toMatch(/<error code="0" message="[^"]*admin[^"]*"/);
    // A bad password leaves the rest of the change unmade.
    expect(errorCode(await json('updateUser', 'username=bob&adminRole=true&password=short'))).toBe(0);
    expect((await json('getUser', 'username=bob'))['user']).toMatchObject({ adminRole: false });
    expect(errorCode(await json('updateUser', 'username=nobody&adminRole=true'))).toBe(70);
    expect(errorCode(await json('deleteUser', 'username=nobody'))).toBe(70);
    expect(errorCode(await json('changePassword', 'username=nobody&password=some%20password%201'))).toBe(70);
    expect(errorCode(await json('changePassword', 'username=bob&password=short'))).toBe(0);
    expect(await userNames()).toEqual(['ada', 'bob']);
    expect((await json('getUser', 'username=ada'))['user']).toMatchObject({ adminRole: true });
    expect(await signIn('bob', 'library password 1')).toBe(200);
  });

  it('lists internet radio stations to everyone and lets admins change them, in JSON and XML', async () => {
    ok(
      await json(
        'createInternetRadioStation',
        `name=${encodeURIComponent('Loop FM')}&streamUrl=${encodeURIComponent('http://127.0.0.1:8000/live')}&homepageUrl=${encodeURIComponent('https://loop.example/')}`,
      ),
    );
    expect(await xml('createInternetRadioStation', `name=Alpha&streamUrl=${encodeURIComponent('https://alpha.example/stream.mp3')}`)).toMatch(/status="ok"/);
    const stations = ((await json('getInternetRadioStations', '', bobKey))['internetRadioStations'] as { internetRadioStation: Json[] }).internetRadioStation;
    expect(stations).toEqual([
      { id: expect.any(String), name: 'Alpha', streamUrl: 'https://alpha.example/stream.mp3' },
      { id: expect.any(String), name: 'Loop FM', streamUrl: 'http://127.0.0.1:8000/live', homePageUrl: 'https://loop.example/' },
    ]);
    const loopId = String(stations[1]?.['id']);
    const alphaId = String(stations[0]?.['id']);
    expect(await xml('getInternetRadioStations', '', bobKey)).toMatch(
      new RegExp(
        `<internetRadioStations><internetRadioStation id="${alphaId}" name="Alpha" streamUrl="https://alpha.example/stream.mp3"/><internetRadioStation id="${loopId}" `,
      ),
    );

    ok(
      await json(
        'updateInternetRadioStation',
        `id=${loopId}&name=${encodeURIComponent('Loop 2')}&streamUrl=${encodeURIComponent('http://127.0.0.1:8000/two')}`,
      ),
    );
    expect(await xml('updateInternetRadioStation', `id=${alphaId}&name=Zulu&streamUrl=${encodeURIComponent('https://zulu.example/')}`)).toMatch(/status="ok"/);
    const changed = ((await json('getInternetRadioStations'))['internetRadioStations'] as { internetRadioStation: Json[] }).internetRadioStation;
    expect(changed.map((station) => [station['name'], station['streamUrl'], station['homePageUrl']])).toEqual([
      ['Loop 2', 'http://127.0.0.1:8000/two', undefined],
      ['Zulu', 'https://zulu.example/', undefined],
    ]);

    ok(await json('deleteInternetRadioStation', `id=${loopId}`));
    expect(await xml('deleteInternetRadioStation', `id=${alphaId}`)).toMatch(/status="ok"/);
    expect(await xml('getInternetRadioStations')).toMatch(/<internetRadioStations\/>/);
  });

  it('refuses radio writes from non-admins and bad stations, and writes nothing', async () => {
    const good = `name=Good&streamUrl=${encodeURIComponent('https://good.example/')}`;
    expect(errorCode(await json('createInternetRadioStation', good, bobKey))).toBe(50);
    ok(await json('createInternetRadioStation', good));
    const [station] = ((await json('getInternetRadioStations'))['internetRadioStations'] as { internetRadioStation: Json[] }).internetRadioStation;
    const id = String(station?.['id']);
    expect(errorCode(await json('updateInternetRadioStation', `id=${id}&${good}`, bobKey))).toBe(50);
    expect(errorCode(await json('deleteInternetRadioStation', `id=${id}`, bobKey))).toBe(50);
    expect(errorCode(await json('createInternetRadioStation', `streamUrl=${encodeURIComponent('https://x.example/')}`))).toBe(10);
    expect(errorCode(await json('createInternetRadioStation', 'name=X'))).toBe(10);
    expect(errorCode(await json('createInternetRadioStation', `name=X&streamUrl=${encodeURIComponent('file:///etc/passwd')}`))).toBe(0);
    expect(errorCode(await json('createInternetRadioStation', `name=X&streamUrl=${encodeURIComponent('javascript:alert(1)')}`))).toBe(0);
    expect(errorCode(await json('createInternetRadioStation', 'name=X&streamUrl=not%20a%20url'))).toBe(0);
    expect(errorCode(await json('createInternetRadioStation', `name=${'x'.repeat(201)}&streamUrl=${encodeURIComponent('https://x.example/')}`))).toBe(0);
    expect(errorCode(await json('createInternetRadioStation', `name=X&streamUrl=${encodeURIComponent('https://x.example/')}&homepageUrl=ftp%3A%2F%2Fx`))).toBe(
      0,
    );
    expect(errorCode(await json('updateInternetRadioStation', `id=999999&${good}`))).toBe(70);
    expect(errorCode(await json('updateInternetRadioStation', `id=abc&${good}`))).toBe(70);
    expect(errorCode(await json('deleteInternetRadioStation', 'id=999999'))).toBe(70);
    const after = ((await json('getInternetRadioStations'))['internetRadioStations'] as { internetRadioStation: Json[] }).internetRadioStation;
    expect(after).toEqual([{ id, name: 'Good', streamUrl: 'https://good.example/' }]);
    ok(await json('deleteInternetRadioStation', `id=${id}`));
  });

  it('lists exactly the extensions implemented, and answers any other method with error 0, never a 404', async () => {
    const extensions = (await json('getOpenSubsonicExtensions', '', undefined))['openSubsonicExtensions'] as { name: string; versions: number[] }[];
    expect(extensions).toEqual([
      { name: 'apiKeyAuthentication', versions: [1] },
      { name: 'formPost', versions: [1] },
      { name: 'indexBasedQueue', versions: [1] },
      { name: 'songLyrics', versions: [1, 2] },
      { name: 'transcodeOffset', versions: [1] },
    ]);
    expect(await xml('getOpenSubsonicExtensions', '', undefined)).toMatch(
      /<openSubsonicExtensions name="indexBasedQueue"><versions>1<\/versions><\/openSubsonicExtensions>/,
    );
    // Each extension's calls answer (tokenInfo for apiKeyAuthentication, the by-index queue).
    ok(await json('tokenInfo'));
    ok(await json('getPlayQueueByIndex'));
    for (const method of ['getPodcasts', 'jukeboxControl', 'getChatMessages', 'getVideos', 'getPodcastEpisode']) {
      const answer = await json(method);
      expect(answer, method).toMatchObject({ status: 'failed', error: { code: 0 } });
      expect((answer['error'] as Json)['message']).toMatch(new RegExp(`Not implemented: ${method}`));
      expect(await xml(`${method}.view`)).toMatch(/<error code="0" message="Not implemented: /);
    }
    const posted = await t.app.inject({ method: 'POST', url: '/rest/getPodcasts.view?f=json' });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ 'subsonic-response': { status: 'failed', error: { code: 0 } } });
  });
});
