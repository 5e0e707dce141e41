import { readFile, writeFile } from 'node:fs/promises';
import { encoreModules } from '../src/features/modules.js';
import { withModuleTable } from '../src/modules/module-docs.js';

/** `npm run docs:features`: rewrites the module table of server/src/features/README.md from the manifests. */
const file = new URL('../src/features/README.md', import.meta.url);
const current = await readFile(file, 'utf8');
const next = withModuleTable(current, encoreModules);
if (next !== current) await writeFile(file, next);
console.warn(next === current ? 'server/src/features/README.md is up to date' : 'server/src/features/README.md rewritten from the manifests');
