import { describe, expect, it } from 'vitest';
import { pgTable, serial } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { jobKind } from '../platform/jobs/jobs.types.js';
import { encoreModules } from '../features/modules.js';
import { definePort, defineModule, type AnyModule, type AnyPort } from './module.js';
import { ModuleGraphError, orderModules } from './module-graph.js';

const port = (name: string) => definePort<unknown>(name, name);
const mod = (name: string, requires: AnyPort[] = [], provides: AnyPort[] = [], extra: Partial<AnyModule> = {}): AnyModule =>
  defineModule({ name, summary: name, requires, provides, tables: [], jobs: [], settings: [], tags: [], setup: () => ({}), ...extra });

describe('module order', () => {
  it('puts every module after the providers of what it requires, keeping the list order otherwise', () => {
    const songs = port('songs');
    const words = port('words');
    const clips = mod('clips', [songs, words]);
    const lyrics = mod('lyrics', [songs], [words]);
    const library = mod('library', [], [songs]);
    const auth = mod('auth');
    expect(orderModules([clips, auth, lyrics, library]).map((m) => m.name)).toEqual(['library', 'lyrics', 'clips', 'auth']);
  });

  it('refuses a cycle and names the modules in it', () => {
    const a = port('a');
    const b = port('b');
    const c = port('c');
    const modules = [mod('one', [c], [a]), mod('two', [a], [b]), mod('three', [b], [c])];
    expect(() => orderModules(modules)).toThrow(ModuleGraphError);
    expect(() => orderModules(modules)).toThrow('Modules depend on each other in a cycle: one -> three -> two -> one.');
  });

  it('refuses a port nobody provides, or two provide', () => {
    const songs = port('songs');
    expect(() => orderModules([mod('playlists', [songs])])).toThrow('Module "playlists" requires port "songs", which no module provides.');
    expect(() => orderModules([mod('library', [], [songs]), mod('folders', [], [songs])])).toThrow(
      'Port "songs" is provided by two modules: library and folders.',
    );
  });

  it('refuses a table, a job or a name claimed by two modules', () => {
    const table = pgTable('songs', { id: serial('id').primaryKey() });
    expect(() => orderModules([mod('library', [], [], { tables: [table] }), mod('folders', [], [], { tables: [table] })])).toThrow(
      'Table "songs" is claimed by two modules: library and folders.',
    );
    const job = jobKind('library.scan', z.object({}));
    expect(() => orderModules([mod('library', [], [], { jobs: [job] }), mod('folders', [], [], { jobs: [job] })])).toThrow(
      'Job "library.scan" is claimed by two modules: library and folders.',
    );
    expect(() => orderModules([mod('library'), mod('library')])).toThrow('The name "library" is claimed by two modules: library and library.');
  });

  it("orders Encore's own modules, each after what it requires", () => {
    const ordered = orderModules(encoreModules);
    expect(ordered).toHaveLength(encoreModules.length);
    const position = new Map(ordered.map((module, index) => [module.name, index]));
    for (const module of ordered) {
      for (const required of module.requires) {
        const provider = ordered.find((other) => other.provides.some((provided) => provided.name === required.name));
        expect(position.get(provider?.name ?? '')).toBeLessThan(position.get(module.name) ?? -1);
      }
    }
  });
});
