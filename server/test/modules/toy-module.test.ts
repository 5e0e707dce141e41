import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { encoreModules } from '../../src/features/modules.js';
import { ModuleGraphError } from '../../src/modules/module-graph.js';
import { definePort, defineModule } from '../../src/modules/module.js';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { toyModule } from './toy/toy.module.js';
import { toyNotes } from './toy/toy.schema.js';

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(engines)('a new module (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // The module list plus one line: nothing else of Encore changes.
    t = await startTestApp(engine, {}, {}, { modules: [...encoreModules, toyModule] });
    // What `npm run db:generate` writes into the one migration history for the module's table.
    const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ toyNotes }));
    for (const statement of statements) await t.app.encore.platform.database.executor.executeSql(statement);
  });
  afterAll(async () => t?.close());

  it('is served: its route uses a port of the library, its job runs, its texts answer', async () => {
    const token = await account(t, 'toymaker');
    const song = await upload(t, token, fixtures.taggedMp3);
    const created = await t.app.inject({ method: 'POST', url: '/api/toy/notes', headers: bearer(token), payload: { songId: song.song.id, text: 'louder' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ message: 'Your note is on its way.' });
    const noteId = created.json<{ id: number }>().id;
    await expect
      .poll(async () => (await t.app.inject({ url: `/api/toy/notes/${noteId}`, headers: bearer(token) })).json<{ shouted: string | null }>().shouted, {
        timeout: 15_000,
      })
      .toBe('LOUDER');
    const unknownSong = await t.app.inject({ method: 'POST', url: '/api/toy/notes', headers: bearer(token), payload: { songId: 999_999, text: 'x' } });
    expect(unknownSong.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/toy/notes/424242', headers: bearer(token) })).json()).toEqual({ message: 'Note not found' });
    expect((await t.app.inject({ url: `/api/toy/notes/${noteId}` })).statusCode).toBe(401);
  });

  it('appears in the OpenAPI document under its own tag', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json<{ paths: Record<string, unknown>; tags: { name: string }[] }>();
    expect(Object.keys(document.paths)).toContain('/api/toy/notes');
    expect(document.tags.map((tag) => tag.name)).toContain('toy');
  });
});

describe('without the module', () => {
  it('Encore is what it was: the route is not there', async () => {
    const t = await startTestApp('pglite');
    try {
      expect((await t.app.inject({ method: 'POST', url: '/api/toy/notes', payload: {} })).statusCode).toBe(404);
      expect(t.app.encore.modules.list.map((entry) => entry.manifest.name)).not.toContain('toy');
    } finally {
      await t.close();
    }
  });

  it('a cycle between modules stops the start with a message that names it', async () => {
    const a = definePort<unknown>('toy-a', 'a');
    const b = definePort<unknown>('toy-b', 'b');
    const first = defineModule({ name: 'first', summary: '', requires: [b], provides: [a], tables: [], jobs: [], settings: [], tags: [], setup: () => ({}) });
    const second = defineModule({ name: 'second', summary: '', requires: [a], provides: [b], tables: [], jobs: [], settings: [], tags: [], setup: () => ({}) });
    const start = startTestApp('pglite', {}, {}, { modules: [...encoreModules, first, second] });
    await expect(start).rejects.toThrow(ModuleGraphError);
    await expect(start).rejects.toThrow('Modules depend on each other in a cycle: first -> second -> first.');
  });
});
