import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The one-step checks of the server (a user's storage quota, a kind's live tasks, the first
 * admin, the migrations) are PostgreSQL advisory locks. Two of them sharing a key would make
 * unrelated requests wait on each other, or (one-key and two-key locks of the same numbers)
 * let a check run beside the insert it guards. Every lock names its key space by a constant of
 * its own, and no two constants share a value.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('advisory locks', () => {
  it('each take a key space named by a constant, and no two constants share a value', async () => {
    const constants = new Map<string, { value: number; file: string }>();
    const calls: { file: string; call: string }[] = [];
    for (const file of await sources(SRC)) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/const ([A-Z][A-Z0-9_]*LOCK[A-Z0-9_]*) = (0x[0-9a-f]+|[\d_]+);/gi)) {
        constants.set(match[1] as string, { value: Number((match[2] as string).replaceAll('_', '')), file: path.relative(SRC, file) });
      }
      for (const match of text.matchAll(/pg_advisory_(?:xact_)?lock\(([^)]*)\)/g)) calls.push({ file: path.relative(SRC, file), call: match[1] as string });
    }
    expect(calls.length).toBeGreaterThan(0);
    for (const { file, call } of calls) {
      const first = call.split(',')[0]?.trim() ?? '';
      // `${NAME}` in a sql`` template, or $1 with the constant among the query's values.
      const named = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(first)?.[1];
      if (named) expect(constants.has(named), `${file}: ${named} is not a lock constant`).toBe(true);
      else expect(first, `${file}: pg_advisory_lock(${call}) takes a literal key`).toMatch(/^\$\d+$/);
    }
    const byValue = new Map<number, string[]>();
    for (const [name, { value, file }] of constants) byValue.set(value, [...(byValue.get(value) ?? []), `${name} (${file})`]);
    expect([...byValue.values()].filter((names) => names.length > 1)).toEqual([]);
  });
});
